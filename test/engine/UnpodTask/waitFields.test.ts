/**
 * n8n's wait fields in n8n's engine against the local server: a call placed by a waiting node
 * carries `n8n_resume_url`, `n8n_wait_item` and `n8n_wait_calls` in its document (the triggers
 * ring it from there). Get Many shows none of them, flat or raw, and Follow Up copies none into
 * the next call's document, whichever shape it reads.
 */
import { outputOf } from '../../../dev/harness/run-results';
import { agentRef, spaceRef, unpodNode } from '../../helpers/nodes';
import { harnessAt, Workflows } from '../../helpers/setup';
import { SEED } from '../../../dev/server/seed';
import { RESUME_FIELD, WAIT_CALLS, WAIT_FIELDS, WAIT_ITEM } from '../../../nodes/shared/resume';

const NOW = Date.parse('2026-11-25T10:00:00Z');
const TASKS = `/spaces/${SEED.secondSpaceToken}/tasks/`;
const RESUME_URL = 'http://127.0.0.1:5678/webhook-waiting/42/node-1?wait=0123.4567&space=S1&signature=abc';

const getMany = (name: string, simplify: boolean) =>
	unpodNode(
		'task',
		name,
		{ operation: 'getAll', callsOf: 'space', space: spaceRef(SEED.secondSpaceToken), returnAll: true, simplify },
		{ typeVersion: 1, executeOnce: true },
	);
const followUp = unpodNode('task', 'Follow Up', {
	operation: 'followUp',
	space: spaceRef(SEED.secondSpaceToken),
	agent: agentRef(SEED.secondAgentHandle),
	callContext: 'Try again',
	options: { timeZone: 'Europe/Berlin' },
});

const workflows = new Workflows();
const flat = workflows.chain('waitFieldsFlat', [getMany('Calls', true), followUp]);
const raw = workflows.chain('waitFieldsRaw', [getMany('Calls', false), followUp]);

const h = harnessAt(NOW, workflows);

/** A busy call placed by a waiting node: Follow Up retries it. */
function waitedCall(name: string, number: string) {
	const contact = {
		name,
		contact_number: number,
		plan: 'gold',
		[RESUME_FIELD]: RESUME_URL,
		[WAIT_ITEM]: 0,
		[WAIT_CALLS]: 1,
	};
	const [task] = h.server.calls.addTasks([contact], { space: SEED.secondSpaceToken, pilot: SEED.secondAgentHandle });
	h.server.store.finishTask(task, 'failed');
	expect(task.input[RESUME_FIELD]).toBe(RESUME_URL);
	return task;
}

test.each([
	['flat', flat, '+4930555000801'],
	['raw', raw, '+4930555000802'],
])('Get Many (%s) shows no wait field; Follow Up sends none in the next document', async (_shape, id, number) => {
	h.server.resetTraffic();
	const task = waitedCall(`Waited ${number}`, number);
	const run = await h.run(id);
	expect(run.exitCode).toBe(0);
	const listed = outputOf(run, 'Calls').find((c) => c.task_id === task.task_id);
	expect(listed).toBeDefined();
	const shown = JSON.stringify(listed);
	expect(shown).toContain('gold');
	for (const field of [...WAIT_FIELDS, 'webhook-waiting']) expect(shown).not.toContain(field);

	const next = outputOf(run, 'Follow Up').find((o) => o.task_id === task.task_id);
	expect(next.follow_up).toBe('retry');
	const creates = h.server.requestsTo('POST', TASKS);
	const documents = creates.flatMap((r) => (r.body as { documents: Array<Record<string, unknown>> }).documents);
	const sent = documents.find((d) => d.contact_number === number)!;
	expect(sent).toMatchObject({ name: `Waited ${number}`, plan: 'gold', previous_task_id: task.task_id });
	for (const field of WAIT_FIELDS) expect(sent).not.toHaveProperty(field);
	expect(JSON.stringify(documents)).not.toContain('webhook-waiting');
});
