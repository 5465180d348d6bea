/** Task > Download Recording in n8n's engine (this process): ended calls' recordings as binary data, ready for a CRM or a drive. */
import { TestClock } from '../../helpers/clock';
import { itemsOf } from '../../../dev/harness/run-results';
import { N8nNode } from '../../../dev/harness/workflow-builders';
import { unpodNode } from '../../helpers/nodes';
import { CREDENTIAL, credentialsFor, Harness, startHarness, Workflows } from '../../helpers/setup';
import { SEED } from '../../../dev/server/seed';
import { RECORDING, silentMp3 } from '../../../dev/server/recordings';
import type { Task } from '../../../dev/server/types';

const listCalls: N8nNode = {
	name: 'Calls',
	type: 'n8n-nodes-unpod.unpodTask',
	typeVersion: 1,
	credentials: CREDENTIAL,
	executeOnce: true,
	parameters: {
		operation: 'getAll',
		callsOf: 'space',
		space: { __rl: true, mode: 'token', value: SEED.secondSpaceToken },
		returnAll: true,
	},
};
const download = (parameters: Record<string, unknown> = {}, settings: Partial<N8nNode> = {}): N8nNode =>
	unpodNode(
		'task',
		'Download',
		{ operation: 'downloadRecording', recordingUrl: '={{ $json.recording_url }}', ...parameters },
		{ typeVersion: 1, ...settings },
	);

const workflows = new Workflows();
const continueOnFail = workflows.chain('recContinue', [listCalls, download({}, { onError: 'continueRegularOutput' })]);
const stopOnFail = workflows.chain('recStop', [listCalls, download()]);
// The same download with the credential at https on the local server's host and port, where its
// recordings are served by plain http: not the credential's origin.
const httpsCredential = { unpodApi: { id: 'unpodHttps', name: 'Unpod (https)' } };
const plainHttp = workflows.chain('recPlainHttp', [
	listCalls,
	download({}, { onError: 'continueRegularOutput', credentials: httpsCredential }),
]);
const limited = workflows.chain('recLimited', [
	listCalls,
	download({ options: { maxSizeMb: 1, binaryPropertyName: 'audio' } }, { onError: 'continueRegularOutput' }),
]);

let h: Harness;
// Retry waits and back-off run on the test's clock.
const clock = TestClock.install();
let calls: Task[];
beforeAll(async () => {
	h = await startHarness({}, workflows, clock);
	calls = h.server.calls.addTasks(
		['Rec One', 'Rec Two', 'Rec Three', 'Rec Failed'].map((name, i) => ({ name, contact_number: `+4930555000${i}` })),
		{ space: SEED.secondSpaceToken },
	);
	calls.forEach((task, i) => h.server.store.finishTask(task, i < 3 ? 'completed' : 'failed'));
});
afterAll(async () => {
	await h?.close();
	clock.uninstall();
});
afterEach(() => h.server.resetTraffic());

const recordingRequests = () => h.server.requests.filter((r) => r.path.startsWith('/recordings/'));

test('3 ended calls: each recording as binary data (audio/mpeg, <task_id>.mp3); the failed call an error item', async () => {
	const run = await h.run(continueOnFail);
	expect(run.exitCode).toBe(0);
	const items = itemsOf(run, 'Download') as Array<{ json: any; binary?: any }>;
	expect(items).toHaveLength(4);
	const byName = new Map(items.map((i) => [i.json.contact_name, i]));
	for (const name of ['Rec One', 'Rec Two', 'Rec Three']) {
		const item = byName.get(name)!;
		const task = calls.find((t) => t.input.name === name)!;
		// The item keeps its fields, and gains the file. (Lists are newest first: the failed call is item 1.)
		expect(item.json).toMatchObject({ task_id: task.task_id, status: 'completed', recording_url: expect.any(String) });
		expect(item.binary.data).toMatchObject({
			mimeType: 'audio/mpeg',
			fileName: `${task.task_id}.mp3`,
			fileExtension: 'mp3',
		});
		// Every byte of the MP3, where n8n keeps it: on disk by default from 2.x on (the item holds
		// an id and the size), in the item itself (base64) in 1.x's default mode.
		const data = item.binary.data;
		if (data.id) {
			expect(data.id).toMatch(/^filesystem/);
			expect(data.bytes ?? RECORDING.length).toBe(RECORDING.length);
			expect(data.fileSize).toBe(`${(RECORDING.length / 1000).toFixed(1)} kB`);
		} else expect(Buffer.from(data.data, 'base64').equals(RECORDING)).toBe(true);
	}
	const failed = byName.get('Rec Failed')!;
	expect(failed.binary).toBeUndefined();
	expect(failed.json.error).toBe('Item 1 has no recording URL');
	// The recordings live on the Unpod host here: the credential's headers went with them.
	const requests = recordingRequests();
	expect(requests).toHaveLength(3);
	expect(requests.every((r) => r.headers.authorization === `Token ${SEED.token}`)).toBe(true);
});

