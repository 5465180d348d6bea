/**
 * Max Calls per Day in n8n's engine against the local server: the calls other workflows (and
 * Unpod's own redials) already placed in the space count, so do this run's and those of an
 * earlier execution; a row over the cap is not sent, its item giving the earliest time it fits;
 * Follow Up keeps the same cap; all from the one read of recent tasks Skip Contacts Already Called
 * makes anyway.
 */
import { outputOf } from '../../../dev/harness/run-results';
import { rowsNode } from '../../../dev/harness/workflow-builders';
import { createInSecondSpace, taskInSecondSpace } from '../../helpers/nodes';
import { harnessAt, Workflows } from '../../helpers/setup';
import { SEED } from '../../../dev/server/seed';

const NOW = Date.parse('2026-12-01T15:00:00Z');
const HOUR = 3_600_000;
const TASKS = `/spaces/${SEED.secondSpaceToken}/tasks/`;
const contacts = (from: number, count: number) =>
	Array.from({ length: count }, (_, i) => ({ name: `Contact ${from + i}`, phone: `+1 212 555 ${1000 + from + i}` }));

const create = () =>
	createInSecondSpace(
		{ callingHours: false, skipExisting: true, options: { maxCallsPerDay: 6 } },
		{ onError: 'continueRegularOutput' },
	);

const workflows = new Workflows();
const morning = workflows.chain('capMorning', [rowsNode('Sheet', contacts(1, 4)), create()]);
const afternoon = workflows.chain('capAfternoon', [rowsNode('Sheet', contacts(5, 2)), create()]);
const followUp = workflows.chain('capFollowUp', [
	rowsNode('Ended', [
		{
			task_id: 'Tcap0000000001',
			run_id: 'Rprevious',
			status: 'failed',
			call_status: 'no_answer',
			contact_name: 'Contact 1',
			contact_number: '+12125551001',
			end_time: '2026-12-01T15:05:00.000Z',
		},
	]),
	taskInSecondSpace('Follow Up', { operation: 'followUp', callingHours: false, options: { maxCallsPerDay: 6, retryAfterHours: 1 } }),
]);

const h = harnessAt(NOW, workflows);
const created = () =>
	h.server
		.requestsTo('POST', TASKS)
		.flatMap((r) => (r.body as { documents: Array<{ name: string }> }).documents.map((d) => d.name));
const reads = () => h.server.requestsTo('GET', TASKS).length;

test("other workflows' calls count: of 4 rows, 2 go; the next execution sends none; each held item says when it fits", async () => {
	// Another workflow placed 3 calls this morning, one of which Unpod redialled: 4 of 6.
	const others = h.server.calls.addTasks(
		[1, 2, 3].map((i) => ({ name: `Other ${i}`, contact_number: `+1646555${1000 + i}` })),
		{ space: SEED.secondSpaceToken },
	);
	others.forEach((task, i) => (task.createdUs = (NOW - (8 - i) * HOUR) * 1000));
	others[0].input.redial_count = 1;
	h.server.resetTraffic();

	const first = await h.run(morning);
	expect(first.exitCode).toBe(0);
	expect(created()).toEqual(['Contact 1', 'Contact 2']);
	expect(reads()).toBe(1);
	const [, , third, fourth] = outputOf(first, 'Create');
	// The first other call (and its redial) leave the 24 hours at 07:00 tomorrow.
	const fits = new Date(NOW + 16 * HOUR).toISOString();
	expect(third).toMatchObject({ unpod_created: false, unpod_next_allowed_at: fits });
	expect(third.unpod_held).toBe(
		`Item 3: +12125551003: Max Calls per Day (6) reached: 6 calls of space ${SEED.secondSpaceToken} ring in the 24 hours around ${new Date(NOW).toISOString()}: 4 already in the space and 2 of this run (items 1, 2); executions running at once do not count each other's; not called; it may be called from ${fits}`,
	);
	expect(fourth.unpod_next_allowed_at).toBe(fits);

	// Two hours later, another execution: the space is still full, and it is read once more.
	jest.setSystemTime(NOW + 2 * HOUR);
	h.server.resetTraffic();
	const second = await h.run(afternoon);
	expect(created()).toEqual([]);
	expect(reads()).toBe(1);
	expect(outputOf(second, 'Create').map((o) => o.unpod_next_allowed_at)).toEqual([fits, fits]);
});

test('Follow Up keeps the same cap: no retry while the space is full, and the item says when it fits', async () => {
	h.server.resetTraffic();
	const run = await h.run(followUp);
	expect(run.exitCode).toBe(0);
	const [next] = outputOf(run, 'Follow Up');
	expect(next).toMatchObject({
		follow_up: 'none',
		follow_up_reason: 'max_calls_per_day',
		unpod_created: false,
		unpod_next_allowed_at: expect.any(String),
	});
	expect(created()).toEqual([]);
});
