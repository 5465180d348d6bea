/** Max Calls per Day: any 24 hours of a space's calls, counted when they ring; the earliest time a held row fits. */
import { DailyCap } from '../../../nodes/UnpodTask/mayCall/dailyCap';
import { ExistingTasks } from '../../../nodes/UnpodTask/placeCalls/existingTasks';
import { contactRow } from '../../../nodes/UnpodTask/mayCall/contactRow';
import { scheduleAt } from '../../../nodes/UnpodTask/mayCall/whenToCall';
import { RollingWindow } from '../../../nodes/shared/rollingWindow';

const HOUR = 3_600_000;
const NOW = Date.parse('2026-12-01T12:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();

/** A contact row of space S1, sent now or at `at`. */
const row = (n: number, at?: number) =>
	contactRow({
		itemIndex: n,
		where: `Row ${n}`,
		inputJson: {},
		document: { contact_number: `+1212555${String(n).padStart(4, '0')}` },
		request: {
			space: 'S1',
			body: { pilot: 'a', schedule: at === undefined ? { type: 'now' } : scheduleAt(at), context: 'c' },
		},
		countryCode: '',
	});

/** Tasks of S1 that ring at these instants (created then, or scheduled), `redials` more each. */
const space = (times: number[], redials = 0) =>
	new Map([
		[
			'S1',
			new ExistingTasks(
				times.map((at, i) => ({
					task_id: `T${i}`,
					created: iso(at - 10 * HOUR),
					scheduled_timestamp: at / 1000,
					input: { contact_number: `+1646555${String(i).padStart(4, '0')}`, redial_count: redials },
				})),
			),
		],
	]);

test('0 is no cap: every row goes, nothing is read or counted', () => {
	const rows = [row(1), row(2)];
	expect(new DailyCap(0).admit(rows, NOW).size).toBe(0);
});

test("the space's calls count, a redial once more each; this run's rows count as they are admitted", () => {
	// 3 calls in the last 24 hours, each redialled once: 6 of 8.
	const cap = new DailyCap(8, space([NOW - 20 * HOUR, NOW - 10 * HOUR, NOW - HOUR], 1));
	const rows = [row(1), row(2), row(3), row(4)];
	const held = cap.admit(rows, NOW);
	expect([...held.keys()]).toEqual([rows[2], rows[3]]);
	// Fits again when the oldest call (and its redial) leave the 24 hours: 4 hours from now.
	expect(held.get(rows[2])).toEqual({
		unpod_created: false,
		unpod_held:
			"Row 3: +12125550003: Max Calls per Day (8) reached: 8 calls of space S1 ring in the 24 hours around 2026-12-01T12:00:00.000Z: 6 already in the space and 2 of this run (items 2, 3); executions running at once do not count each other's; not called; it may be called from 2026-12-01T16:00:00.000Z",
		unpod_next_allowed_at: iso(NOW + 4 * HOUR),
	});
	// The room at 16:00 holds the 7th and 8th calls: both rows are told it.
	expect(held.get(rows[3])!.unpod_next_allowed_at).toBe(iso(NOW + 4 * HOUR));
});

test('held rows are each told a room of their own: the next is after the one the row before was told', () => {
	// Cap 1, one call now in the space: 3 rows now are told tomorrow, the day after, the day after that.
	const cap = new DailyCap(1, space([NOW]));
	const rows = [row(1), row(2), row(3)];
	const held = cap.admit(rows, NOW);
	expect(rows.map((r) => held.get(r)!.unpod_next_allowed_at)).toEqual([
		iso(NOW + 24 * HOUR),
		iso(NOW + 48 * HOUR),
		iso(NOW + 72 * HOUR),
	]);
});

test('a call scheduled ahead counts on the day it rings: any 24 hours holding the new call are kept under the cap', () => {
	// Two calls ring tomorrow at 11:00; none today. With a cap of 2, a call now would make 3 in
	// the 24 hours from now, though each calendar-free day alone would hold 2.
	const cap = new DailyCap(2, space([NOW + 23 * HOUR, NOW + 23 * HOUR]));
	const [now] = [row(1)];
	expect(cap.admit([now], NOW).get(now)!.unpod_next_allowed_at).toBe(iso(NOW + 47 * HOUR));
	// Scheduled for the day after, it fits.
	const later = row(2, NOW + 48 * HOUR);
	expect(cap.admit([later], NOW).size).toBe(0);
});

test('calls spread over 24 hours: a window that starts at an earlier call, not at the new one, is what fills', () => {
	// Calls at -23 h and +1 h: a call now shares the 24 hours from -23 h with the first, and those
	// from now with the second; with a cap of 2, each window holds 2 and the call fits.
	const spread = new DailyCap(2, space([NOW - 23 * HOUR, NOW + HOUR]));
	expect(spread.admit([row(1)], NOW).size).toBe(0);
	// A third nearby makes the window from -23 h hold 3.
	const dense = new DailyCap(2, space([NOW - 23 * HOUR, NOW - 22 * HOUR, NOW + HOUR]));
	const one = row(1);
	expect(dense.admit([one], NOW).get(one)!.unpod_next_allowed_at).toBe(iso(NOW + 2 * HOUR));
});

test('a row decided again is counted once, at its new time', () => {
	const cap = new DailyCap(1);
	const first = row(1);
	expect(cap.admit([first], NOW).size).toBe(0);
	// The same row again (a batch checked after a wait): its own earlier count is dropped first.
	expect(cap.admit([first], NOW + HOUR).size).toBe(0);
	const second = row(2);
	expect(cap.admit([second], NOW + HOUR).get(second)!.unpod_next_allowed_at).toBe(iso(NOW + 25 * HOUR));
	cap.drop(first);
	expect(cap.admit([second], NOW + HOUR).size).toBe(0);
});

test('100,000 rows against a cap of 5,000 with 1,440 calls in the last 24 hours: the first 3,560 go, the rest wait', () => {
	// A call a minute over the last 2,000 minutes: 1,440 of them within 24 hours.
	const cap = new DailyCap(5000, space(Array.from({ length: 2000 }, (_, i) => NOW - i * 60_000)));
	const rows = Array.from({ length: 100_000 }, (_, i) => row(i));
	const held = cap.admit(rows, NOW);
	expect(held.size).toBe(100_000 - 3560);
	expect(held.has(rows[3559])).toBe(false);
	expect(held.has(rows[3560])).toBe(true);
	// The oldest call of the 24 hours leaves them a minute from now: room for one, for the first held.
	expect(held.get(rows[3560])!.unpod_next_allowed_at).toBe(iso(NOW + 60_000));
	expect(held.get(rows[3561])!.unpod_next_allowed_at).toBe(iso(NOW + 120_000));
	// Every row is told a time; taken together with the calls in the space, no 24 hours hold more than 5,000.
	const told = rows.slice(3560).map((r) => Date.parse(String(held.get(r)!.unpod_next_allowed_at)));
	const all = [...Array.from({ length: 2000 }, (_, i) => NOW - i * 60_000), ...Array(3560).fill(NOW), ...told];
	const line = new RollingWindow(all, 24 * HOUR);
	const starts = [...new Set(all)];
	expect(Math.max(...starts.map((t) => line.count(t, t + 24 * HOUR)))).toBe(5000);
	expect(told[told.length - 1]).toBeLessThan(NOW + 21 * 24 * HOUR);
});
