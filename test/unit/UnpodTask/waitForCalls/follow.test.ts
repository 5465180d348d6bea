/** The deciding steps of Task > Call and Wait: when to check, which runs to read, what a run says of each call. */
import {
	applyRunTasks,
	hasEnded,
	nextCheckDelay,
	outcomeOf,
	runsToRead,
	taskMatcher,
} from '../../../../nodes/UnpodTask/waitForCalls/follow';
import type { Followed } from '../../../../nodes/UnpodTask/waitForCalls/follow';

const call = (fields: Partial<Followed>): Followed => ({
	space: 'S1',
	runId: 'R1',
	taskId: 'T1',
	document: { name: 'Ada', contact_number: '+12125550100' },
	status: 'pending',
	notes: {},
	...fields,
});

describe('nextCheckDelay', () => {
	test('Check Every after a change, half again per quiet check, at most twice', () => {
		const delays = [0, 1, 2, 3].map((quiet) => nextCheckDelay(15_000, quiet, Infinity));
		expect(delays).toEqual([15_000, 22_500, 30_000, 30_000]);
	});

	test('never past the deadline, never negative', () => {
		expect(nextCheckDelay(15_000, 0, 4_000)).toBe(4_000);
		expect(nextCheckDelay(15_000, 2, -10)).toBe(0);
	});
});

describe('runsToRead', () => {
	test('one read per run of open calls; ended calls and calls without a run are not read', () => {
		const calls = [
			call({ taskId: 'T1' }),
			call({ taskId: 'T2' }),
			call({ taskId: 'T3', runId: 'R2' }),
			call({ taskId: 'T4', runId: 'R3', status: 'completed' }),
			call({ taskId: null, runId: null }),
			call({ taskId: 'T5', space: 'S2' }),
		];
		const runs = runsToRead(calls);
		expect(runs.map((r) => [r.space, r.runId, r.calls.map((c) => c.taskId)])).toEqual([
			['S1', 'R1', ['T1', 'T2']],
			['S1', 'R2', ['T3']],
			['S2', 'R1', ['T5']],
		]);
	});
});

describe('applyRunTasks', () => {
	test('takes each call its own task; says whether a status changed; final statuses end the call', () => {
		const a = call({ taskId: 'T1' });
		const b = call({ taskId: 'T2', status: 'in_progress' });
		const tasks = [
			{ task_id: 'T2', status: 'in_progress' },
			{ task_id: 'T1', status: 'completed', output: { call_status: 'completed' } },
		];
		expect(applyRunTasks([a, b], tasks)).toBe(true);
		expect(a).toMatchObject({ status: 'completed', task: tasks[1] });
		expect(hasEnded(a)).toBe(true);
		expect(b).toMatchObject({ status: 'in_progress' });
		expect(hasEnded(b)).toBe(false);
		expect(applyRunTasks([b], tasks)).toBe(false);
	});

	test('a failed attempt back to pending is not an ending', () => {
		const a = call({ status: 'in_progress' });
		expect(applyRunTasks([a], [{ task_id: 'T1', status: 'pending' }])).toBe(true);
		expect(hasEnded(a)).toBe(false);
	});

	test("a call without a task ID takes its contact's task, one task per call", () => {
		const first = call({ taskId: null, document: { name: 'Ann', contact_number: '+12125550111' } });
		const second = call({ taskId: null, document: { name: 'Ann', contact_number: '+12125550111' } });
		const tasks = [
			{ task_id: 'T9', status: 'pending', input: { contact_number: '+12125550111' } },
			{ task_id: 'T8', status: 'pending', input: { contact_number: '+12125550111' } },
		];
		applyRunTasks([first, second], tasks);
		expect([first.taskId, second.taskId]).toEqual(['T9', 'T8']);
	});

	test('a call missing from the list keeps what it had', () => {
		const a = call({ status: 'in_progress' });
		expect(applyRunTasks([a], [{ task_id: 'T7', status: 'completed' }])).toBe(false);
		expect(a).toMatchObject({ status: 'in_progress' });
		expect(hasEnded(a)).toBe(false);
		expect(a.task).toBeUndefined();
	});
});

describe('taskMatcher', () => {
	test('by task ID, and by contact for calls whose ID is not known', () => {
		const match = taskMatcher([
			call({ taskId: 'T1' }),
			call({ taskId: null, document: { contact_number: '+12125550122' } }),
		]);
		expect(match({ task_id: 'T1' })).toBe(true);
		expect(match({ task_id: 'T5', input: { contact_number: '+12125550122' } })).toBe(true);
		expect(match({ task_id: 'T6', input: { contact_number: '+12125550133' } })).toBe(false);
	});
});

describe('outcomeOf', () => {
	test('an ended call: the Simplify shape with unpod_wait_status ended and the notes', () => {
		const a = call({
			status: 'completed',
			notes: { unpod_skipped: 'Not sent: ...' },
			task: {
				task_id: 'T1',
				run_id: 'R1',
				status: 'completed',
				input: { name: 'Ada', contact_number: '+12125550100' },
				output: { call_summary: 'Tuesday at 10', transcript: [{ role: 'user', content: 'Tuesday' }] },
			},
		});
		expect(outcomeOf(a, true)).toMatchObject({
			task_id: 'T1',
			run_id: 'R1',
			status: 'completed',
			contact_name: 'Ada',
			call_summary: 'Tuesday at 10',
			transcript: 'Contact: Tuesday',
			unpod_wait_status: 'ended',
			unpod_skipped: 'Not sent: ...',
		});
		expect(outcomeOf(a, false)).toMatchObject({
			output: { call_summary: 'Tuesday at 10' },
			unpod_wait_status: 'ended',
		});
	});

	test('a call never read: timed_out, described by the create answer and the row', () => {
		expect(outcomeOf(call({}), true)).toMatchObject({
			task_id: 'T1',
			run_id: 'R1',
			status: 'pending',
			contact_name: 'Ada',
			contact_number: '+12125550100',
			call_summary: null,
			unpod_wait_status: 'timed_out',
		});
	});
});