test('a storage hiccup (a 500, a dropped connection) is retried: every recording arrives once', async () => {
	h.server.faults.add({ kind: 'serverError', method: 'GET', path: '/recordings/', times: 1 });
	h.server.faults.add({ kind: 'drop', method: 'GET', path: '/recordings/', times: 1 });
	const run = await h.run(continueOnFail);
	expect(run.exitCode).toBe(0);
	const items = itemsOf(run, 'Download') as Array<{ json: any; binary?: any }>;
	expect(items.filter((i) => i.binary?.data)).toHaveLength(3);
	expect(recordingRequests().map((r) => r.status)).toEqual([500, 0, 200, 200, 200]);
});

test('without Continue On Fail, the call with no recording fails the node and says why', async () => {
	const run = await h.run(stopOnFail);
	expect(run.exitCode).toBe(1);
	expect(run.resultData?.error).toMatchObject({
		message: 'Item 1 has no recording URL',
		description: expect.stringMatching(/A call that failed or was not answered has no recording/),
	});
});

test('a recording on another host (a storage service) gets no Unpod headers', async () => {
	h.server.store.recordingBase = h.server.url.replace('127.0.0.1', 'localhost');
	const extra = h.server.calls.addTasks([{ name: 'Rec Elsewhere', contact_number: '+493055500099' }], {
		space: SEED.secondSpaceToken,
	});
	h.server.store.finishTask(extra[0], 'completed');
	h.server.store.recordingBase = h.server.url;
	const run = await h.run(continueOnFail);
	expect(run.exitCode).toBe(0);
	const elsewhere = recordingRequests().find((r) => r.path.includes(extra[0].task_id))!;
	expect(elsewhere.headers.host).toMatch(/^localhost:/);
	expect(elsewhere.headers.authorization).toBeUndefined();
	expect(elsewhere.headers['org-handle']).toBeUndefined();
	const item = itemsOf(run, 'Download').find((i: any) => i.json.task_id === extra[0].task_id) as any;
	expect(item.binary.data.fileName).toBe(`${extra[0].task_id}.mp3`);
});

test("a recording by plain http on Unpod's own host, the credential at https, gets no Unpod headers", async () => {
	const [local] = credentialsFor(h.server);
	await h.n8n.importCredentials([
		{
			...local,
			...httpsCredential.unpodApi,
			data: { ...local.data, baseUrl: h.server.url.replace('http:', 'https:') },
		},
	]);
	const run = await h.run(plainHttp);
	expect(run.exitCode).toBe(0);
	const requests = recordingRequests();
	expect(requests.length).toBeGreaterThanOrEqual(3);
	for (const request of requests) {
		expect(request.headers.authorization).toBeUndefined();
		expect(request.headers['org-handle']).toBeUndefined();
	}
	expect(itemsOf(run, 'Download').filter((i: any) => i.binary?.data)).toHaveLength(requests.length);
});

test('Max Size: a larger recording fails its item, announced or not, and Put Output In Field names the field', async () => {
	h.server.recording = silentMp3(70); // about 1.1 MB
	const announced = await h.run(limited);
	h.server.recordingLength = false;
	const streamed = await h.run(limited);
	for (const run of [announced, streamed]) {
		expect(run.exitCode).toBe(0);
		const items = itemsOf(run, 'Download') as Array<{ json: any; binary?: any }>;
		const completed = items.filter((i) => i.json.status === 'completed');
		expect(completed.length).toBeGreaterThanOrEqual(3);
		for (const item of completed) {
			expect(item.json.error).toMatch(/^Item \d+: the recording is larger than 1 MB$/);
			expect(item.binary?.audio).toBeUndefined();
		}
	}
	h.server.recording = RECORDING;
	h.server.recordingLength = true;
	const small = await h.run(limited);
	const ok = (itemsOf(small, 'Download') as Array<{ json: any; binary?: any }>).filter((i) => i.binary);
	expect(ok.length).toBeGreaterThanOrEqual(3);
	expect(ok.every((i) => i.binary.audio.mimeType === 'audio/mpeg')).toBe(true);
});
