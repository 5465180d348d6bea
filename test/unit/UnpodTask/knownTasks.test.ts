import {
	asListed,
	knownTask,
	mayHaveChanged,
	OVERLAP_SECONDS,
	REDIALS_SETTLE_SECONDS,
	readFrom,
	remember,
	rememberSent,
} from '../../../nodes/UnpodTask/placeCalls/knownTasks';
import { limitHours } from '../../../nodes/UnpodTask/placeCalls/send';
import { SCHEDULE_HORIZON_DAYS } from '../../../nodes/UnpodTask/mayCall/whenToCall';
import { CallingHours } from '../../../nodes/shared/callingHours/callee';
import { ExistingTasks } from '../../../nodes/UnpodTask/placeCalls/existingTasks';

const HOUR = 3600;
const task = (id: string, createdSec: number, extra: Record<string, unknown> = {}) => ({
	task_id: id,
	run_id: 'R1',
	status: 'pending',
	created: new Date(createdSec * 1000).toISOString(),
	input: { name: 'Ann', contact_number: `+1212555${id.padStart(4, '0').slice(-4)}`, ...extra },
	output: {},
});

test('a task is remembered by what the guard matches: document id, number, the call it follows', () => {
	expect(knownTask(task('7', 1000, { document_id: 'crm-7', previous_task_id: 'T6' }))).toEqual({
		task_id: '7',
		run_id: 'R1',
		status: 'pending',
		created: 1000,
		document_id: 'crm-7',
		contact_number: '+12125550007',
		previous_task_id: 'T6',
	});
	expect(knownTask({ status: 'pending' })).toBeUndefined();
});

test('the first read, a longer lookback or a memory older than the lookback read the whole lookback', () => {
	const since = 100 * HOUR;
	expect(readFrom(undefined, since)).toEqual({ from: since, incremental: false });
	expect(readFrom({ from: since + 1, readAt: since + 5 * HOUR, tasks: [] }, since).incremental).toBe(false);
	expect(readFrom({ from: since - HOUR, readAt: since, tasks: [] }, since).incremental).toBe(false);
	expect(readFrom({ from: since - HOUR, readAt: since + 5 * HOUR, tasks: [] }, since)).toEqual({
		from: since + 5 * HOUR - OVERLAP_SECONDS,
		incremental: true,
	});
});

test('an incremental read adds to the memory, each task once, the newest read winning; older than the lookback leaves', () => {
	const since = 100 * HOUR;
	const before = remember(
		undefined,
		[task('3', since + 300), task('2', since + 200), task('1', since - 10)],
		false,
		since - 20,
		since,
	);
	expect(before.tasks.map((t) => t.task_id)).toEqual(['3', '2', '1']);
	const after = remember(
		before,
		[task('4', since + 400), { ...task('3', since + 300), status: 'completed' }],
		true,
		since,
		since + HOUR,
	);
	expect(after).toMatchObject({ from: since, readAt: since + HOUR });
	expect(after.tasks.map((t) => [t.task_id, t.status])).toEqual([
		['4', 'pending'],
		['3', 'completed'],
		['2', 'pending'],
	]);
	// A whole read forgets what it did not list.
	expect(remember(after, [task('4', since + 400)], false, since, since + 2 * HOUR).tasks).toHaveLength(1);
});

test('remembered tasks are matched by the guard as listed ones are', () => {
	const remembered = remember(undefined, [task('9', 5000, { document_id: 'crm-9' }), task('8', 4000)], false, 0, 6000);
	const existing = new ExistingTasks(remembered.tasks.map(asListed));
	expect(existing.match({ document_id: 'crm-9' }, { countryCode: '', since: 0 })?.task.task_id).toBe('9');
	expect(existing.match({ contact_number: '+12125550008' }, { countryCode: '', since: 0 })?.task.task_id).toBe('8');
	expect(existing.match({ contact_number: '+12125550008' }, { countryCode: '', since: 4_500_000 })).toBeUndefined();
});

