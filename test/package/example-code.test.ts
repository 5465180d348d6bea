/** The campaign page's and the daily report's code (examples/code/), as their Code nodes run it. */
import { DateTime } from 'luxon';
import { runExampleCode } from '../helpers/example-code';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { syncExampleCode } = require('../../scripts/example-code');

const NOW = DateTime.fromISO('2026-11-26T10:00:00', { zone: 'Europe/Berlin' });
const at = (daysAgo: number, hour = 9) => NOW.minus({ days: daysAgo }).set({ hour }).toUTC().toISO();

const FIVE_DAYS_AGO = at(5);
const TODAY = at(0);
let nextId = 1;
const row = (status: string, extra: Record<string, unknown> = {}) => ({
	id: nextId++,
	name: `Contact ${nextId}`,
	phone: `+1555030${String(nextId).padStart(4, '0')}`,
	status,
	task_id: `T${nextId}`,
	attempt: 1,
	next_call_at: null,
	result: '',
	createdAt: FIVE_DAYS_AGO,
	updatedAt: TODAY,
	...extra,
});

const ANALYTICS = {
	scope: 'space',
	total_calls: 41,
	interested: 9,
	call_back: 4,
	success_rate: 72.5,
	completed_calls: null,
};

/** A row of the figures table: the total (by default) or a change. */
const figuresRow = (
	stages: Record<string, number>,
	days: Record<string, Record<string, number>> = {},
	extra: Record<string, unknown> = {},
) => ({ id: 1, kind: 'total', figures: JSON.stringify({ stages, days }), through: 0, ...extra });

interface PageReads {
	figures?: Record<string, unknown>;
	/** The changes not yet added up in the total. */
	changes?: Array<Record<string, unknown>>;
	next?: Record<string, unknown>;
	/** The table's last row, or its last two as n8n read them. */
	last?: Record<string, unknown> | Array<Record<string, unknown>>;
	timed?: Array<Record<string, unknown>>;
	unpods?: Array<Record<string, unknown>>;
	/** Your costs' cost per minute. */
	costPerMinute?: number;
}

/** The figures now, as the "Figures now" node makes them from the figures table's two reads. */
const figuresNow = (reads: { figures?: Record<string, unknown>; changes?: Array<Record<string, unknown>> }) =>
	runExampleCode('Figures now', {
		items: reads.changes?.length ? reads.changes : [{}],
		nodes: { 'The figures': reads.figures ?? {} },
		now: NOW,
	})[0].json;

const pageOf = (reads: PageReads, query: Record<string, string> = {}, analytics = ANALYTICS) =>
	String(
		runExampleCode('Build the page', {
			// A read that found nothing is one empty item (the nodes Always Output Data).
			items: reads.unpods?.length ? reads.unpods : [{}],
			nodes: {
				'Campaign page': { query },
				'Your costs': { cost_per_minute: reads.costPerMinute ?? 0 },
				'Unpod analytics': analytics,
				'Figures now': figuresNow(reads),
				'Next to call': reads.next ?? {},
				'Last row': reads.last ?? {},
				'Next callbacks': reads.timed?.length ? reads.timed : [{}],
			},
			now: NOW,
		})[0].json.html,
	);

/** The text of every element with `data-<kind>="<key>"`'s `<b>`. */
const figure = (html: string, kind: string, key: string) =>
	new RegExp(`data-${kind}="${key}"><b>([^<]*)</b>`).exec(html)?.[1];

test("the examples' Code nodes hold exactly the code of examples/code/ (node scripts/example-code.js copies it)", () => {
	expect(syncExampleCode({ write: false })).toEqual([]);
});

