/** The campaign page's code (examples/code/), as its Code node runs it: the page, its spend and its consent figures. */
import { A_CAMPAIGN, ANALYTICS, figure, figuresRow, NOW, pageOf, report, row } from './example-code-fixtures';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { syncExampleCode } = require('../../scripts/example-code');

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
