/**
 * The Unpod Trigger's poll rings a waiting execution's resume address (shared/resume.ts), polled
 * by n8n-core against the local server, the ring received by a stand-in for n8n's own address.
 */
import { createServer } from 'http';
import type { IncomingHttpHeaders, Server } from 'http';
import type { AddressInfo } from 'net';
import { TestClock } from '../../helpers/clock';
import { seedCredential, spacePoller } from '../../helpers/poll';
import { startServer, UnpodServer } from '../../../dev/server/server';
import { SEED } from '../../../dev/server/seed';
import { newWaitToken, RESUME_FIELD, WAIT_TOKEN, waitKey } from '../../../nodes/shared/resume';

let server: UnpodServer;
let n8nAddress: Server;
let baseUrl: string;
const rings: Array<{ method?: string; url?: string; headers: IncomingHttpHeaders; body: string }> = [];
const clock = TestClock.install();
afterAll(() => clock.uninstall());

beforeEach(async () => {
	rings.length = 0;
	server = await startServer();
	n8nAddress = createServer((req, res) => {
		let body = '';
		req.on('data', (chunk) => (body += chunk));
		req.on('end', () => {
			rings.push({ method: req.method, url: req.url, headers: req.headers, body });
			res.setHeader('Content-Type', 'application/json');
			res.end(JSON.stringify({ resumed: false, reason: 'A call of this wait is still open' }));
		});
	});
	await new Promise<void>((resolve) => n8nAddress.listen(0, '127.0.0.1', resolve));
	baseUrl = `http://127.0.0.1:${(n8nAddress.address() as AddressInfo).port}/`;
});

afterEach(async () => {
	await server.stop();
	await new Promise((resolve) => n8nAddress.close(resolve));
});

const poller = (apiToken = SEED.token, webhookSecret = '') =>
	spacePoller(server, { instanceBaseUrl: baseUrl, credentials: { apiToken, webhookSecret } });
const SECRET = 'a-webhook-secret-of-24-chars';
/** A resume address as the waiting node makes it, its token made with `key`. */
const addressWith = (key: string) =>
	`${baseUrl}webhook-waiting/41/approval-node?${WAIT_TOKEN}=${newWaitToken(key, '41', 'approval-node')}&space=${SEED.spaceToken}`;

test("a call's end rings its waiting execution with a plain request: no Unpod header, no token", async () => {
	const p = poller();
	const resumeUrl = addressWith(waitKey(p.instanceId, seedCredential(server)));
	const [waited, plain] = server.calls.addTasks(
		[
			{ name: 'Approver', contact_number: '+14155550100', [RESUME_FIELD]: resumeUrl },
			{ name: 'Someone else', contact_number: '+14155550101' },
		],
		{ space: SEED.spaceToken, pilot: SEED.agentHandle },
	);
	await clock.advance(1000);
	expect(await clock.drive(p.poll())).toBeNull();
	server.store.finishTask(waited, 'completed');
	server.store.finishTask(plain, 'completed');
	const emitted = await clock.drive(p.poll());
	expect(emitted!.map((item) => item.json.task_id)).toEqual([waited.task_id, plain.task_id]);

	// One ring, for the call that carries a resume address, at that address.
	expect(rings).toHaveLength(1);
	const [ring] = rings;
	expect([ring.method, `http://127.0.0.1:${new URL(baseUrl).port}${ring.url}`]).toEqual(['POST', resumeUrl]);
	expect(JSON.parse(ring.body)).toEqual({ task_id: waited.task_id, run_id: waited.run_id });
	// The credential's three headers are Unpod's alone; none of its values travels in any header.
	for (const header of ['authorization', 'org-handle', 'product-id']) expect(ring.headers[header]).toBeUndefined();
	const sent = JSON.stringify(ring.headers);
	for (const secret of [SEED.token, SEED.orgHandle]) expect(sent).not.toContain(secret);
	// The same poll's requests to Unpod did carry them: the stand-in is not blind to headers.
	expect(server.requests.some((r) => r.headers.authorization === `Token ${SEED.token}`)).toBe(true);
});

test('with a Webhook Secret, a new API token strands no wait; an address made with another key rings nothing', async () => {
	const first = poller(SEED.token, SECRET);
	const credential = { ...seedCredential(server), webhookSecret: SECRET };
	const key = waitKey(first.instanceId, credential);
	const made = addressWith(key);
	const forged = [
		// Keyed with the API token alone, which anyone holding it could do.
		addressWith(SEED.token),
		// From what an exported workflow carries (the instance ID) and the account, without the secret.
		addressWith(waitKey(first.instanceId, { ...seedCredential(server), apiToken: '' })),
		// Another Unpod account's (another organization), or another n8n's.
		addressWith(waitKey(first.instanceId, { ...credential, orgHandle: SEED.otherOrgHandle })),
		addressWith(waitKey('another-instance', credential)),
	];
	const tasks = server.calls.addTasks(
		[made, ...forged].map((url, i) => ({
			name: `Waiter ${i}`,
			contact_number: `+1415555020${i}`,
			[RESUME_FIELD]: url,
		})),
		{ space: SEED.spaceToken, pilot: SEED.agentHandle },
	);
	await clock.advance(1000);
	expect(await clock.drive(first.poll())).toBeNull();
	// The token leaked: the user makes a new one and revokes the old; the credential gets the new one.
	const rotated = server.rotateToken(SEED.token);
	tasks.forEach((task) => server.store.finishTask(task, 'completed'));
	const afterRotation = poller(rotated, SECRET);
	// Each address not made with the wait key is ignored, and n8n's log says so (read here, not printed).
	const logged = jest.spyOn(afterRotation.logger, 'warn').mockImplementation(() => undefined);
	let emitted;
	let warnings: string[];
	try {
		emitted = await clock.drive(afterRotation.poll());
	} finally {
		warnings = logged.mock.calls.map(([line]) => String(line));
		logged.mockRestore();
	}
	const ignored = warnings.filter((line) => /names a resume address that this package did not make/.test(line));
	expect(ignored).toHaveLength(forged.length);
	expect(emitted).toHaveLength(5);
	// Read with the new token (the old one answers 401 now), and only the address made with the wait key rung.
	expect(server.requests.at(-1)!.headers.authorization).toBe(`Token ${rotated}`);
	expect(rings.map((ring) => `${baseUrl}${ring.url!.slice(1)}`)).toEqual([made]);
});
