/**
 * When each row is called (placeCalls/whenToCall.ts), on instants the test gives: limits that
 * count this run's own rows and the space's calls on the day they ring, a Call At already past,
 * and the margin a call sent now keeps before its window closes. Pure: no request, no clock.
 */
import type { IDataObject } from 'n8n-workflow';
import { CallingHours } from '../../../nodes/shared/callingHours/callee';
import type { HoursSettings } from '../../../nodes/shared/callingHours/callee';
import { callRequest, contactRow } from '../../../nodes/UnpodTask/mayCall/contactRow';
import type { Row } from '../../../nodes/UnpodTask/mayCall/contactRow';
import { ExistingTasks } from '../../../nodes/UnpodTask/placeCalls/existingTasks';
import { rowHours } from '../../../nodes/UnpodTask/mayCall/hours';
import {
	CallTally,
	commonSlot,
	keepCallingHours,
	recheckNow,
	scheduleAt,
	SCHEDULE_HORIZON_DAYS,
} from '../../../nodes/UnpodTask/mayCall/whenToCall';
import { CallTiming } from '../../../nodes/UnpodTask/mayCall/timing';

const LAW: HoursSettings = { law: true, purpose: 'sales' };
const at = (text: string) => Date.parse(text);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Rows of `numbers` in one space, as Create reads them, each with its calling hours. */
function rowsOf(
	numbers: string[],
	schedule: IDataObject = { type: 'now' },
	settings: HoursSettings | 'none' = LAW,
	outside: 'schedule' | 'hold' = 'schedule',
): Row[] {
	const book = new CallingHours();
	const shared = new Map();
	return numbers.map((number, itemIndex) => {
		const document = { name: `Contact ${itemIndex + 1}`, contact_number: number };
		const hours = rowHours(book, settings === 'none' ? undefined : settings, document, undefined, outside, shared);
		return contactRow({
			itemIndex,
			where: `Item ${itemIndex + 1}`,
			inputJson: document,
			document,
			request: callRequest('space-1', 'agent-1', schedule, 'Spring offer'),
			countryCode: '',
			...(hours ? { hours } : {}),
		});
	});
}

/** The space's tasks, as its task list gives them: one per call time. */
const spaceWith = (number: string, times: number[]) =>
	new Map([
		[
			'space-1',
			new ExistingTasks(
				times.map((t, i) => ({
					task_id: `t${i}`,
					status: 'completed',
					created: new Date(t).toISOString(),
					input: { contact_number: number },
				})),
			),
		],
	]);

const scheduleOf = (row: Row) => row.request.body.schedule as IDataObject;
const when = (row: Row) => {
	const schedule = scheduleOf(row);
	return schedule.type === 'custom'
		? `${String(schedule.calling_date)}T${String(schedule.calling_time)}`
		: String(schedule.type);
};

