/** Unpod Space's organizations and Unpod Agent's executions (runs), in n8n's engine against the local server. */
import { outputOf } from '../../dev/harness/run-results';
import { agentRef, unpodNode } from '../helpers/nodes';
import { Harness, startHarness, Workflows } from '../helpers/setup';
import { SEED } from '../../dev/server/seed';

const workflows = new Workflows();
const organizationsAndRuns = workflows.chain('orgsAndExecutions', [
	unpodNode('space', 'Organizations', { resource: 'organization', operation: 'getAll', returnAll: true }),
	unpodNode(
		'agent',
		'Executions',
		{ operation: 'getExecutions', agent: agentRef(SEED.secondAgentHandle), returnAll: true },
		{ executeOnce: true },
	),
]);
const unknownAgent = workflows.chain('executionsUnknown', [
	unpodNode('agent', 'Fail', { operation: 'getExecutions', agent: agentRef('ghost'), limit: 5 }),
]);

let h: Harness;
beforeAll(async () => {
	h = await startHarness({}, workflows);
});
afterAll(async () => {
	await h?.close();
});
afterEach(() => h.server.resetTraffic());

test("organizations with the credential's Org Handle; an agent's executions, newest first", async () => {
	const tasks = h.server.calls.addTasks(
		[
			{ name: 'Exec A', contact_number: '+14155550301' },
			{ name: 'Exec B', contact_number: '+14155550302' },
		],
		{ space: SEED.secondSpaceToken, pilot: SEED.secondAgentHandle },
	);
	h.server.store.finishTask(tasks[0], 'completed');
	const result = await h.run(organizationsAndRuns);
	expect(result.exitCode).toBe(0);
	expect(outputOf(result, 'Organizations').map((o) => o.domain_handle)).toEqual([SEED.orgHandle]);
	const executions = outputOf(result, 'Executions');
	expect(executions[0]).toEqual({
		run_id: tasks[0].run_id,
		status: expect.any(String),
		total_tasks: 2,
		completed_tasks: 1,
		created: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
	});
	expect(h.server.requestsTo('GET', `/agents/${SEED.secondAgentHandle}/executions/`)).toHaveLength(1);
});

test('the executions of an unknown agent: a 404 naming the agent', async () => {
	const result = await h.run(unknownAgent);
	expect(result.exitCode).toBe(1);
	expect(result.resultData?.error).toMatchObject({ httpCode: '404' });
	expect(result.resultData?.error.message).toMatch(/agent "ghost"/);
});
