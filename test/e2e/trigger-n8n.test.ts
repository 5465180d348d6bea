/** The Unpod Trigger in a real, running n8n: activated, polled by n8n's scheduler every 5 seconds. */
import { graph } from '../helpers/n8n';
import { N8nServer } from '../helpers/n8n-server';
import { CREDENTIAL, Harness, startHarness } from '../helpers/setup';
import { SEED, Task } from '../server/store';

let h: Harness;
let n8n: N8nServer | undefined;

const waitFor = async (what: string, check: () => boolean, timeoutMs = 60_000) => {
	const deadline = Date.now() + timeoutMs;
	while (!check()) {
		if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
		await new Promise((r) => setTimeout(r, 200));
	}
};

beforeAll(async () => {
	h = await startHarness();
});

afterAll(async () => {
	await n8n?.stop();
	await h?.close();
});

test('an active workflow emits each ended call once, as n8n polls', async () => {
	const store = h.server.store;
	const space = store.spaces.get(SEED.spaceToken)!;
	const contacts = Array.from({ length: 8 }, (_, i) => ({ name: `Caller ${i}`, contact_number: `+4420794610${i}0` }));
	const tasks: Task[] = store.createTasks(
		space,
		SEED.agentHandle,
		contacts,
		'test',
		store.users.get(SEED.token)!,
		null,
	).tasks;
	store.finishTask(tasks[0], 'completed'); // ended before activation: never emitted

	const workflow = graph(
		'triggerLive',
		[
			{
				name: 'Unpod Trigger',
				type: 'n8n-nodes-unpod.unpodTrigger',
				credentials: CREDENTIAL,
				parameters: {
					pollTimes: { item: [{ mode: 'custom', cronExpression: '0-59/5 * * * * *' }] },
					watch: 'space',
					space: { __rl: true, mode: 'token', value: SEED.spaceToken },
					events: ['completed', 'failed'],
					simplify: true,
					options: {},
				},
			},
			{
				name: 'Report',
				type: 'n8n-nodes-base.httpRequest',
				typeVersion: 4.2,
				parameters: {
					method: 'POST',
					url: `${h.server.url}/__sim/sink`,
					sendBody: true,
					specifyBody: 'json',
					jsonBody: '={{ JSON.stringify($json) }}',
					options: {},
				},
			},
		],
		[['Unpod Trigger', 'Report']],
	);
	await h.n8n.importWorkflows([workflow]);
	const published = await h.n8n.cli(['publish:workflow', '--id=triggerLive']);
	expect(published.exitCode).toBe(0);

	const polls = () => h.server.requestsTo('GET', `/spaces/${SEED.spaceToken}/tasks/`).length;
	n8n = await N8nServer.start(h.n8n);
	await waitFor('the first poll', () => polls() >= 1);
	expect(h.server.sink).toEqual([]);

	store.finishTask(tasks[2], 'completed');
	store.finishTask(tasks[5], 'failed');
	const created = store.createTasks(
		space,
		SEED.agentHandle,
		[{ name: 'Late', contact_number: '+442079461999' }],
		'test',
		store.users.get(SEED.token)!,
		null,
	).tasks;
	store.finishTask(created[0], 'completed');

	await waitFor('three outcomes', () => h.server.sink.length >= 3);
	const afterFirst = polls();
	await waitFor('two more polls', () => polls() >= afterFirst + 2, 30_000);
	const received = h.server.sink as Array<Record<string, unknown>>;
	expect(received.map((r) => r.task_id).sort()).toEqual(
		[tasks[2].task_id, tasks[5].task_id, created[0].task_id].sort(),
	);
	expect(received.find((r) => r.task_id === tasks[5].task_id)).toMatchObject({
		status: 'failed',
		contact_name: 'Caller 5',
	});
	expect(received.find((r) => r.task_id === created[0].task_id)).toMatchObject({
		status: 'completed',
		contact_name: 'Late',
		call_status: 'completed',
	});
	// Every poll of an unchanged space reads one page.
	expect(h.server.requestsTo('GET', `/spaces/${SEED.spaceToken}/tasks/`).every((r) => r.query.page === '1')).toBe(true);
});
