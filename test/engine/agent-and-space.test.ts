import { outputOf } from '../../dev/harness/run-results';
import { N8nNode } from '../../dev/harness/workflow-builders';
import { agentRef, spaceRef, unpodNode } from '../helpers/nodes';
import { Harness, startHarness, Workflows } from '../helpers/setup';
import { SEED } from '../../dev/server/seed';

const node = (type: 'unpodAgent' | 'unpodSpace', name: string, parameters: Record<string, unknown>): N8nNode =>
	unpodNode(type === 'unpodAgent' ? 'agent' : 'space', name, parameters, { executeOnce: true });
const agent = agentRef;
const space = spaceRef;

const workflows = new Workflows();
const everyOperation = workflows.chain('agentSpaceEvery', [
	node('unpodAgent', 'Agents', { operation: 'getAll', returnAll: true }),
	node('unpodAgent', 'Agent Tasks', {
		operation: 'getTasks',
		agent: agent(SEED.agentHandle),
		returnAll: true,
	}),
	node('unpodAgent', 'Agent Tasks Five', {
		operation: 'getTasks',
		agent: agent(SEED.agentHandle),
		limit: 5,
	}),
	node('unpodSpace', 'Spaces', { resource: 'space', operation: 'getAll', returnAll: true }),
	node('unpodSpace', 'Space', { resource: 'space', operation: 'get', space: space(SEED.spaceToken) }),
	node('unpodSpace', 'Space Tasks', {
		resource: 'space',
		operation: 'getTasks',
		space: space(SEED.spaceToken),
		returnAll: true,
	}),
	node('unpodSpace', 'Space Failed Raw', {
		resource: 'space',
		operation: 'getTasks',
		space: space(SEED.spaceToken),
		limit: 5,
		simplify: false,
		filters: { status: 'failed', search: 'Lead 1' },
	}),
]);
const unknownAgent = workflows.chain('agentUnknown', [
	node('unpodAgent', 'Fail', { operation: 'getTasks', agent: agent('ghost'), limit: 5 }),
]);
const spaceFetchFailed = workflows.chain('spaceFetchFailed', [
	node('unpodSpace', 'Fail', { resource: 'space', operation: 'getTasks', space: space(SEED.spaceToken), limit: 5 }),
]);

let h: Harness;

beforeAll(async () => {
	h = await startHarness({}, workflows);
	const contacts = Array.from({ length: 330 }, (_, i) => ({
		name: `Lead ${i}`,
		contact_number: `+1415555${String(i).padStart(4, '0')}`,
	}));
	h.server.calls.addTasks(contacts, { context: 'Leads' });
	h.server.calls.finishCalls({ space: SEED.spaceToken, count: 40, outcome: 'failed' });
});

afterAll(async () => {
	await h?.close();
});

afterEach(() => h.server.resetTraffic());

test('every Agent and Space operation, with Return All over four pages and Limit 5 on one', async () => {
	const result = await h.run(everyOperation);
	expect(result.exitCode).toBe(0);
	expect(outputOf(result, 'Agents').map((a) => a.handle)).toEqual([SEED.agentHandle, SEED.secondAgentHandle]);
	expect(outputOf(result, 'Agents')[0]).toMatchObject({ name: 'Sales Assistant', type: 'Voice', state: 'published' });

	const agentTasks = outputOf(result, 'Agent Tasks');
	expect(agentTasks).toHaveLength(330);
	expect(agentTasks[0]).toMatchObject({
		task_id: expect.stringMatching(/^T/),
		status: 'pending',
		contact_name: 'Lead 329',
		transcript: '',
	});
	expect(outputOf(result, 'Agent Tasks Five')).toHaveLength(5);

	expect(outputOf(result, 'Spaces').map((s) => s.token)).toEqual([SEED.secondSpaceToken, SEED.spaceToken]);
	expect(outputOf(result, 'Space')).toEqual([
		expect.objectContaining({
			token: SEED.spaceToken,
			name: 'Outbound Leads',
			agents: [{ handle: SEED.agentHandle, name: 'Sales Assistant' }],
		}),
	]);
	expect(outputOf(result, 'Space Tasks')).toHaveLength(330);
	const failed = outputOf(result, 'Space Failed Raw');
	expect(failed).toHaveLength(5);
	for (const t of failed) {
		expect(t.status).toBe('failed');
		expect(t.input.name).toMatch(/^Lead 1/);
		expect(t.output.call_status).toEqual(expect.any(String));
	}

	const received = h.server.requests.map((r) =>
		`${r.method} ${r.path.replace('/api/v2/platform', '')} ${new URLSearchParams(r.query)}`.trim(),
	);
	expect(received).toEqual([
		// The agents and the spaces are read whole: neither OpenAPI file pages them.
		'GET /agents/',
		...[1, 2, 3, 4].map((p) => `GET /agents/${SEED.agentHandle}/tasks/ page=${p}&page_size=100`),
		`GET /agents/${SEED.agentHandle}/tasks/ page=1&page_size=5`,
		'GET /spaces/',
		`GET /spaces/${SEED.spaceToken}/`,
		...[1, 2, 3, 4].map((p) => `GET /spaces/${SEED.spaceToken}/tasks/ page=${p}&page_size=100`),
		// Task status is checked by the node (the space list reads `status` as the call outcome),
		// so it reads full pages until 5 match.
		`GET /spaces/${SEED.spaceToken}/tasks/ search=Lead+1&page=1&page_size=100`,
		`GET /spaces/${SEED.spaceToken}/tasks/ search=Lead+1&page=2&page_size=100`,
	]);
	for (const r of h.server.requests)
		expect(r.headers).toMatchObject({ authorization: `Token ${SEED.token}`, 'org-handle': SEED.orgHandle });
});

test('an unknown agent handle fails with a message that names it', async () => {
	const result = await h.run(unknownAgent);
	expect(result.exitCode).toBe(1);
	expect(result.resultData?.error).toMatchObject({
		name: 'NodeApiError',
		httpCode: '404',
		message: 'Agent not found: agent "ghost"',
	});
});

test('a 206 answer to a task list fails with the API text', async () => {
	h.server.faults.add({
		kind: 'status',
		status: 206,
		body: { message: 'Failed to fetch tasks', errors: 'Task store unavailable' },
		times: 1,
	});
	const result = await h.run(spaceFetchFailed);
	expect(result.exitCode).toBe(1);
	expect(result.resultData?.error).toMatchObject({
		httpCode: '206',
		message: 'Failed to fetch tasks: Task store unavailable',
	});
});
