import {
	callbackInstant,
	decideFollowUp,
	intoWindow,
	readEndedCall,
	slotOf,
} from '../../../nodes/UnpodTask/resources/task/followUp.plan';
import type { CalleeWindows } from '../../../nodes/UnpodTask/resources/task/followUp.plan';
import { ZoneClock } from '../../../nodes/shared/callingHours/window';
import { weekOf } from '../../../nodes/shared/callingHours/week';

const iso = (ms: number | undefined) => (ms === undefined ? 'none' : new Date(ms).toISOString());
const clock = new ZoneClock();
/** Calling Days and Hours of weekdays, 09:00 to 19:00. */
const WEEKDAYS = weekOf({ 'Mon-Fri': '09:00-19:00' });
/** Those days and hours in one zone. */
const window = (zone: string): CalleeWindows => ({
	windows: [{ zone, week: WEEKDAYS, holidays: [] }],
	zone,
	clock,
});
const zonedParts = (ms: number, zone: string) => clock.parts(ms, zone);
const fromZoned = (y: number, mo: number, d: number, h: number, mi: number, zone: string) =>
	clock.instant(y, mo, d, h, mi, zone);

describe('the calling window', () => {
	test('wall time in a zone and back, daylight saving included', () => {
		expect(zonedParts(Date.parse('2026-11-27T23:30:00Z'), 'Asia/Kolkata')).toMatchObject({
			year: 2026,
			month: 11,
			day: 28,
			hour: 5,
			minute: 0,
			weekday: 6,
		});
		expect(iso(fromZoned(2026, 3, 29, 9, 0, 'Europe/Berlin'))).toBe('2026-03-29T07:00:00.000Z');
		expect(iso(fromZoned(2026, 3, 28, 9, 0, 'Europe/Berlin'))).toBe('2026-03-28T08:00:00.000Z');
		expect(iso(fromZoned(2026, 11, 27, 9, 0, 'America/Los_Angeles'))).toBe('2026-11-27T17:00:00.000Z');
	});

	test('inside the window: kept as it is', () => {
		const at = Date.parse('2026-11-25T10:15:00Z'); // Wednesday 11:15 in Berlin
		expect(intoWindow(at, window('Europe/Berlin'))).toBe(at);
	});

	test('a Friday evening moves across the weekend to Monday 09:00, in the zone', () => {
		const fridayEvening = Date.parse('2026-11-27T19:30:00Z'); // 20:30 in Berlin
		expect(iso(intoWindow(fridayEvening, window('Europe/Berlin')))).toBe('2026-11-30T08:00:00.000Z');
	});

	test('across midnight east of UTC: 23:30 UTC Tuesday is Wednesday 05:00 in Kolkata, moved to 09:00 that day', () => {
		const at = Date.parse('2026-11-24T23:30:00Z');
		expect(iso(intoWindow(at, window('Asia/Kolkata')))).toBe('2026-11-25T03:30:00.000Z');
	});

	test('across midnight west of UTC: 02:00 UTC Saturday is Friday 18:00 in Los Angeles, inside; 04:00 UTC is after 19:00, so Monday', () => {
		const inside = Date.parse('2026-11-28T02:00:00Z');
		expect(intoWindow(inside, window('America/Los_Angeles'))).toBe(inside);
		const after = Date.parse('2026-11-28T04:00:00Z');
		expect(iso(intoWindow(after, window('America/Los_Angeles')))).toBe('2026-11-30T17:00:00.000Z');
	});

	test('a slot is rounded up to its size and never within a minute of now', () => {
		const now = Date.parse('2026-11-25T10:00:30Z');
		const utc = window('UTC');
		expect(iso(slotOf(Date.parse('2026-11-25T10:07:00Z'), 15, now, utc))).toBe('2026-11-25T10:15:00.000Z');
		expect(iso(slotOf(Date.parse('2026-11-25T10:00:00Z'), 15, now, utc))).toBe('2026-11-25T10:15:00.000Z');
		// Due already (a retry computed late): the first slot more than a minute from now.
		expect(iso(slotOf(Date.parse('2026-11-25T09:00:00Z'), 15, Date.parse('2026-11-25T09:59:30Z'), utc))).toBe(
			'2026-11-25T10:15:00.000Z',
		);
	});

	test('a slot that rounding would push past the window goes to its next opening (seen in CI: 18:47 became 19:00)', () => {
		const now = Date.parse('2026-11-25T14:47:00Z');
		// Wednesday 18:47 UTC, calls until 19:00: the slot is Thursday 09:00, not 19:00.
		expect(iso(slotOf(Date.parse('2026-11-25T18:47:00Z'), 15, now, window('UTC')))).toBe('2026-11-26T09:00:00.000Z');
		// Friday: Monday. In Kolkata (UTC+05:30), 18:50 rounds to 19:00 there: the next day at 09:00 (03:30 UTC).
		expect(iso(slotOf(Date.parse('2026-11-27T18:50:00Z'), 15, now, window('UTC')))).toBe('2026-11-30T09:00:00.000Z');
		expect(iso(slotOf(Date.parse('2026-11-25T13:20:00Z'), 15, now, window('Asia/Kolkata')))).toBe(
			'2026-11-26T03:30:00.000Z',
		);
		// An hour-long slot from 09:00 in Kolkata (03:30 UTC) rounds to 04:00 UTC: 09:30 there, inside.
		expect(iso(slotOf(Date.parse('2026-11-26T03:30:00Z'), 60, now, window('Asia/Kolkata')))).toBe(
			'2026-11-26T04:00:00.000Z',
		);
	});
});

