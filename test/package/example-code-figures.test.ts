/**
 * The campaign's figures code (examples/code/), as its Code nodes run it: a slice taken and counted,
 * the endings counted, the changes added up in the total.
 */
import { runExampleCode } from '../helpers/example-code';
import { figuresNow, figuresRow, NOW, row } from './example-code-fixtures';

test('a slice is an id range as long as the rows read: taken in one update', () => {
	const take = (ids: number[]) =>
		runExampleCode('Take the slice', { items: ids.map((id) => row('new', { id })), nodes: {}, now: NOW });
	expect(take([3, 4, 5])).toEqual([{ json: { first: 3, last: 5, rows: 3 } }]);
	// Rows in between no longer new (a gap), or read out of order: never more ids than rows read.
	expect(take([7, 3, 12])).toEqual([{ json: { first: 3, last: 5, rows: 3 } }]);
	expect(runExampleCode('Take the slice', { items: [{}], nodes: {}, now: NOW })).toEqual([]);
});

test("a slice's count: rows with a task are calling (or waiting for their hours), those on the do-not-call list do not call, those without consent have none, the others not created; calls by consent source; the rows after its last id are new", () => {
	const counted = runExampleCode('Count the slice', {
		items: [
			{
				task_id: 'T1',
				consent_at: '2026-03-02T10:15:00Z',
				consent_source: 'web form',
				unpod_consent: 'on record: ...',
			},
			// Consent: Off: said as such, whatever the row holds.
			{ task_id: 'T2', consent_source: 'web form', unpod_consent: 'off: not asked (Consent: Off); a revocation still stops a call' },
			// Created for the callee's next legal time: Keep to Calling Hours.
			{
				task_id: 'T5',
				scheduled_at: '2026-11-26T13:00:00.000Z',
				consent_at: '2026-03-02T10:15:00Z',
				consent_source: 'call recording',
			},
			{ unpod_created: false, unpod_held: "5550100: the number's time zone is not known; not called" },
			{ error: 'Item 3: contact_number "x" is not a phone number' },
			{
				unpod_created: false,
				unpod_refused: 'Item 4: +12125300004 is on the do-not-call list (Do-Not-Call Numbers); not called',
				unpod_refused_by: 'doNotCall',
			},
			{
				unpod_created: false,
				unpod_refused: 'Item 5: +12125300005: no consent on record (consent_at is empty); ...; not called',
				unpod_refused_by: 'consent',
			},
			{
				unpod_created: false,
				unpod_refused: 'Item 6: +19005550123 is a premium-rate number (+1), ...; not called',
				unpod_refused_by: 'number',
			},
		],
		nodes: { 'Take the slice': { first: 41, last: 44, rows: 4 } },
		now: NOW,
	});
	expect(counted).toEqual([
		{
			json: {
				stages: { calling: 2, waiting_hours: 1, do_not_call: 1, no_consent: 1, not_created: 3 },
				days: {},
				consent: { placed: { 'web form': 1, 'not checked (Consent: Off)': 1, 'call recording': 1 }, refused: 1 },
				taken_through: 44,
			},
		},
	]);
	// The figures keep the highest id taken, whichever change added it.
	expect(
		figuresNow({
			figures: figuresRow({ calling: 200 }, {}, { through: 2, figures: JSON.stringify({ taken_through: 200 }) }),
			changes: [figuresRow({}, {}, { id: 3, kind: 'change', figures: JSON.stringify({ taken_through: 400 }) })],
		}).taken_through,
	).toBe(400);
});

