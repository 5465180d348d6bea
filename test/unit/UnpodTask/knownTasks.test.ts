import {
	asListed,
	knownTask,
	OVERLAP_SECONDS,
	readFrom,
	remember,
} from '../../../nodes/UnpodTask/placeCalls/knownTasks';
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