describe('what an ended call asks for next', () => {
	const settings = { window: window('Europe/Berlin'), retryAfterHours: 4, maxCalls: 3 };
	const now = Date.parse('2026-11-25T10:00:00Z'); // Wednesday 11:00 in Berlin
	const flat = (extra: Record<string, unknown>) => ({
		task_id: 'T1',
		status: 'completed',
		contact_name: 'Ann',
		contact_number: '+4930123456',
		call_status: 'completed',
		call_end_reason: 'Customer Ended The Call',
		end_time: '2026-11-25T09:55:00.000Z',
		callback_requested: false,
		callback_time: null,
		transcript: 'Assistant: Hello\nContact: Hi',
		...extra,
	});

	test('reached, no callback: nothing more', () => {
		expect(decideFollowUp(readEndedCall(flat({})), settings, now)).toEqual({
			follow_up: 'none',
			reason: 'reached',
			attempt: 2,
		});
	});

	test('do-not-call: no retry, callback or follow-up, whatever else the call says; Unpod calling again is kept', () => {
		const busyButNo = readEndedCall(flat({ call_status: 'busy', callback_requested: true, do_not_call: true }));
		expect(busyButNo.doNotCall).toBe('asked on the call');
		expect(decideFollowUp(busyButNo, settings, now)).toEqual({
			follow_up: 'none',
			reason: 'do_not_call',
			unpodCallsAgain: undefined,
			attempt: 2,
		});
		const unpodToo = readEndedCall(
			flat({
				do_not_call: 'yes',
				do_not_call_reason: 'Asked to be taken off the list',
				unpod_follow_up_status: 'call_scheduled',
				unpod_follow_up_at: '2026-11-26T08:00:00.000Z',
			}),
		);
		expect(unpodToo.doNotCall).toBe('Asked to be taken off the list');
		expect(decideFollowUp(unpodToo, settings, now)).toMatchObject({
			follow_up: 'none',
			reason: 'do_not_call',
			unpodCallsAgain: 'follow_up',
		});
		// A raw task reads the same through the flat outcome.
		const raw = readEndedCall({
			task_id: 'T2',
			status: 'completed',
			input: { name: 'Ann', contact_number: '+4930123456' },
			output: { post_call_data: { structured_data: { caller_requested_do_not_call: true } } },
		});
		expect(decideFollowUp(raw, settings, now).reason).toBe('do_not_call');
	});

	test('not reached (busy): a retry 4 hours after the end, then 8 hours after the second', () => {
		const first = decideFollowUp(readEndedCall(flat({ call_status: 'busy' })), settings, now);
		expect(first).toMatchObject({ follow_up: 'retry', reason: 'not_reached: busy', attempt: 2 });
		expect(iso(first.at!)).toBe('2026-11-25T13:55:00.000Z');
		const second = decideFollowUp(readEndedCall(flat({ call_status: 'notConnected', attempt: 2 })), settings, now);
		// 8 hours after 10:55 Berlin is 18:55, still inside the window.
		expect(iso(second.at!)).toBe('2026-11-25T17:55:00.000Z');
		expect(decideFollowUp(readEndedCall(flat({ status: 'failed', attempt: 3 })), settings, now)).toEqual({
			follow_up: 'none',
			reason: 'max_calls',
			attempt: 4,
		});
	});

	test('a call that reached the person on the last attempt closes the contact as reached, not as max_calls', () => {
		expect(decideFollowUp(readEndedCall(flat({ attempt: 3 })), settings, now).reason).toBe('reached');
	});

	test('no one spoke counts as not reached; a task that failed too', () => {
		expect(decideFollowUp(readEndedCall(flat({ transcript: 'Assistant: Hello?' })), settings, now).reason).toBe(
			'not_reached: no one spoke',
		);
		expect(decideFollowUp(readEndedCall(flat({ status: 'failed', call_status: null })), settings, now).reason).toBe(
			'not_reached: Customer Ended The Call',
		);
	});

	test('a callback at the time asked, read in the window zone; one asked for a Sunday moves to Monday 09:00', () => {
		const asked = decideFollowUp(
			readEndedCall(flat({ callback_requested: true, callback_time: '2026-11-26 15:30' })),
			settings,
			now,
		);
		expect(asked).toMatchObject({ follow_up: 'callback', reason: 'callback_requested', attempt: 2 });
		expect(iso(asked.at!)).toBe('2026-11-26T14:30:00.000Z');
		const sunday = decideFollowUp(
			readEndedCall(flat({ callback_requested: 'yes', callback_time: '2026-11-29T11:00:00+01:00' })),
			settings,
			now,
		);
		expect(iso(sunday.at!)).toBe('2026-11-30T08:00:00.000Z');
	});

	test('a callback without a readable time is a call that reached no one, and says why', () => {
		const later = decideFollowUp(
			readEndedCall(flat({ callback_requested: true, callback_time: 'later' })),
			settings,
			now,
		);
		expect(later).toMatchObject({ follow_up: 'retry', reason: 'not_reached: unreadable callback time "later"' });
		expect(decideFollowUp(readEndedCall(flat({ callback_requested: true })), settings, now).reason).toBe(
			'not_reached: callback without a time',
		);
	});

	test("Unpod's own follow-up or redial is the next call: this node calls no one, and says when Unpod does", () => {
		const scheduled = flat({
			callback_requested: true,
			callback_time: '2026-11-26 15:30',
			unpod_follow_up: true,
			unpod_follow_up_status: 'call_scheduled',
			unpod_follow_up_at: '2026-11-26T14:30:00.000Z',
		});
		expect(decideFollowUp(readEndedCall(scheduled), settings, now)).toEqual({
			follow_up: 'unpod',
			reason: 'unpod_follow_up',
			at: Date.parse('2026-11-26T14:30:00.000Z'),
			attempt: 2,
		});
		const already = flat({ status: 'failed', call_status: 'busy', unpod_follow_up_status: 'call_already_scheduled' });
		expect(decideFollowUp(readEndedCall(already), settings, now)).toMatchObject({
			follow_up: 'unpod',
			reason: 'unpod_follow_up',
		});
		const redial = flat({ call_status: 'droped', unpod_redial: 'call_scheduled_for_redial' });
		expect(decideFollowUp(readEndedCall(redial), settings, now)).toEqual({
			follow_up: 'unpod',
			reason: 'unpod_redial',
			at: undefined,
			attempt: 2,
		});
		// A follow-up Unpod failed to schedule, or one switched off, leaves the callback to this node.
		for (const status of ['failed to schedule_call', 'disabled']) {
			const left = flat({
				callback_requested: true,
				callback_time: '2026-11-26 15:30',
				unpod_follow_up_status: status,
			});
			expect(decideFollowUp(readEndedCall(left), settings, now).follow_up).toBe('callback');
		}
	});

	test('a call that has not ended (pending, scheduled, in progress) is passed on undecided: not_ended', () => {
		for (const status of ['pending', 'scheduled', 'in_progress', 'hold']) {
			expect(decideFollowUp(readEndedCall(flat({ status, call_status: null })), settings, now)).toEqual({
				follow_up: 'none',
				reason: 'not_ended',
				attempt: 2,
			});
		}
	});

	test("Max Calls counts Unpod's calls: a raw task that is Unpod's second follow-up is the third call", () => {
		const raw = {
			task_id: 'T3',
			status: 'failed',
			input: { name: 'Bo', contact_number: '+4930999' },
			output: { call_status: 'busy', referenced_task: 'T2', followup_count: 2, post_call_data: {} },
		};
		const call = readEndedCall(raw);
		expect(call.attempt).toBe(3);
		expect(decideFollowUp(call, settings, now)).toMatchObject({ follow_up: 'none', reason: 'max_calls' });
	});

	test('no phone number: nothing, and why', () => {
		expect(
			decideFollowUp(readEndedCall(flat({ contact_number: null, call_status: 'busy' })), settings, now),
		).toMatchObject({
			follow_up: 'none',
			reason: 'no_phone',
		});
	});

	test('a raw task (the push, Get Many with Simplify off) reads as its simplified form does', () => {
		const raw = {
			task_id: 'T2',
			status: 'completed',
			input: { name: 'Bo', contact_number: '+4930999', attempt: 2, previous_task_id: 'T1', plan: 'gold' },
			output: {
				call_status: 'completed',
				end_time: '2026-11-25 09:55:00',
				transcript: [
					{ role: 'assistant', content: 'Hello' },
					{ role: 'user', content: 'Call me tomorrow at 10' },
				],
				post_call_data: { profile_summary: { callback_requested: true, callback_time: '2026-11-26T10:00:00' } },
			},
		};
		const call = readEndedCall(raw);
		expect(call).toMatchObject({ taskId: 'T2', attempt: 2, contactSpoke: true, callbackRequested: true });
		// The whole document travels on, custom fields too; the chain is written anew by the follow-up.
		expect(call.document).toEqual({ name: 'Bo', contact_number: '+4930999', plan: 'gold' });
		const decided = decideFollowUp(call, settings, now);
		expect(decided).toMatchObject({ follow_up: 'callback', attempt: 3 });
		expect(iso(decided.at!)).toBe('2026-11-26T09:00:00.000Z');
		expect(callbackInstant('tomorrow', 'Europe/Berlin', clock)).toBeUndefined();
	});
});
