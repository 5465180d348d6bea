/**
 * Task > Create's execute, run in-process inside n8n-core's ExecuteContext against the local
 * server: each branch of the operation (bad rows, batches, a lost answer, the other create
 * path, the duplicate guard, a refused batch), with the failed item of each.
 */
import { stopExecuteContextTimers } from '../../../dev/harness/engine';
import { createExecutor } from '../../helpers/execute';
import { startServer, UnpodServer } from '../../../dev/server/server';
import { SEED } from '../../../dev/server/seed';

let server: UnpodServer;
beforeAll(async () => {
	server = await startServer();
});
afterAll(async () => {
	stopExecuteContextTimers();
	await server?.stop();
});
afterEach(() => server.resetTraffic());

let numbers = 0;
const rows = (n: number, prefix: string) =>
	Array.from({ length: n }, (_, i) => ({
		name: `${prefix} ${i + 1}`,
		phone: `+4930555${String(numbers++).padStart(5, '0')}`,
		company: 'Acme',
	}));
const executor = (
	parameters: Record<string, unknown> = {},
	onError?: 'continueRegularOutput' | 'continueErrorOutput',
) => createExecutor(server, parameters, onError);
const posts = () => server.requestsTo('POST', `/spaces/${SEED.spaceToken}/tasks/`);

test('rows in batches: one request per batch, each row paired with its own task, in order', async () => {
	const input = rows(5, 'Batch');
	const output = await executor({ options: { batchSize: 2 } }).run(input);
	expect(posts()).toHaveLength(3);
	expect(output.map((item) => item.pairedItem)).toEqual([0, 1, 2, 3, 4].map((item) => ({ item })));
	for (const [i, item] of output.entries()) {
		const task = server.store.tasksById.get(String(item.json.task_id))!;
		expect(task.input.name).toBe(input[i].name);
		expect(item.json).toMatchObject({ ...input[i], run_id: task.run_id, task_status: 'pending' });
	}
});

test('a bad row stops the node before anything is sent, naming every bad row', async () => {
	const input = [...rows(2, 'Good'), { name: '', phone: '+49305550000' }, { name: 'Bad', phone: 'x' }];
	await expect(executor().run(input)).rejects.toThrow(
		'Item 3: name is missing (also invalid: item 4). Nothing was sent.',
	);
	expect(posts()).toHaveLength(0);
});

test('Continue On Fail: good rows are created; a bad row is the failed item (row, error, unpod_created)', async () => {
	const input = [rows(1, 'Good')[0], { name: 'Bad', phone: 'x', company: 'Acme' }];
	const output = await executor({}, 'continueRegularOutput').run(input);
	expect(posts()).toHaveLength(1);
	expect(output[0].json.task_id).toEqual(expect.any(String));
	expect(output[1]).toEqual({
		json: {
			...input[1],
			error: expect.stringMatching(/^Item 2: contact_number "x" is not a phone number/),
			unpod_created: false,
		},
		pairedItem: { item: 1 },
	});
});

test('Continue (using error output): the failed item carries the error, for n8n to route', async () => {
	const output = await executor({}, 'continueErrorOutput').run([{ name: 'Bad', phone: 'x' }]);
	expect(output).toHaveLength(1);
	expect(output[0].json).toEqual({ error: expect.stringMatching(/is not a phone number/), unpod_created: false });
	expect(output[0].error?.message).toBe(output[0].json.error);
	expect(output[0].pairedItem).toEqual({ item: 0 });
});

test('a lost answer is never sent again, in this run or when n8n runs the node again', async () => {
	server.faults.add({ kind: 'dropAfter', method: 'POST', times: 1 });
	const input = rows(3, 'Lost');
	const node = executor({}, 'continueRegularOutput');
	const output = await node.run(input);
	expect(posts()).toHaveLength(1);
	expect(output.map((item) => item.json.unpod_created)).toEqual(['unknown', 'unknown', 'unknown']);
	expect(output[0].json.error).toMatch(/^Unpod may or may not have created these tasks/);
	// Retry On Fail runs the node again in the same execution: the journal keeps it from sending.
	const again = await node.run(input);
	expect(posts()).toHaveLength(1);
	expect(again.map((item) => item.json.unpod_created)).toEqual(['unknown', 'unknown', 'unknown']);
	// Without Continue On Fail the node fails, saying so.
	server.faults.add({ kind: 'dropAfter', method: 'POST', times: 1 });
	await expect(executor().run(rows(2, 'Lost stop'))).rejects.toThrow(
		/may or may not have created the tasks of items 1-2/,
	);
});

test('a service without POST tasks/create/ is sent the older path, once per run', async () => {
	server.behaviour.createPaths = ['tasks'];
	const output = await executor({ options: { batchSize: 1 } }).run(rows(2, 'Path'));
	// The first batch tried tasks/create/ and learned; the second went straight to tasks/.
	expect(posts().map((r) => `${r.path.endsWith('/create/') ? 'tasks/create/' : 'tasks/'} ${r.status}`)).toEqual([
		'tasks/create/ 404',
		'tasks/ 200',
		'tasks/ 200',
	]);
	expect(output.every((item) => typeof item.json.task_id === 'string')).toBe(true);
});

test('the duplicate guard: a contact already called comes out with its task, not called again', async () => {
	const input = rows(2, 'Guard');
	const [first] = await executor().run(input.slice(0, 1));
	server.resetTraffic();
	const output = await executor({ skipExisting: true }).run(input);
	expect(posts()).toHaveLength(1);
	expect((posts()[0].body as { documents: unknown[] }).documents).toHaveLength(1);
	expect(output[0].json).toMatchObject({ task_id: first.json.task_id, unpod_skipped: expect.any(String) });
	expect(output[1].json.unpod_skipped).toBeUndefined();
});

test('a batch Unpod refuses: its rows fail with the API text and unpod_created false; the others are created', async () => {
	server.faults.add({
		kind: 'status',
		method: 'POST',
		status: 206,
		times: 1,
		body: {
			status_code: 206,
			message: 'There is some Validation error',
			errors: { context: ['This field is required.'] },
		},
	});
	const input = rows(3, 'Refused');
	const output = await executor({ options: { batchSize: 2 } }, 'continueRegularOutput').run(input);
	expect(output.slice(0, 2).map((item) => item.json)).toEqual(
		input.slice(0, 2).map((row) => ({
			...row,
			error: 'There is some Validation error: context: This field is required.',
			unpod_created: false,
		})),
	);
	expect(output[2].json.task_id).toEqual(expect.any(String));
});