test('the page shows the kept figures, the rows still new, the per-day outcomes, the next callbacks in order, and masks every phone', () => {
	const timed = Array.from({ length: 8 }, (_, i) =>
		row('retry scheduled', { next_call_at: `2026-12-${String(9 + i).padStart(2, '0')}T09:00:00.000Z` }),
	);
	const unpods = Array.from({ length: 4 }, () => row('unpod follow-up'));
	const html = pageOf({
		figures: figuresRow(
			{ calling: 2, callback_due: 12, reached: 2, gave_up: 1, not_created: 1, other: 0 },
			{
				'2026-11-25': { reached: 1, gave_up: 0, callback_due: 0 },
				'2026-11-26': { reached: 1, gave_up: 0, callback_due: 12 },
				'2026-11-24': { reached: 0, gave_up: 1, callback_due: 0 },
				// Older than the page's two weeks.
				'2026-11-01': { reached: 5, gave_up: 0, callback_due: 0 },
			},
		),
		// Rows 41 to 42 are still new.
		next: row('new', { id: 41 }),
		last: row('new', { id: 42 }),
		timed,
		unpods,
	});
	expect(
		Object.fromEntries(
			['new', 'calling', 'callback_due', 'reached', 'gave_up', 'not_created'].map((k) => [
				k,
				figure(html, 'figure', k),
			]),
		),
	).toEqual({ new: '2', calling: '2', callback_due: '12', reached: '2', gave_up: '1', not_created: '1' });
	expect(html).toContain('<span data-figure="done">4</span>');
	expect(html).toContain('20 contacts');
	expect(html).not.toContain('data-figure="other"');
	const bars = [...html.matchAll(/data-day="([^"]+)" data-stage="([^"]+)" data-count="(\d+)"/g)].map((m) => m.slice(1));
	expect(bars).toEqual([
		['2026-11-24', 'gave_up', '1'],
		['2026-11-25', 'reached', '1'],
		['2026-11-26', 'reached', '1'],
		['2026-11-26', 'callback_due', '12'],
	]);
	// The ten soonest callbacks: the timed ones as read (soonest first), then Unpod's own (no time).
	const due = [
		...html.matchAll(/<tr data-row="(\d+)"><td>[^<]*<\/td><td class="phone">([^<]*)<\/td><td>([^<]*)<\/td>/g),
	];
	expect(due).toHaveLength(10);
	expect(due.slice(0, 3).map((m) => m[3])).toEqual(['Wed 9 Dec 10:00', 'Thu 10 Dec 10:00', 'Fri 11 Dec 10:00']);
	expect(due.slice(8).map((m) => m[3])).toEqual(['set by Unpod', 'set by Unpod']);
	// No phone number whole anywhere on the page; masked ones keep the first and last two digits.
	for (const r of [...timed, ...unpods]) expect(html).not.toContain(r.phone);
	expect(due[0][2]).toMatch(/^\+1•{8}\d\d$/);
	expect(figure(html, 'analytics', 'total_calls')).toBe('41');
	expect(figure(html, 'analytics', 'success_rate')).toBe('72.5');
	expect(html).not.toContain('data-analytics="completed_calls"');
});

