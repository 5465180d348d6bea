/** Space > Get Runs and Get Run Tasks in n8n's engine (this process): following the import just made, by its runs. */
import { outputOf } from '../../../dev/harness/run-results';
import { N8nNode, rowsNode } from '../../../dev/harness/workflow-builders';
import { TASK_TEST_DEFAULTS, unpodNode } from '../../helpers/nodes';
import { CREDENTIAL, Harness, startHarness, Workflows } from '../../helpers/setup';
import { SEED } from '../../../dev/server/seed';

const space = { __rl: true, mode: 'token', value: SEED.secondSpaceToken };
const spaceNode = (name: string, parameters: Record<string, unknown>): N8nNode =>
	unpodNode('space', name, { space, ...parameters }, { executeOnce: true });
const sheet = Array.from({ length: 150 }, (_, i) => ({
	name: `Runner ${i + 1}`,
	phone: `+3120555${String(i).padStart(4, '0')}`,
}));

const workflows = new Workflows();
const importAndFollow = workflows.chain('runsImport', [
	rowsNode('Sheet', sheet),
	{
		name: 'Create',
		type: 'n8n-nodes-unpod.unpodTask',
		typeVersion: 1,
		credentials: CREDENTIAL,
		parameters: {
			operation: 'create',
			space,
			agent: { __rl: true, mode: 'handle', value: SEED.secondAgentHandle },
			contactName: '={{ $json.name }}',
			contactNumber: '={{ $json.phone }}',
			callContext: 'Runs',
			skipExisting: false,
			...TASK_TEST_DEFAULTS,
			options: { batchSize: 100 },
		},
	},
	spaceNode('Runs', { operation: 'getRuns', limit: 10 }),
	// The first run: as a user follows an import, from Create's output.
	spaceNode('Run Tasks', {
		operation: 'getRunTasks',
		runId: "={{ $('Create').first().json.run_id }}",
		returnAll: true,
	}),
]);
const later = workflows.chain('runsLater', [
	spaceNode('Runs', { operation: 'getRuns', returnAll: true, simplify: false }),
	{
		...spaceNode('Failed Of Run', {
			operation: 'getRunTasks',
			runId: '={{ $json.run_id }}',
			limit: 10,
			filters: { status: 'failed' },
		}),
		executeOnce: false,
	},
]);
const unknownRun = workflows.chain('runsUnknown', [spaceNode('Fail', { operation: 'getRunTasks', runId: 'Rnope' })]);
// An expression that finds no run_id on its item (n8n itself refuses a literally empty required field).
const blankRun = workflows.chain('runsBlank', [
	spaceNode('Fail', { operation: 'getRunTasks', runId: '={{ $json.run_id }}' }),
]);

let h: Harness;
beforeAll(async () => {
	h = await startHarness({}, workflows);
});
afterAll(async () => {
	await h?.close();
});
afterEach(() => h.server.resetTraffic());

test('150 rows in batches of 100 make 2 runs; the tasks of the first run are its 100 rows', async () => {
	const result = await h.run(importAndFollow);
	expect(result.exitCode).toBe(0);
	const created = outputOf(result, 'Create');
	const runIds = [...new Set(created.map((r) => r.run_id))];
	expect(runIds).toHaveLength(2);
	const runs = outputOf(result, 'Runs');
	expect(runs.map((r) => r.run_id)).toEqual([runIds[1], runIds[0]]);
	expect(runs[0]).toEqual({
		run_id: runIds[1],
		status: 'pending',
		size: 50,
		run_mode: expect.any(String),
		created: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/),
		modified: expect.stringMatching(/Z$/),
	});
	expect(runs[1]).toMatchObject({ run_id: runIds[0], size: 100 });
	const tasks = outputOf(result, 'Run Tasks');
	expect(tasks).toHaveLength(100);
	expect(new Set(tasks.map((t) => t.task_id))).toEqual(
		new Set(created.filter((r) => r.run_id === runIds[0]).map((r) => r.task_id)),
	);
	expect(tasks[0]).toMatchObject({
		run_id: runIds[0],
		status: 'pending',
		contact_name: expect.stringMatching(/^Runner /),
	});
	expect(h.server.requestsTo('GET', `/runs/${runIds[0]}/tasks/`)).toHaveLength(1);
});

test("a run's status follows its calls: completed when all ended well, partially completed with failures", async () => {
	const [newest, oldest] = [...h.server.store.runs.values()].filter((r) => r.space === SEED.secondSpaceToken).reverse();
	for (const task of oldest.tasks) h.server.store.finishTask(task, 'completed');
	newest.tasks.forEach((task, i) => h.server.store.finishTask(task, i < 3 ? 'failed' : 'completed'));
	const result = await h.run(later);
	expect(result.exitCode).toBe(0);
	const runs = outputOf(result, 'Runs');
	expect(runs.map((r) => [r.run_id, r.status, r.batch_count])).toEqual([
		[newest.run_id, 'partially_completed', 50],
		[oldest.run_id, 'completed', 100],
	]);
	// Raw runs keep Unpod's fields.
	expect(runs[0]).toHaveProperty('collection_ref');
	// Get Run Tasks ran once per run (no Execute Once here): the status filter is the node's.
	const failed = outputOf(result, 'Failed Of Run');
	expect(failed.map((t) => t.status)).toEqual(['failed', 'failed', 'failed']);
	expect(failed.every((t) => t.run_id === newest.run_id)).toBe(true);
});

test('an unknown run fails with what Unpod said; a Run ID that comes out blank fails before any request', async () => {
	const unknown = await h.run(unknownRun);
	expect(unknown.exitCode).toBe(1);
	expect(unknown.resultData?.error?.message).toBe('Runs Fetch Failed: Run Rnope not found');
	const blank = await h.run(blankRun);
	expect(blank.exitCode).toBe(1);
	expect(blank.resultData?.error?.message).toBe('Run ID is empty');
	expect(h.server.requestsTo('GET', '/runs/')).toHaveLength(1);
});
