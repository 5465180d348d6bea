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

const pageOf = (items: Array<Record<string, unknown>>, query: Record<string, string> = {}, analytics = ANALYTICS) =>
	String(
		runExampleCode('Build the page', {
			items,
			nodes: { 'Campaign page': { query }, 'Unpod analytics': analytics },
			now: NOW,
		})[0].json.html,
	);

/** The text of every element with `data-<kind>="<key>"`'s `<b>`. */
const figure = (html: string, kind: string, key: string) =>
	new RegExp(`data-${kind}="${key}"><b>([^<]*)</b>`).exec(html)?.[1];

test("the examples' Code nodes hold exactly the code of examples/code/ (node scripts/example-code.js copies it)", () => {
	expect(syncExampleCode({ write: false })).toEqual([]);
});

test('the page counts each stage, shows the per-day outcomes, the next callbacks in order, and masks every phone', () => {
	const rows = [
		row('new'),
		row('new'),
		row('calling'),
		row('deciding'),
		row('reached', { updatedAt: at(1) }),
		row('reached'),
		row('gave up', { updatedAt: at(2) }),
		row('not created', { phone: 'call me' }),
		...Array.from({ length: 12 }, (_, i) =>
			row(i % 3 === 0 ? 'unpod follow-up' : 'retry scheduled', {
				next_call_at: i % 3 === 0 ? null : `2026-12-${String(20 - i).padStart(2, '0')}T09:00:00.000Z`,
			}),
		),
	];
	const html = pageOf(rows);
	expect(
		Object.fromEntries(
			['new', 'calling', 'callback_due', 'reached', 'gave_up', 'not_created'].map((k) => [
				k,
				figure(html, 'figure', k),
			]),
		),
	).toEqual({ new: '2', calling: '2', callback_due: '12', reached: '2', gave_up: '1', not_created: '1' });
	expect(html).toContain('<span data-figure="done">4</span>');
	// Per day, in Berlin time: two reached (yesterday and today), one given up two days ago.
	const bars = [...html.matchAll(/data-day="([^"]+)" data-stage="([^"]+)" data-count="(\d+)"/g)].map((m) => m.slice(1));
	expect(bars).toEqual(
		expect.arrayContaining([
			['2026-11-25', 'reached', '1'],
			['2026-11-26', 'reached', '1'],
			['2026-11-24', 'gave_up', '1'],
			['2026-11-26', 'callback_due', '12'],
		]),
	);
	expect(bars).toHaveLength(4);
	// The ten soonest callbacks: timed ones first, soonest first; Unpod's own (no time) after.
	const due = [
		...html.matchAll(/<tr data-row="(\d+)"><td>[^<]*<\/td><td class="phone">([^<]*)<\/td><td>([^<]*)<\/td>/g),
	];
	expect(due).toHaveLength(10);
	// 2026-12-09 ... 2026-12-19 at 09:00 UTC, soonest first, shown in Berlin time.
	expect(due.slice(0, 8).map((m) => m[3])).toEqual([
		'Wed 9 Dec 10:00',
		'Thu 10 Dec 10:00',
		'Sat 12 Dec 10:00',
		'Sun 13 Dec 10:00',
		'Tue 15 Dec 10:00',
		'Wed 16 Dec 10:00',
		'Fri 18 Dec 10:00',
		'Sat 19 Dec 10:00',
	]);
	expect(due[8][3]).toBe('set by Unpod');
	// No phone number whole anywhere on the page; masked ones keep the first and last two digits.
	for (const r of rows) if (r.phone.length > 5) expect(html).not.toContain(r.phone);
	expect(due[0][2]).toMatch(/^\+1•{8}\d\d$/);
	expect(figure(html, 'analytics', 'total_calls')).toBe('41');
	expect(figure(html, 'analytics', 'success_rate')).toBe('72.5');
	expect(html).not.toContain('data-analytics="completed_calls"');
});

test('the page is self-contained: no script, nothing from another host, text escaped; it reloads itself', () => {
	const html = pageOf([row('retry scheduled', { name: '<script>alert(1)</script> & Co' })]);
	expect(html).not.toMatch(/<script|<link|<img|@import|url\(/i);
	expect(html).not.toMatch(/https?:\/\//);
	expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co');
	expect(html).toContain('<meta http-equiv="refresh" content="60">');
	expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
	expect(pageOf([], { refresh: '15' })).toContain('content="15"');
	expect(pageOf([], { refresh: '1' })).toContain('content="5"');
	expect(pageOf([], { refresh: 'soon' })).toContain('content="60"');
});

test('an empty table (one empty item) and an Unpod failure (an error item) still make a page', () => {
	const html = pageOf([{}], {}, { error: 'Unpod did not answer' } as never);
	expect(figure(html, 'figure', 'new')).toBe('0');
	expect(html).toContain('None scheduled.');
	expect(html).toContain('Unpod sent no figures.');
});

test('10,000 rows make one page with ten callbacks listed, not a line per row', () => {
	const rows = Array.from({ length: 10_000 }, (_, i) =>
		row(['new', 'calling', 'reached', 'gave up', 'retry scheduled'][i % 5], { next_call_at: '2026-12-01T09:00:00Z' }),
	);
	const html = pageOf(rows);
	expect(figure(html, 'figure', 'reached')).toBe('2000');
	expect([...html.matchAll(/<tr data-row=/g)]).toHaveLength(10);
	expect(html.length).toBeLessThan(20_000);
});

const report = (
	items: Array<Record<string, unknown>>,
	staticData: Record<string, unknown> = {},
	analytics = ANALYTICS,
) =>
	runExampleCode('Yesterday against the day before', {
		items,
		nodes: { 'Unpod analytics': analytics },
		now: NOW,
		staticData,
	})[0].json;

test('the daily report: yesterday against the day before, as mail-safe HTML and a Slack message', () => {
	const rows = [
		row('reached', { updatedAt: at(1) }),
		row('reached', { updatedAt: at(1, 23) }),
		row('reached', { updatedAt: at(2) }),
		row('retry scheduled', { updatedAt: at(1) }),
		row('gave up', { updatedAt: at(2) }),
		row('new', { createdAt: at(1), updatedAt: at(1) }),
		row('reached', { updatedAt: at(0) }),
	];
	const out = report(rows);
	expect(out.day).toBe('2026-11-25');
	expect(out.yesterday).toEqual({ reached: 2, callback_due: 1, gave_up: 0, added: 1 });
	expect(out.day_before).toEqual({ reached: 1, callback_due: 0, gave_up: 1, added: 0 });
	expect(out.now).toMatchObject({ reached: 4, callback_due: 1, gave_up: 1, new: 1 });
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
	for (const r of rows) expect(JSON.stringify(out)).not.toContain(r.phone);
});

test("the report counts Unpod's calls since the last report from its second morning on", () => {
	const kept: Record<string, unknown> = {};
	expect(report([], kept).unpod).toEqual({ total_calls: 41, success_rate: 72.5, calls_since_last_report: null });
	expect(kept.unpodTotalCalls).toBe(41);
	expect(report([], kept, { ...ANALYTICS, total_calls: 60 }).unpod.calls_since_last_report).toBe(19);
	expect(report([], kept, { error: 'down' } as never).unpod).toEqual({
		total_calls: null,
		success_rate: null,
		calls_since_last_report: null,
	});
	expect(kept.unpodTotalCalls).toBe(60);
});