test('a remembered task whose call has come and may still change is read again; one still to come, or long ended, is not', () => {
	const since = 100 * HOUR;
	const readAt = since + 48 * HOUR;
	const now = readAt + HOUR;
	const at = (task: ReturnType<typeof knownTask>, status: string, scheduled?: number) => ({
		...task!,
		status,
		...(scheduled === undefined ? {} : { scheduled }),
	});
	// Created 10 hours before the last read, called 9 hours before it, ended: a redial may still come.
	const ended = at(knownTask(task('1', readAt - 10 * HOUR)), 'completed', readAt - 9 * HOUR);
	// Created 30 hours before, scheduled an hour from now: nothing changes before it rings.
	const ahead = at(knownTask(task('2', readAt - 30 * HOUR)), 'scheduled', now + HOUR);
	// Created 40 hours before, its call due and not ended.
	const open = at(knownTask(task('3', readAt - 40 * HOUR)), 'scheduled', readAt - 20 * HOUR);
	// Created 47 hours before, ended more than a day ago.
	const old = at(knownTask(task('4', readAt - 47 * HOUR)), 'completed', now - REDIALS_SETTLE_SECONDS - 1);
	expect([ended, ahead, open, old].map((t) => mayHaveChanged(t, now))).toEqual([true, false, true, false]);
	expect(readFrom({ from: since, readAt, tasks: [ended, ahead, old] }, since, now)).toEqual({
		from: readAt - 10 * HOUR,
		incremental: true,
	});
	expect(readFrom({ from: since, readAt, tasks: [ended, ahead, open, old] }, since, now).from).toBe(readAt - 40 * HOUR);
	expect(readFrom({ from: since, readAt, tasks: [ahead, old] }, since, now).from).toBe(readAt - OVERLAP_SECONDS);
	// The duplicate guard alone (no count): who has a task does not change.
	expect(readFrom({ from: since, readAt, tasks: [ended, open] }, since).from).toBe(readAt - OVERLAP_SECONDS);
});

test("runs an hour apart see Unpod's redials of a task they remember: three calls, as a fresh read counts", () => {
	const since = 0;
	const created = 10 * HOUR;
	const listed = (redials: number, status: string) => ({
		...task('9', created, { redial_count: redials }),
		status,
		scheduled_timestamp: created + 60,
	});
	// 10:05: the task is read pending; 11:05: ended, no redial yet; 12:05: Unpod redialled it twice.
	let known = remember(undefined, [listed(0, 'pending')], false, since, created + 300);
	const read = (at: number, list: ReturnType<typeof listed>[]) => {
		const { from, incremental } = readFrom(known, since, at);
		known = remember(known, list.filter((t) => Date.parse(String(t.created)) / 1000 >= from), incremental, since, at);
	};
	read(created + HOUR + 300, [listed(0, 'completed')]);
	read(created + 2 * HOUR + 300, [listed(2, 'completed')]);
	const counted = new ExistingTasks(known.tasks.map(asListed)).callTimes('+12125550009', '');
	expect(counted).toHaveLength(3);
});

test("a call this node scheduled weeks ahead is remembered at its schedule, which the space's list does not give", () => {
	const since = 0;
	const created = 1000 * HOUR;
	const inFourWeeks = created + 28 * 24 * HOUR;
	let known = remember(undefined, [], false, since, created);
	known = rememberSent(known, [
		{ task_id: 'F1', run_id: 'R1', status: 'pending', created, contact_number: '+33145678901', scheduled: inFourWeeks },
	])!;
	// The next run reads the task back from the space's list: no schedule there.
	known = remember(known, [task('F1', created, { contact_number: '+33145678901' })], true, since, created + HOUR);
	expect(known.tasks[0].scheduled).toBe(inFourWeeks);
	const counted = new ExistingTasks(known.tasks.map(asListed)).callTimes('+33145678901', '');
	expect(counted).toEqual([inFourWeeks * 1000]);
});

test("the read for France's limit reaches back as far as a call may have been moved and still count", () => {
	const callee = new CallingHours().calleeOf('+33145678901', undefined, { law: true, purpose: 'sales' });
	const hours = limitHours({ hours: { book: new CallingHours(), callee, outside: 'schedule' } });
	// A call moved the farthest (45 days past its creation) counts for 30 days after it rings.
	expect(SCHEDULE_HORIZON_DAYS).toBe(45);
	expect(hours).toBe((30 + 45) * 24);
	// The cap alone: a day and the 45 days.
	expect(limitHours({})).toBe((1 + 45) * 24);
});
