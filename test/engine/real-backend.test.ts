/**
 * Where Unpod's real backend departs from the specification, in n8n's engine (this process)
 * against the local server: each behaviour as the real backend answers, and the
 * specification's shape beside it.
 */
import { outputOf } from '../../dev/harness/run-results';
import { N8nNode, rowsNode } from '../../dev/harness/workflow-builders';
import { agentRef, createInSecondSpace, spaceRef, unpodNode } from '../helpers/nodes';
import { CREDENTIAL, Harness, startHarness, Workflows } from '../helpers/setup';
import { SEED } from '../../dev/server/seed';

const space = spaceRef;
const agent = agentRef;
const node = (
	type: 'unpodTask' | 'unpodSpace' | 'unpodAgent' | 'unpodBridge',
	name: string,
	parameters: Record<string, unknown>,
	extra: Partial<N8nNode> = {},
): N8nNode => unpodNode(type.slice('unpod'.length).toLowerCase() as 'task', name, parameters, extra);
const create = (name: string, parameters: Record<string, unknown> = {}, extra: Partial<N8nNode> = {}) =>
	createInSecondSpace({ callContext: 'Renewal reminder', ...parameters }, extra, name);
let numbers = 0;
const sheet = (n: number, prefix: string) =>
	Array.from({ length: n }, (_, i) => ({
		name: `${prefix} ${i + 1}`,
		phone: `+4420800${String(numbers++).padStart(5, '0')}`,
	}));
const TASKS = `/api/v2/platform/spaces/${SEED.secondSpaceToken}/tasks/`;
const received = (h: Harness) =>
	h.server.requests.map((r) => `${r.method} ${r.path.replace('/api/v2/platform', '')} ${r.status}`);

const workflows = new Workflows();
const blankContext = workflows.chain('rbBlankContext', [
	rowsNode('Sheet', [...sheet(2, 'Ctx'), { name: 'No context', phone: '+442080099999', context: '  ' }]),
	create('Create', { callContext: '={{ $json.context ?? "Renewal reminder" }}' }),
]);
const blankContextContinue = workflows.chain('rbBlankContextCont', [
	rowsNode('Sheet', [{ name: 'Only', phone: '+442080099998', context: '' }]),
	create('Create', { callContext: '={{ $json.context }}' }, { onError: 'continueRegularOutput' }),
]);
const bulk = workflows.chain('rbBulk', [rowsNode('Sheet', sheet(250, 'Bulk')), create('Create')]);
const scheduled = workflows.chain('rbScheduled', [
	rowsNode('Sheet', sheet(3, 'Auto')),
	create('Create', { schedule: 'auto' }),
]);
const deleteBridge = workflows.chain('rbDelete', [
	node('unpodBridge', 'Create', { resource: 'bridge', operation: 'create', name: 'Short Lived' }),
	node('unpodBridge', 'Delete', {
		resource: 'bridge',
		operation: 'delete',
		bridge: { __rl: true, mode: 'slug', value: '={{ $json.slug }}' },
	}),
]);
const listFilters = workflows.chain('rbFilters', [
	node(
		'unpodSpace',
		'In Progress',
		{
			resource: 'space',
			operation: 'getTasks',
			space: space(SEED.spaceToken),
			limit: 7,
			filters: { status: 'in_progress' },
		},
		{ executeOnce: true },
	),
	node(
		'unpodSpace',
		'Outcome',
		{
			resource: 'space',
			operation: 'getTasks',
			space: space(SEED.spaceToken),
			returnAll: true,
			filters: { outcome: 'interested, callback' },
		},
		{ executeOnce: true },
	),
	node(
		'unpodAgent',
		'Agent Outcome',
		{
			operation: 'getTasks',
			agent: agent(SEED.agentHandle),
			returnAll: true,
			filters: { outcome: 'interested, callback' },
		},
		{ executeOnce: true },
	),
	node(
		'unpodTask',
		'Agent Search Failed',
		{
			operation: 'getAll',
			callsOf: 'agent',
			agent: agent(SEED.agentHandle),
			returnAll: true,
			filters: { search: 'Filter 7', status: 'failed', direction: 'outbound' },
		},
		{ executeOnce: true },
	),
	node(
		'unpodTask',
		'Agent Created After',
		{
			operation: 'getAll',
			callsOf: 'agent',
			agent: agent(SEED.agentHandle),
			returnAll: true,
			filters: { from: '2100-01-01T00:00:00' },
		},
		{ executeOnce: true },
	),
]);
const spacesJwt = workflows.chain('rbSpacesJwt', [
	node('unpodBridge', 'Bridges', { resource: 'bridge', operation: 'getAll', limit: 1 }, { executeOnce: true }),
	node('unpodSpace', 'Spaces', { resource: 'space', operation: 'getAll', returnAll: true }, { executeOnce: true }),
]);

let h: Harness;
/** Tasks of the leads space, for the filter tests. */
let filterTasks: string[];