test('the page is self-contained: no script, nothing from another host, text escaped; it reloads itself', () => {
	const html = pageOf({
		timed: [row('retry scheduled', { name: '<script>alert(1)</script> & Co', next_call_at: '2026-12-01T09:00:00Z' })],
	});
	expect(html).not.toMatch(/<script|<link|<img|@import|url\(/i);
	expect(html).not.toMatch(/https?:\/\//);
	expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co');
	expect(html).toContain('<meta http-equiv="refresh" content="60">');
	expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
	expect(pageOf({}, { refresh: '15' })).toContain('content="15"');
	expect(pageOf({}, { refresh: '1' })).toContain('content="5"');
	expect(pageOf({}, { refresh: 'soon' })).toContain('content="60"');
});

test('no figures yet, an empty table and an Unpod failure (an error item) still make a page', () => {
	const html = pageOf({}, {}, { error: 'Unpod did not answer' } as never);
	expect(figure(html, 'figure', 'new')).toBe('0');
	expect(html).toContain('None scheduled.');
	expect(html).toContain('Unpod sent no figures.');
	// Figures a hand broke: a page all the same.
	expect(
		figure(pageOf({ figures: { id: 1, kind: 'total', figures: '{not json', through: 3 } }), 'figure', 'reached'),
	).toBe('0');
});

test('the page adds the changes not yet added up to the total', () => {
	const html = pageOf({
		figures: figuresRow(
			{ calling: 200 },
			{ '2026-11-26': { reached: 1, gave_up: 0, callback_due: 2 } },
			{ through: 9 },
		),
		changes: [
			figuresRow({ calling: -1, reached: 1 }, { '2026-11-26': { reached: 1 } }, { id: 10, kind: 'change' }),
			figuresRow({ calling: 150 }, {}, { id: 11, kind: 'change' }),
		],
	});
	expect(figure(html, 'figure', 'calling')).toBe('349');
	expect(figure(html, 'figure', 'reached')).toBe('1');
	expect(html).toContain('data-day="2026-11-26" data-stage="reached" data-count="2"');
	expect(html).toContain('data-day="2026-11-26" data-stage="callback_due" data-count="2"');
});

test('100,000 contacts make the same page as 100: the figures are counts, the reads a dozen rows', () => {
	const stages = { calling: 20_000, callback_due: 5_000, reached: 30_000, gave_up: 5_000, not_created: 12, other: 0 };
	const html = pageOf({
		figures: figuresRow(stages),
		next: row('new', { id: 60_001 }),
		last: row('new', { id: 99_988 }),
	});
	expect(figure(html, 'figure', 'new')).toBe('39988');
	expect(html).toContain('100000 contacts');
	expect(html.length).toBeLessThan(20_000);
});

interface ReportReads {
	figures?: Record<string, unknown>;
	changes?: Array<Record<string, unknown>>;
	next?: Record<string, unknown>;
	last?: Record<string, unknown> | Array<Record<string, unknown>>;
	/** The first row created on or after the day before's start, that day's, the day after's. */
	fromDayBefore?: Record<string, unknown>;
	fromThatDay?: Record<string, unknown>;
	afterThatDay?: Record<string, unknown>;
}

const report = (
	reads: ReportReads,
	staticData: Record<string, unknown> = {},
	analytics = ANALYTICS,
	daysAgo = 1,
	costPerMinute = 0,
) =>
	runExampleCode('Yesterday against the day before', {
		items: [reads.afterThatDay ?? {}],
		nodes: {
			'Report on': { days_ago: daysAgo, cost_per_minute: costPerMinute },
			'Unpod analytics': analytics,
			'Figures now': figuresNow(reads),
			'Next to call': reads.next ?? {},
			'Last row': reads.last ?? {},
			'Added from the day before': reads.fromDayBefore ?? {},
			'Added from that day': reads.fromThatDay ?? {},
			'Added after that day': reads.afterThatDay ?? {},
		},
		now: NOW,
		staticData,
	})[0].json;

const A_CAMPAIGN = {
	figures: figuresRow(
		{ calling: 3, callback_due: 1, reached: 4, gave_up: 1, not_created: 0, other: 0 },
		{
			'2026-11-24': { reached: 1, gave_up: 1, callback_due: 0 },
			'2026-11-25': { reached: 2, gave_up: 0, callback_due: 1 },
			'2026-11-26': { reached: 1, gave_up: 0, callback_due: 0 },
		},
	),
	// Rows 1 to 10 came before the day before, 11 to 30 the day before, 31 to 36 yesterday, none today.
	next: row('new', { id: 36 }),
	last: row('new', { id: 36 }),
	fromDayBefore: row('reached', { id: 11 }),
	fromThatDay: row('reached', { id: 31 }),
};

test('the daily report: yesterday against the day before, as mail-safe HTML and a Slack message', () => {
	const out = report(A_CAMPAIGN);
	expect(out.day).toBe('2026-11-25');
	expect(out.yesterday).toEqual({ reached: 2, callback_due: 1, gave_up: 0, do_not_call: 0, added: 6 });
	expect(out.day_before).toEqual({ reached: 1, callback_due: 0, gave_up: 1, do_not_call: 0, added: 20 });
	expect(out.now).toMatchObject({ reached: 4, callback_due: 1, gave_up: 1, new: 1, calling: 3 });
	expect(out.subject).toBe('Unpod campaign, Wednesday 25 November 2026: 2 reached, 1 callbacks scheduled');
	expect(out.html).not.toMatch(/<svg|<script|<style|https?:\/\//i);
	expect(out.html).toMatch(
		/data-figure="reached"><td[^>]*>Reached<\/td><td[^>]*><b>2<\/b><\/td><td[^>]*>1<\/td><td[^>]*>\+1</,
	);
	expect(out.slack.text).toContain('Reached: *2* (2026-11-24: 1, +1)');
	expect(out.slack.text).toContain('Gave up: *0* (2026-11-24: 1, -1)');
	expect(out.slack.blocks[0]).toEqual({
		type: 'header',
		text: { type: 'plain_text', text: 'Unpod campaign, Wednesday 25 November 2026' },
	});
	// Today so far (Report on: 0): rows added today are those after yesterday's first... none here.
	const evening = report(
		{ ...A_CAMPAIGN, fromDayBefore: A_CAMPAIGN.fromThatDay, fromThatDay: undefined },
		{},
		ANALYTICS,
		0,
	);
	expect(evening.day).toBe('2026-11-26');
	expect(evening.yesterday).toEqual({ reached: 1, callback_due: 0, gave_up: 0, do_not_call: 0, added: 0 });
	expect(evening.day_before).toMatchObject({ reached: 2, added: 6 });
});

test("on n8n 1.x, whose Data Table node ignores Order By, the rows still new and the day's rows added are not known", () => {
	// The last two rows as 1.x gives them: lowest id first.
	const lasts = [row('new', { id: 1 }), row('new', { id: 2 })];
	const html = pageOf({ next: row('new', { id: 1 }), last: lasts });
	expect(figure(html, 'figure', 'new')).toBe('?');
	const out = report({ ...A_CAMPAIGN, last: lasts });
	expect(out.now.new).toBeNull();
	expect(out.yesterday.added).toBeNull();
	// The day before ends at yesterday's first row: known.
	expect(out.day_before.added).toBe(20);
	expect(out.slack.text).toContain('Contacts added: *?* (2026-11-24: 20, )');
	// Sorted (2.x): the highest first.
	expect(figure(pageOf({ next: row('new', { id: 1 }), last: [...lasts].reverse() }), 'figure', 'new')).toBe('2');
});

test('a report of an empty campaign says nothing happened', () => {
	const out = report({});
	expect(out.yesterday).toEqual({ reached: 0, callback_due: 0, gave_up: 0, do_not_call: 0, added: 0 });
	expect(out.now).toMatchObject({ new: 0, reached: 0 });
});

test("the report counts Unpod's calls since the last report from its second morning on", () => {
	const kept: Record<string, unknown> = {};
	expect(report({}, kept).unpod).toEqual({ total_calls: 41, success_rate: 72.5, calls_since_last_report: null });
	expect(kept.unpodTotalCalls).toBe(41);
	expect(report({}, kept, { ...ANALYTICS, total_calls: 60 }).unpod.calls_since_last_report).toBe(19);
	expect(report({}, kept, { error: 'down' } as never).unpod).toEqual({
		total_calls: null,
		success_rate: null,
		calls_since_last_report: null,
	});
	expect(kept.unpodTotalCalls).toBe(60);
});

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
				unpod_refused: 'Item 4: +15550300004 is on the do-not-call list (Do-Not-Call Numbers); not called',
				unpod_refused_by: 'doNotCall',
			},
			{
				unpod_created: false,
				unpod_refused: 'Item 5: +15550300005: no consent on record (consent_at is empty); ...; not called',
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

/** Figures whose hours hold calls: `hoursAgo` -> calls of 90 s each, 1 reached, priced or not. */
function spentFigures(calls: Record<number, number>, unpodCost = 0) {
	const hours = Object.fromEntries(
		Object.entries(calls).map(([ago, n]) => [
			NOW.toUTC()
				.minus({ hours: Number(ago) })
				.toFormat("yyyy-LL-dd'T'HH"),
			{ calls: n, seconds: 90 * n, unpriced_seconds: unpodCost ? 0 : 90 * n, unpod_cost: unpodCost * n, reached: 1 },
		]),
	);
	const all = Object.values(calls).reduce((a, b) => a + b, 0);
	return {
		id: 1,
		kind: 'total',
		through: 0,
		figures: JSON.stringify({
			stages: { reached: 5, callback_due: 2, gave_up: 1, do_not_call: 0 },
			days: {},
			hours,
			spend: { calls: all, seconds: 90 * all, unpriced_seconds: unpodCost ? 0 : 90 * all, unpod_cost: unpodCost * all },
		}),
	};
}

/** The spend table's cells: `key` -> [last 24 hours, last 7 days, campaign]. */
const spendCells = (html: string) =>
	Object.fromEntries(
		[...html.matchAll(/<tr data-spend="([^"]+)">(.*?)<\/tr>/g)].map(([, key, row]) => [
			key,
			[...row.matchAll(/data-when="[^"]+">([^<]*)</g)].map(([, text]) => text),
		]),
	);

test('spend: calls, minutes and spend of the last 24 hours, 7 days and the campaign, at Your costs per minute', () => {
	// 4 calls 2 hours ago, 6 calls 30 hours ago, 10 calls 9 days ago (only in the campaign's total).
	const figures = spentFigures({ 2: 4, 30: 6, 200: 10 });
	const html = pageOf({ figures, costPerMinute: 0.1 });
	expect(spendCells(html)).toEqual({
		calls: ['4', '10', '20'],
		minutes: ['6.0', '15.0', '30.0'],
		spend: ['0.60', '1.50', '3.00'],
		// A reached contact in each hour with calls; the campaign has 5 reached.
		per_reached: ['0.60', '0.75', '0.60'],
		// Each outcome: how many, and what each cost.
		outcome_reached: ['1, 0.60', '2, 0.75', '5, 0.60'],
		outcome_callback_due: ['0, ?', '0, ?', '2, 1.50'],
		outcome_gave_up: ['0, ?', '0, ?', '1, 3.00'],
		outcome_do_not_call: ['0, ?', '0, ?', '0, ?'],
	});
	expect(html).not.toContain("Unpod's own cost fields read 0");
});

test("spend without a cost per minute reads ?, and says why; Unpod's own cost is used where every call has one", () => {
	const unknown = pageOf({ figures: spentFigures({ 2: 4 }) });
	expect(spendCells(unknown).spend).toEqual(['?', '?', '?']);
	expect(spendCells(unknown).minutes).toEqual(['6.0', '6.0', '6.0']);
	expect(unknown).toContain('Enter your cost per minute (Unpod&#39;s price for your plan) in the Your costs node');
	// The local server's shape: a cost on each call (0.18 each).
	const priced = pageOf({ figures: spentFigures({ 2: 4 }, 0.18) });
	expect(spendCells(priced).spend).toEqual(['0.72', '0.72', '0.72']);
});

test('the report carries the same spend, by email and to Slack', () => {
	const out = report({ ...A_CAMPAIGN, figures: spentFigures({ 2: 4, 30: 6 }) }, {}, ANALYTICS, 1, 0.1);
	expect(out.spend.last_24_hours).toMatchObject({ calls: 4, minutes: 6, spend: expect.closeTo(0.6, 6) });
	expect(spendCells(String(out.html)).spend).toEqual(['0.60', '1.50', '1.50']);
	expect(out.slack.text).toContain(
		'Last 24 hours: 4 calls, 6.0 minutes, spend 0.60, per reached contact 0.60; campaign: 10 calls, spend 1.50',
	);
});

/** Figures of a campaign whose calls went by their consent source, some refused, one opening silent on the AI. */
const consentFigures = (consent: Record<string, unknown>) => ({
	id: 1,
	kind: 'total',
	through: 0,
	figures: JSON.stringify({
		stages: { calling: 5, no_consent: 2 },
		days: {},
		consent,
		disclosure: { said: 4, not_said: 1 },
	}),
});

/** The consent table's lines: `key` -> its figure. */
const consentCells = (html: string) =>
	Object.fromEntries(
		[...html.matchAll(/<tr data-consent="([^"]+)">.*?<b>([^<]*)<\/b>/g)].map(([, key, value]) => [key, value]),
	);

test('consent and the opening: the page and the report show calls placed by consent source, those refused for want of it, and the openings that did not say an AI speaks', () => {
	const figures = consentFigures({ placed: { 'web form': 3, 'not checked (Consent: Off)': 2 }, refused: 2 });
	const expected = {
		'placed:web form': '3',
		'placed:not checked (Consent: Off)': '2',
		refused: '2',
		not_said: '1 of 5',
	};
	const html = pageOf({ figures });
	expect(consentCells(html)).toEqual(expected);
	expect(figure(html, 'figure', 'no_consent')).toBe('2');
	const out = report({ ...A_CAMPAIGN, figures });
	expect(consentCells(String(out.html))).toEqual(expected);
	expect(out.slack.text).toContain(
		'Consent: 3 placed by web form, 2 placed by not checked (Consent: Off); 2 not called for want of it; 1 of 5 openings did not say an AI speaks',
	);
	// A campaign before any call: nothing placed, nothing refused.
	expect(consentCells(pageOf({ figures: figuresRow({ calling: 0 }) }))).toEqual({
		placed: '0',
		refused: '0',
		not_said: '0 of 0',
	});
});