describe('limits of calls', () => {
	// Wednesday 2027-03-10 15:00 UTC: 10:00 in Miami, 11:00 in New York.
	const NOW = at('2027-03-10T15:00:00Z');

	test('five rows of one Florida number in one run: three now, two when the first is 24 hours old', () => {
		const rows = rowsOf(Array(5).fill('+13055550100'));
		const held = keepCallingHours(rows, NOW);
		expect(held.size).toBe(0);
		expect(rows.map(when)).toEqual(['now', 'now', 'now', '2027-03-11T15:00', '2027-03-11T15:00']);
		expect(rows[3].hours!.note!.unpod_rescheduled).toMatch(
			/^3 calls to this number in 24 hours already \(at most 3, Florida's law\): Wed 2027-03-10 10:00, Wed 2027-03-10 10:00, Wed 2027-03-10 10:00 \(America\/New_York\); scheduled for Thu 2027-03-11 10:00/,
		);
	});

	test('with Do Not Create, the rows past the limit are held, saying when they may be called', () => {
		const rows = rowsOf(Array(4).fill('+13055550100'));
		for (const row of rows) row.hours = { ...row.hours!, outside: 'hold' };
		const held = keepCallingHours(rows, NOW);
		expect([...held.keys()]).toEqual([rows[3]]);
		expect(held.get(rows[3])).toMatchObject({
			unpod_created: false,
			unpod_next_allowed_at: '2027-03-11T15:00:00.000Z',
		});
	});

	test('a French number with 4 calls in the last 19 days gets its 5th when the oldest is 30 days old, inside the window', () => {
		// Wednesday 2027-03-10 11:00 in Paris.
		const paris = at('2027-03-10T10:00:00Z');
		const calls = [19, 12, 5, 1].map((days) => paris - days * DAY);
		const rows = rowsOf(['+33145678901']);
		keepCallingHours(rows, paris, new CallTally(spaceWith('+33145678901', calls)));
		// The oldest, 2027-02-19 10:00 UTC, is 30 days old on 2027-03-21, a Sunday: Monday 10:00 in Paris.
		expect(when(rows[0])).toBe('2027-03-22T09:00');
		expect(rows[0].hours!.note!.unpod_rescheduled).toMatch(
			/^4 calls to this number in 30 days already \(at most 4, France's law\): Fri 2027-02-19 11:00, Fri 2027-02-26 11:00, Fri 2027-03-05 11:00, Tue 2027-03-09 11:00 \(Europe\/Paris\); scheduled for Mon 2027-03-22 10:00/,
		);
	});

	test('a scheduled call counts on the day it rings, not the day it was created', () => {
		// Created three days ago, ringing in two hours: with two more today, a third now would make four in 24 hours.
		const number = '+13055550100';
		const existing = new ExistingTasks([
			{
				task_id: 'a',
				created: new Date(NOW - 3 * DAY).toISOString(),
				scheduled_timestamp: (NOW + 2 * HOUR) / 1000,
				input: { contact_number: number },
			},
			{ task_id: 'b', created: new Date(NOW - 5 * HOUR).toISOString(), input: { contact_number: number } },
			{ task_id: 'c', created: new Date(NOW - 4 * HOUR).toISOString(), input: { contact_number: number } },
		]);
		const rows = rowsOf([number]);
		keepCallingHours(rows, NOW, new CallTally(new Map([['space-1', existing]])));
		// Counted on its creation day it would leave room now. Counted when it rings, the earliest of the
		// three is 24 hours old at 10:00 UTC tomorrow, 05:00 in Miami: 09:00 New York (Unpod's engine).
		expect(when(rows[0])).toBe('2027-03-11T14:00');
	});

	test("Unpod's redials count: a task redialled twice is three calls", () => {
		const number = '+14055550100';
		const existing = new ExistingTasks([
			{ task_id: 'a', created: new Date(NOW - HOUR).toISOString(), input: { contact_number: number, redial_count: 2 } },
		]);
		const rows = rowsOf([number]);
		keepCallingHours(rows, NOW, new CallTally(new Map([['space-1', existing]])));
		expect(when(rows[0])).toBe('2027-03-11T14:00');
	});
});

describe('timing', () => {
	test('a Call At already past is never sent as such: now when the window is open, else its next opening', () => {
		// Sunday 2027-03-14 11:00 UTC: 11:00 in London, 07:00 in New York.
		const now = at('2027-03-14T11:00:00Z');
		const yesterday = scheduleAt(at('2027-03-13T10:00:00Z'));
		const rows = rowsOf(['+442070391291', '+12125550100'], yesterday);
		keepCallingHours(rows, now);
		expect(when(rows[0])).toBe('now');
		expect(rows[0].hours!.note!.unpod_rescheduled).toMatch(
			/^Call At 2027-03-13T10:00:00.000Z had passed; scheduled for/,
		);
		// 07:00 in New York: 09:00 there, for Unpod's engine too.
		expect(when(rows[1])).toBe('2027-03-14T13:00');
	});

	test('a past Call At with no hours to keep goes now, and its item says so', () => {
		const rows = rowsOf(['+12125550100'], scheduleAt(at('2027-03-13T10:00:00Z')), 'none');
		keepCallingHours(rows, at('2027-03-14T11:00:00Z'));
		expect(when(rows[0])).toBe('now');
		expect(rows[0].note).toEqual({ unpod_rescheduled: 'Call At 2027-03-13T10:00:00.000Z had passed; called now' });
	});

	test("a call sent now keeps 15 minutes before its window closes: 16:59 in Los Angeles is 19:59 for Unpod's engine", () => {
		const rows = rowsOf(['+12135550100', '+12135550100']);
		// Wednesday 2027-03-10 16:59 in Los Angeles (PST), 00:59 UTC: the next morning's 08:00.
		keepCallingHours([rows[0]], at('2027-03-11T00:59:00Z'));
		expect(when(rows[0])).toBe('2027-03-11T16:00');
		// At 16:44, fifteen minutes remain: now.
		keepCallingHours([rows[1]], at('2027-03-11T00:44:00Z'));
		expect(when(rows[1])).toBe('now');
	});

	test('France at 12:50 on a weekday: after lunch, at 14:00', () => {
		const rows = rowsOf(['+33145678901']);
		keepCallingHours(rows, at('2027-03-10T11:50:00Z'));
		expect(when(rows[0])).toBe('2027-03-10T13:00');
	});

	test('checked again before a batch: a row still callable stays, one whose window closed moves', () => {
		const rows = rowsOf(['+442070391291']);
		const tally = new CallTally();
		keepCallingHours(rows, at('2027-03-10T12:00:00Z'), tally);
		expect(when(rows[0])).toBe('now');
		expect(recheckNow(rows, at('2027-03-10T13:00:00Z'), tally).size).toBe(0);
		expect(when(rows[0])).toBe('now');
		// A long wait on the rate limit: 20:50 in London now.
		recheckNow(rows, at('2027-03-10T20:50:00Z'), tally);
		expect(when(rows[0])).toBe('2027-03-11T08:00');
	});

	test("a row moved by the check keeps the limits: the space's calls counted, its own first call not", () => {
		// Two Miami numbers called now, Wednesday 19:40 (00:40 UTC). The first had two calls this
		// morning; the second has three scheduled for Friday night UTC, more than 24 hours away.
		const [twice, later] = ['+13055550101', '+13055550102'];
		const space = new ExistingTasks(
			[
				[twice, '2027-03-10T15:00'],
				[twice, '2027-03-10T16:00'],
				[later, '2027-03-12T01:00'],
				[later, '2027-03-12T02:00'],
				[later, '2027-03-12T03:00'],
			].map(([number, when], i) => ({
				task_id: `t${i}`,
				created: '2027-03-09T00:00:00.000Z',
				scheduled_timestamp: at(`${when}:00Z`) / 1000,
				input: { contact_number: number },
			})),
		);
		const tally = new CallTally(new Map([['space-1', space]]));
		const rows = rowsOf([twice, later]);
		keepCallingHours(rows, at('2027-03-11T00:40:00Z'), tally);
		expect(rows.map(when)).toEqual(['now', 'now']);
		// A wait on the rate limit till 19:50, inside the margin of Florida's 20:00: both move.
		recheckNow(rows, at('2027-03-11T00:50:00Z'), tally);
		// Two calls within 24 hours of Thursday 09:00, not three: its own first call is not counted.
		expect(when(rows[0])).toBe('2027-03-11T14:00');
		// Three calls within 24 hours of Thursday 09:00: Saturday 09:00, when the first is 24 hours old.
		expect(when(rows[1])).toBe('2027-03-13T14:00');
	});

	test('the calls of one wait go at the first time legal for every callee, the margin kept', () => {
		const rows = rowsOf(['+442070391291', '+12125550100']);
		const context = { getNode: () => ({ name: 'Unpod Task' }) } as never;
		// 20:30 in London, 16:30 in New York: London closes in 30 minutes, New York's engine opens 09:00.
		expect(commonSlot(context, rows, at('2027-03-10T20:30:00Z'), Infinity, 'Call and Wait')).toBeUndefined();
		// 20:50 in London: closing within the margin; the next common time is 09:00 New York, 14:00 London.
		expect(
			new Date(commonSlot(context, rows, at('2027-03-10T20:50:00Z'), Infinity, 'Call and Wait')!).toISOString(),
		).toBe('2027-03-11T14:00:00.000Z');
	});
});

describe('what held and moved items say, and the boundaries of the rolling windows', () => {
	test('a Call At of 19:59 in Paris keeps the margin: moved to the next opening, the item saying why', () => {
		// Wednesday 2027-03-10 19:59 in Paris (18:59 UTC); France closes at 20:00.
		const rows = rowsOf(['+33145678901'], scheduleAt(at('2027-03-10T18:59:00Z')));
		keepCallingHours(rows, at('2027-03-10T12:00:00Z'));
		expect(when(rows[0])).toBe('2027-03-11T09:00');
		expect(rows[0].hours!.note!.unpod_rescheduled).toBe(
			"Its calling hours end within 15 minutes of Wed 2027-03-10 19:59 (Europe/Paris) (France's law: calls Mon-Fri 10:00-13:00, 14:00-20:00); scheduled for Thu 2027-03-11 10:00 (Europe/Paris)",
		);
	});

	test('a held item names its row, the rule that holds it and the local times, not a UTC instant', () => {
		// Sunday 2027-03-14 12:00 in Paris.
		const rows = rowsOf(['+33145678901'], { type: 'now' }, LAW, 'hold');
		const held = keepCallingHours(rows, at('2027-03-14T11:00:00Z'));
		expect(held.get(rows[0])).toMatchObject({
			unpod_held:
				"Item 1: +33145678901: outside its calling hours at Sun 2027-03-14 12:00 (Europe/Paris) (France's law: no calls on Sunday); not called; it may be called from Mon 2027-03-15 10:00 (Europe/Paris)",
			unpod_next_allowed_at: '2027-03-15T09:00:00.000Z',
		});
	});

	test("at 22:50 on a Sunday in Paris the rule named is France's Sunday, not the 21:00 floor: it closes longest", () => {
		const rows = rowsOf(['+33145678901'], { type: 'now' }, LAW, 'hold');
		const held = keepCallingHours(rows, at('2027-03-14T21:50:00Z'));
		expect(String(held.get(rows[0])!.unpod_held)).toBe(
			"Item 1: +33145678901: outside its calling hours at Sun 2027-03-14 22:50 (Europe/Paris) (France's law: no calls on Sunday); not called; it may be called from Mon 2027-03-15 10:00 (Europe/Paris)",
		);
	});

	test('a call is moved at most SCHEDULE_HORIZON_DAYS past its time, the reach of the reads of recent tasks', () => {
		// Four calls of a French number ring 20 to 23 days from now: a fifth fits only 50 days from now.
		const NOW = at('2027-03-10T10:00:00Z');
		const rows = rowsOf(['+33145678901']);
		const calls = [20, 21, 22, 23].map((d) => NOW + d * DAY);
		const held = keepCallingHours(rows, NOW, new CallTally(spaceWith('+33145678901', calls)));
		expect(SCHEDULE_HORIZON_DAYS).toBeLessThan(50);
		expect(held.get(rows[0])).toMatchObject({ unpod_created: false, unpod_next_allowed_at: null });
		expect(String(held.get(rows[0])!.unpod_held)).toMatch(
			/^Item 1: \+33145678901: 4 calls to this number in 30 days already/,
		);
		// Ten days nearer: moved 40 days ahead, when the first of them is 30 days old (12:00 in Paris).
		const near = rowsOf(['+33145678901']);
		keepCallingHours(
			near,
			NOW,
			new CallTally(
				spaceWith(
					'+33145678901',
					calls.map((t) => t - 10 * DAY),
				),
			),
		);
		expect(when(near[0])).toBe('2027-04-19T10:00');
	});

	test('a holiday is named: Christmas Day in Rhode Island', () => {
		const rows = rowsOf(['+14015550123'], { type: 'now' }, LAW, 'hold');
		const held = keepCallingHours(rows, at('2026-12-25T16:00:00Z'));
		expect(String(held.get(rows[0])!.unpod_held)).toContain("(Rhode Island's law: no calls on Christmas Day");
	});

	test('Max Calls per 24 Hours 2, calls at -20 h and +20 h: no 24 hours hold three, so a call now goes', () => {
		const NOW = at('2027-03-10T15:00:00Z');
		const rows = rowsOf(['+12125550100'], { type: 'now' }, { law: false, purpose: 'sales', maxCallsPer24Hours: 2 });
		keepCallingHours(rows, NOW, new CallTally(spaceWith('+12125550100', [NOW - 20 * HOUR, NOW + 20 * HOUR])));
		expect(when(rows[0])).toBe('now');
	});

	test('exactly 24 hours after a call is a new period; a minute less is not', () => {
		const NOW = at('2027-03-10T15:00:00Z');
		const settings: HoursSettings = { law: false, purpose: 'sales', maxCallsPer24Hours: 1 };
		const [fresh, early] = [
			rowsOf(['+12125550100'], { type: 'now' }, settings),
			rowsOf(['+12125550100'], { type: 'now' }, settings),
		];
		keepCallingHours(fresh, NOW, new CallTally(spaceWith('+12125550100', [NOW - DAY])));
		expect(when(fresh[0])).toBe('now');
		keepCallingHours(early, NOW, new CallTally(spaceWith('+12125550100', [NOW - DAY + 60_000])));
		// A minute from now, rounded up to the quarter hour its request shares.
		expect(when(early[0])).toBe('2027-03-10T15:15');
		expect(early[0].hours!.note!.unpod_rescheduled).toMatch(
			/^1 calls to this number in 24 hours already \(at most 1, Max Calls per 24 Hours\): Tue 2027-03-09 10:01 \(America\/New_York\)/,
		);
	});

	test("rows held by the cap are not counted for their number's limits: 4 rows of a Florida number, cap 1", () => {
		// Wednesday 10:00 in Miami.
		const rows = rowsOf(Array(4).fill('+13055550101'));
		const held = new CallTiming(undefined, 1).admit(rows, at('2027-03-10T15:00:00Z'));
		expect(rows.map(when)).toEqual(['now', 'now', 'now', 'now']);
		expect([...held.keys()]).toEqual(rows.slice(1));
		for (const row of rows.slice(1)) {
			expect(held.get(row)!.by).toBe('cap');
			expect(String(held.get(row)!.answer.unpod_held)).not.toContain('calls to this number');
		}
		expect(String(held.get(rows[1])!.answer.unpod_held)).toContain('1 of this run (items 1)');
	});

	test('the cap tells a French number a legal time: not Monday 22:30, but the next opening after the room', () => {
		// Sunday 2027-03-14 22:30 in Paris (21:30 UTC): the call is moved to Monday 10:00; the space
		// had a call at 21:30 UTC on Sunday, so the room comes Monday 22:30, after France closes.
		const rows = rowsOf(['+33145678901']);
		const NOW = at('2027-03-14T21:30:00Z');
		const space = new Map([
			[
				'space-1',
				new ExistingTasks([
					{
						task_id: 'o1',
						status: 'completed',
						created: new Date(NOW).toISOString(),
						input: { contact_number: '+12125550100' },
					},
				]),
			],
		]);
		const held = new CallTiming(space, 1).admit(rows, NOW);
		expect(held.get(rows[0])!.answer.unpod_next_allowed_at).toBe('2027-03-16T09:00:00.000Z');
		expect(String(held.get(rows[0])!.answer.unpod_held)).toMatch(
			/it may be called from Tue 2027-03-16 10:00 \(Europe\/Paris\)$/,
		);
	});
});