beforeAll(async () => {
	h = await startHarness({}, workflows);
	const contacts = Array.from({ length: 120 }, (_, i) => ({
		name: `Filter ${i}`,
		contact_number: `+1415666${String(i).padStart(4, '0')}`,
	}));
	const tasks = h.server.calls.addTasks(contacts, { context: 'Leads' });
	filterTasks = tasks.map((t) => t.task_id);
	h.server.calls.finishCalls({ space: SEED.spaceToken, count: 60, outcome: 'completed' });
	h.server.calls.finishCalls({ space: SEED.spaceToken, count: 20, outcome: 'failed' });
	h.server.calls.startCalls({ space: SEED.spaceToken, count: 25 });
	h.server.calls.failAttempts({ space: SEED.spaceToken, count: 5 });
});

afterAll(async () => {
	await h?.close();
});

afterEach(() => h.server.resetTraffic());

describe('Call Context', () => {
	test('is required in the editor, with a hint of what to write', () => {
		const { UnpodTask } = require('../../dist/nodes/UnpodTask/UnpodTask.node.js');
		const context = new UnpodTask().description.properties.find((p: any) => p.name === 'callContext');
		expect(context).toMatchObject({ required: true, hint: expect.stringMatching(/goal of the calls/) });
	});

	test('a blank context never leaves the node: the row fails naming the field, nothing is sent', async () => {
		const result = await h.run(blankContext);
		expect(result.exitCode).toBe(1);
		expect(result.resultData?.error.message).toBe('Item 3: Call Context is empty. Nothing was sent.');
		expect(h.server.requestsTo('POST', TASKS)).toHaveLength(0);

		const cont = await h.run(blankContextContinue);
		expect(cont.exitCode).toBe(0);
		expect(outputOf(cont, 'Create')).toEqual([
			expect.objectContaining({ name: 'Only', error: 'Item 1: Call Context is empty', unpod_created: false }),
		]);
		expect(h.server.requestsTo('POST', TASKS)).toHaveLength(0);
	});
});

describe('create path', () => {
	test('where Unpod answers as OpenAPI 2.0.0 documents, every batch goes to tasks/create/: nothing wasted', async () => {
		const result = await h.run(bulk);
		expect(result.exitCode).toBe(0);
		expect(received(h)).toEqual([
			`POST /spaces/${SEED.secondSpaceToken}/tasks/create/ 200`,
			`POST /spaces/${SEED.secondSpaceToken}/tasks/create/ 200`,
			`POST /spaces/${SEED.secondSpaceToken}/tasks/create/ 200`,
		]);
		const rows = outputOf(result, 'Create');
		expect(rows).toHaveLength(250);
		expect(new Set(rows.map((r) => r.task_id)).size).toBe(250);
		for (const r of rows) expect(h.server.store.tasksById.get(r.task_id)!.input.name).toBe(r.name);
	});

	test('an older service that creates only at tasks/: one 404, then every batch goes there', async () => {
		h.server.behaviour.createPaths = ['tasks'];
		const result = await h.run(bulk);
		expect(result.exitCode).toBe(0);
		expect(received(h)).toEqual([
			`POST /spaces/${SEED.secondSpaceToken}/tasks/create/ 404`,
			`POST /spaces/${SEED.secondSpaceToken}/tasks/ 200`,
			`POST /spaces/${SEED.secondSpaceToken}/tasks/ 200`,
			`POST /spaces/${SEED.secondSpaceToken}/tasks/ 200`,
		]);
		expect(outputOf(result, 'Create')).toHaveLength(250);
	});

	test('a 404 at tasks/create/ is tried once at tasks/, and a 405 there too; both paths served, the first is kept', async () => {
		h.server.behaviour.createPaths = ['tasks', 'create'];
		h.server.faults.add({
			kind: 'status',
			status: 405,
			body: { detail: 'Method "POST" not allowed.' },
			method: 'POST',
			path: /\/tasks\/create\/$/,
			times: 1,
		});
		const result = await h.run(scheduled);
		expect(result.exitCode).toBe(0);
		expect(received(h)).toEqual([
			`POST /spaces/${SEED.secondSpaceToken}/tasks/create/ 405`,
			`POST /spaces/${SEED.secondSpaceToken}/tasks/ 200`,
		]);
		h.server.resetTraffic();
		h.server.behaviour.createPaths = ['tasks', 'create'];
		expect((await h.run(scheduled)).exitCode).toBe(0);
		expect(received(h)).toEqual([`POST /spaces/${SEED.secondSpaceToken}/tasks/create/ 200`]);
	});
});