test('the count of endings moves each row from the stage it was in to the one it is in, and counts the day', () => {
	const before = [
		row('calling', { id: 1 }),
		row('retry scheduled', { id: 2 }),
		row('calling', { id: 3 }),
		row('typed by hand', { id: 4 }),
		// An ending read but not claimed (a repeat): no update came of it.
		row('calling', { id: 5 }),
		row('calling', { id: 6 }),
		row('calling', { id: 7 }),
		row('calling', { id: 8 }),
	];
	const updated = [
		row('reached', { id: 1 }),
		row('gave up', { id: 2 }),
		// A next call placed, with the row's consent.
		row('retry scheduled', { id: 3, consent_source: 'web form', consent_at: '2026-03-02T10:15:00Z' }),
		row('reached', { id: 4 }),
		// The person asked not to be called again.
		row('do not call', { id: 6 }),
		// Their consent was revoked after the first call: no next call.
		row('no consent', { id: 7 }),
		// A next call Follow Up placed with Consent off: counted as such, whatever the row holds.
		row('callback scheduled', { id: 8, task_id: 'T8next', consent_source: 'web form' }),
	];
	// The endings claimed: their seconds; one with a cost from Unpod (the local server's shape),
	// the others with 0 (the live service's).
	// Whether each call's opening said an AI speaks: said, not said, nobody spoke (not counted).
	const claimed = [
		{ task_id: 'T1', duration: 95, cost: 0, ai_disclosed: true },
		{ task_id: 'T2', duration: 0, cost: 0, ai_disclosed: null },
		{ task_id: 'T3', duration: 0 },
		{ task_id: 'T4', duration: 60, cost: 0.12, ai_disclosed: false },
		{ task_id: 'T6', duration: 25, cost: null, ai_disclosed: true },
	];
	const followUps = [
		{ follow_up_task_id: 'T8next', unpod_consent: 'off: not asked (Consent: Off); a revocation still stops a call' },
		{ follow_up_task_id: null, unpod_consent: 'on record: ...' },
	];
	const [{ json: change }] = runExampleCode('Count the outcomes', {
		items: updated,
		nodes: { 'The row before': before, 'Calls claimed': claimed, 'Schedule follow-up': followUps },
		now: NOW,
	});
	const spend = { calls: 5, seconds: 180, unpriced_seconds: 120, unpod_cost: 0.12 };
	expect(change).toEqual({
		// Row 4's status was no stage's: it was never counted, so nothing is taken from any.
		stages: { calling: -5, reached: 2, callback_due: 1, gave_up: 1, do_not_call: 1, no_consent: 1 },
		days: { '2026-11-26': { reached: 2, gave_up: 1, callback_due: 2, do_not_call: 1 } },
		// 10:00 in Berlin is 09:00 UTC.
		hours: { '2026-11-26T09': { ...spend, reached: 2, gave_up: 1, callback_due: 2, do_not_call: 1 } },
		spend,
		consent: { placed: { 'web form': 1, 'not checked (Consent: Off)': 1 }, refused: 1 },
		disclosure: { said: 2, not_said: 1 },
	});
});

const addUp = (total: Record<string, unknown>, changes: Array<Record<string, unknown>>) =>
	runExampleCode('Add up the figures', {
		items: changes.length ? changes : [{}],
		nodes: { 'Figures total': total },
		now: NOW,
	});

test('the changes since the total are added up in it, to be written only where its `through` is still the one read', () => {
	const total = figuresRow({ calling: 49, not_created: 1 }, {}, { id: 1, through: 3 });
	const changes = [
		figuresRow(
			{ calling: -2, reached: 1, callback_due: 1 },
			{ '2026-11-26': { reached: 1, callback_due: 1 } },
			{ id: 4, kind: 'change' },
		),
		figuresRow({ calling: -1, gave_up: 1 }, { '2026-11-26': { gave_up: 1 } }, { id: 7, kind: 'change' }),
		// Consent and the opening add up too.
		{
			id: 8,
			kind: 'change',
			figures: JSON.stringify({
				stages: { no_consent: 1 },
				consent: { placed: { 'web form': 2, 'call recording': 1 }, refused: 1 },
				disclosure: { said: 2, not_said: 1 },
			}),
			through: 0,
		},
		{
			id: 9,
			kind: 'change',
			figures: JSON.stringify({ consent: { placed: { 'web form': 1 } }, disclosure: { said: 1 } }),
			through: 0,
		},
	];
	const [{ json: out }] = addUp(total, changes);
	expect(out).toMatchObject({ total_id: 1, through_before: 3, through: 9 });
	expect(JSON.parse(out.figures)).toEqual({
		stages: {
			calling: 46,
			waiting_hours: 0,
			not_created: 1,
			callback_due: 1,
			reached: 1,
			gave_up: 1,
			do_not_call: 0,
			no_consent: 1,
			other: 0,
		},
		days: { '2026-11-26': { reached: 1, gave_up: 1, callback_due: 1, do_not_call: 0 } },
		hours: {},
		spend: { calls: 0, seconds: 0, unpriced_seconds: 0, unpod_cost: 0 },
		consent: { placed: { 'web form': 3, 'call recording': 1 }, refused: 1 },
		disclosure: { said: 3, not_said: 1 },
		taken_through: 0,
	});
	// Nothing to add up, or no total (the campaign not started by its start): nothing to write.
	expect(addUp(total, [])).toEqual([]);
	expect(addUp({}, changes)).toEqual([]);
});

test('the total keeps 62 days', () => {
	const days = Object.fromEntries(
		Array.from({ length: 70 }, (_, i) => [
			NOW.minus({ days: i + 1 }).toISODate(),
			{ reached: 1, gave_up: 0, callback_due: 0 },
		]),
	);
	const [{ json: out }] = addUp(figuresRow({}, days), [
		figuresRow({}, { '2026-11-26': { reached: 1 } }, { id: 2, kind: 'change' }),
	]);
	const kept = Object.keys(JSON.parse(out.figures).days);
	expect(kept).toHaveLength(62);
	expect(kept[kept.length - 1]).toBe('2026-11-26');
	expect(kept[0]).toBe(NOW.minus({ days: 61 }).toISODate());
});
