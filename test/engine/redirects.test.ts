/**
 * Where the credential goes, in n8n's engine (this process) against the local server: a redirect
 * within Unpod's origin keeps its headers, a redirect to another origin gets none of the three
 * (an API read is not followed, a recording is fetched without them), a plain-http Base URL and an
 * internal recording address are refused before any request. A second local listener (another
 * origin: another port) records what reaches it. https to http runs in real n8n (test/e2e/editor.test.ts).
 */
import { TestClock } from '../helpers/clock';
import { itemsOf } from '../../dev/harness/run-results';
import type { N8nNode } from '../../dev/harness/workflow-builders';
import { CREDENTIAL_HEADERS, OtherHost } from '../../dev/server/otherHost';
import { SEED } from '../../dev/server/seed';
import { credentialsFor, Harness, startHarness, Workflows } from '../helpers/setup';
import { spaceRef, unpodNode } from '../helpers/nodes';

const CLEAR = { unpodApi: { id: 'unpodClearHttp', name: 'Unpod (plain http)' } };
const PUBLIC = { unpodApi: { id: 'unpodPublic', name: 'Unpod (public host)' } };
const onError = { onError: 'continueRegularOutput' as const, executeOnce: true };
const tasks = (settings: Partial<N8nNode> = {}) =>
	unpodNode(
		'task',
		'Tasks',
		{ operation: 'getAll', callsOf: 'space', space: spaceRef(SEED.secondSpaceToken), returnAll: true },
		{ typeVersion: 1, ...onError, ...settings },
	);
const agents = (settings: Partial<N8nNode> = {}) =>
	unpodNode('agent', 'Agents', { operation: 'getAll', returnAll: true }, { ...onError, ...settings });
const download = (settings: Partial<N8nNode> = {}) =>
	unpodNode(
		'task',
		'Download',
		{ operation: 'downloadRecording', recordingUrl: '={{ $json.recording_url }}' },
		{ typeVersion: 1, onError: 'continueRegularOutput', ...settings },
	);

const workflows = new Workflows();
// A read by the package's own request (Task > Get Many), one by the routing engine (Agent > Get Many), a recording.
const reads = workflows.chain('redirectReads', [tasks(), download(), agents()]);
const clear = workflows.chain('redirectClearHttp', [agents({ credentials: CLEAR })]);
const internal = workflows.chain('redirectInternal', [tasks(), download({ credentials: PUBLIC })]);

let h: Harness;
let other: OtherHost;
const clock = TestClock.install();
beforeAll(async () => {
	h = await startHarness({}, workflows, clock);
	other = await new OtherHost().start();
	const [seed] = credentialsFor(h.server);
	await h.n8n.importCredentials([
		{ ...CLEAR.unpodApi, type: 'unpodApi', data: { ...seed.data, baseUrl: 'http://unpod.example' } },
		{ ...PUBLIC.unpodApi, type: 'unpodApi', data: { ...seed.data, baseUrl: 'https://unpod.example' } },
	]);
	const [call] = h.server.calls.addTasks([{ name: 'Redirected Rita', contact_number: '+4930555000777' }], {
		space: SEED.secondSpaceToken,
	});
	h.server.store.finishTask(call, 'completed');
});
afterAll(async () => {
	await other?.stop();
	await h?.close();
	clock.uninstall();
});
afterEach(() => {
	h.server.resetTraffic();
	other.requests = [];
});

const TASKS_PATH = `/spaces/${SEED.secondSpaceToken}/tasks/`;
const redirect = (path: string, location: string) =>
	h.server.faults.add({ kind: 'redirect', path, location, times: 1 });

test("a redirect within Unpod's origin is followed with the credential: API reads and a recording", async () => {
	for (const path of [TASKS_PATH, '/agents/', '/recordings/']) redirect(path, h.server.url);
	const run = await h.run(reads);
	expect(run.exitCode).toBe(0);
	expect(itemsOf(run, 'Tasks').map((i) => i.json.contact_name)).toEqual(['Redirected Rita']);
	expect(itemsOf(run, 'Agents').length).toBeGreaterThan(0);
	expect(itemsOf(run, 'Download')[0].binary?.data.mimeType).toBe('audio/mpeg');
	for (const path of [TASKS_PATH, '/agents/', '/recordings/']) {
		const asked = h.server.requests.filter((r) => r.path.includes(path));
		// The redirect, then its target: both with the three headers.
		expect([path, asked.map((r) => r.status)]).toEqual([path, [302, 200]]);
		expect(asked.every((r) => r.headers.authorization === `Token ${SEED.token}`)).toBe(true);
		expect(asked.every((r) => r.headers['org-handle'] === SEED.orgHandle)).toBe(true);
	}
	expect(other.requests).toHaveLength(0);
});

test('a redirect to another origin: an API read is not followed and says so; a recording is fetched without the credential', async () => {
	for (const path of [TASKS_PATH, '/agents/']) redirect(path, other.url);
	const run = await h.run(reads);
	expect(run.exitCode).toBe(0);
	// Nothing went there: no request, so no header (n8n's own following sent all three).
	expect(other.requests.map((r) => r.headers.authorization)).toEqual([]);
	for (const node of ['Tasks', 'Agents'])
		expect([node, itemsOf(run, node)[0].json.error]).toEqual([
			node,
			`Unpod answered with a redirect (HTTP 302) to ${other.url}, which was not followed`,
		]);

	// The recording: Unpod's host sends it on to storage elsewhere.
	h.server.resetTraffic();
	redirect('/recordings/', other.url);
	const listed = await h.run(reads);
	expect(itemsOf(listed, 'Download')[0].binary?.data.mimeType).toBe('audio/mpeg');
	const [atUnpod] = h.server.requests.filter((r) => r.path.startsWith('/recordings/'));
	expect([atUnpod.status, atUnpod.headers.authorization]).toEqual([302, `Token ${SEED.token}`]);
	expect(other.requests.map((r) => r.path)).toEqual([atUnpod.path]);
	const received = other.requests[0].headers;
	for (const header of CREDENTIAL_HEADERS) expect([header, received[header]]).toEqual([header, undefined]);
	for (const value of [SEED.token, SEED.orgHandle, SEED.productId])
		expect(JSON.stringify(received)).not.toContain(value);
});

test('a plain-http Base URL outside the own network is refused by every node, before any request', async () => {
	// n8n's proxy support leads plain http for unpod.example to the other host, which records it:
	// a request sent would be seen there.
	process.env.HTTP_PROXY = other.url;
	try {
		const run = await h.run(clear);
		expect(itemsOf(run, 'Agents')[0].json.error).toBe(
			'The Base URL of the Unpod credential uses plain http to unpod.example: the API token would travel unencrypted. Use https://, or plain http only to localhost or a private network address.',
		);
	} finally {
		delete process.env.HTTP_PROXY;
	}
	expect(other.requests).toHaveLength(0);
});

test('Download Recording refuses an internal address unless the credential itself is internal', async () => {
	const run = await h.run(internal);
	const [item] = itemsOf(run, 'Download');
	expect(item.binary).toBeUndefined();
	expect(item.json.error).toBe(
		"The recording URL points at 127.0.0.1, an address on this machine or a private network: refused, as recordings live on Unpod's or a storage host's public address",
	);
	// The list (the local server's credential) was read; the recording was never asked for.
	expect(h.server.requests.filter((r) => r.path.startsWith('/recordings/'))).toHaveLength(0);
});