describe('create answers', () => {
	test("a status map gives each row its own task's status as a string", async () => {
		const result = await h.run(scheduled);
		expect(result.exitCode).toBe(0);
		const [post] = h.server.requestsTo('POST', TASKS);
		expect(Object.values((post as any).body.documents)).toHaveLength(3);
		const rows = outputOf(result, 'Create');
		expect(rows.map((r) => r.task_status)).toEqual(['scheduled', 'scheduled', 'scheduled']);
		for (const r of rows) expect(h.server.store.tasksById.get(r.task_id)!.status).toBe('scheduled');
	});

	test("the specification's string status is read as it is", async () => {
		h.server.behaviour.createStatus = 'string';
		const result = await h.run(scheduled);
		expect(outputOf(result, 'Create').map((r) => r.task_status)).toEqual(['scheduled', 'scheduled', 'scheduled']);
	});

	test('an answer without task_ids says so on every row and pairs nothing', async () => {
		h.server.behaviour.createTaskIds = false;
		const result = await h.run(scheduled);
		expect(result.exitCode).toBe(0);
		const rows = outputOf(result, 'Create');
		expect(rows).toHaveLength(3);
		const runId = rows[0].run_id;
		expect(runId).toMatch(/^R[0-9a-f]{32}$/);
		for (const r of rows) {
			expect(r).toMatchObject({ task_id: null, run_id: runId, task_status: 'scheduled' });
			expect(r.unpod_warning).toBe(
				`Unpod created the tasks of this request (run ${runId}) but its answer listed no task IDs, so this row's task ID is not known. Find it with Unpod Task > Get Many, Search: the contact's name.`,
			);
		}
	});
});

test("Bridge > Delete: a 204 with no body and the specification's 200 with {} both succeed", async () => {
	const real = await h.run(deleteBridge);
	expect(real.exitCode).toBe(0);
	expect(outputOf(real, 'Delete')).toEqual([{ deleted: true, slug: outputOf(real, 'Create')[0].slug }]);
	expect(h.server.requests.map((r) => r.status)).toEqual([201, 204]);

	h.server.resetTraffic();
	h.server.behaviour.deleteAnswer = 200;
	const spec = await h.run(deleteBridge);
	expect(spec.exitCode).toBe(0);
	expect(outputOf(spec, 'Delete')).toEqual([{ deleted: true, slug: outputOf(spec, 'Create')[0].slug }]);
	expect(h.server.requests.map((r) => r.status)).toEqual([201, 200]);
});

test('task status, Call Outcome and the other filters mean the same on space and agent lists', async () => {
	const result = await h.run(listFilters);
	expect(result.exitCode).toBe(0);
	const store = h.server.store;
	const mine = filterTasks.map((id) => store.tasksById.get(id)!);

	const inProgress = outputOf(result, 'In Progress');
	expect(inProgress).toHaveLength(7);
	for (const t of inProgress) expect(t.status).toBe('in_progress');

	const outcome = (t: any) => t.output.post_call_data?.summary?.status;
	const wanted = store.tasks.filter(
		(t) => t.space === SEED.spaceToken && ['interested', 'callback'].includes(outcome(t)),
	);
	expect(wanted.length).toBeGreaterThan(0);
	expect(
		outputOf(result, 'Outcome')
			.map((t) => t.task_id)
			.sort(),
	).toEqual(wanted.map((t) => t.task_id).sort());
	expect(
		outputOf(result, 'Agent Outcome')
			.map((t) => t.task_id)
			.sort(),
	).toEqual(
		store.tasks
			.filter((t) => t.assignee === SEED.agentHandle && ['interested', 'callback'].includes(outcome(t)))
			.map((t) => t.task_id)
			.sort(),
	);

	const failedFilter1 = mine.filter((t) => t.status === 'failed' && /Filter 7/i.test(String(t.input.name)));
	expect(failedFilter1.length).toBeGreaterThan(0);
	expect(
		outputOf(result, 'Agent Search Failed')
			.map((t) => t.task_id)
			.sort(),
	).toEqual(failedFilter1.map((t) => t.task_id).sort());
	// Every task is older than 2100: the agent list returns them all, the node keeps none.
	expect(outputOf(result, 'Agent Created After')).toEqual([]);

	const sent = h.server.requests.map(
		(r) => `${r.path.replace('/api/v2/platform', '')} ${new URLSearchParams(r.query)}`,
	);
	// The space list gets the outcome as its own `status`; task status never leaves the node.
	expect(sent).toContain(`/spaces/${SEED.spaceToken}/tasks/ status=interested%2Ccallback&page=1&page_size=100`);
	expect(sent.filter((s) => s.includes('in_progress'))).toEqual([]);
	// The agent list ignores filters, so none are sent to it.
	for (const s of sent.filter((x) => x.startsWith('/agents/'))) expect(s).toMatch(/ page=\d+&page_size=100$/);
});

test('a 401 on the spaces list while bridges work says the endpoint refused the token scheme', async () => {
	h.server.behaviour.spacesAuth = 'jwt';
	const result = await h.run(spacesJwt);
	expect(result.exitCode).toBe(1);
	expect(outputOf(result, 'Bridges')).toHaveLength(1);
	expect(result.resultData?.error).toMatchObject({
		httpCode: '401',
		message: 'Unpod refused the API token on /spaces/ (HTTP 401)',
		description: expect.stringContaining('does not accept the "Token" authorization scheme'),
	});
	for (const r of h.server.requests) expect(r.headers.authorization).toBe(`Token ${SEED.token}`);
});
