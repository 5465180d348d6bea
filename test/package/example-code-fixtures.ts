/**
 * What the tests of the campaign's Code nodes (examples/code/) share: a fixed now, rows of the
 * campaign table and of its figures table, Unpod's analytics, and the page and the daily report as
 * their Code nodes make them from the reads before them.
 */
import { DateTime } from 'luxon';
import { runExampleCode } from '../helpers/example-code';

export const NOW = DateTime.fromISO('2026-11-26T10:00:00', { zone: 'Europe/Berlin' });
const at = (daysAgo: number, hour = 9) => NOW.minus({ days: daysAgo }).set({ hour }).toUTC().toISO();

const FIVE_DAYS_AGO = at(5);
const TODAY = at(0);
let nextId = 1;
export const row = (status: string, extra: Record<string, unknown> = {}) => ({
	id: nextId++,
	name: `Contact ${nextId}`,
	phone: `+1212530${String(nextId).padStart(4, '0')}`,
	status,
	task_id: `T${nextId}`,
	attempt: 1,
	next_call_at: null,
	result: '',
	createdAt: FIVE_DAYS_AGO,
	updatedAt: TODAY,
	...extra,
});

export const ANALYTICS = {
	scope: 'space',
	total_calls: 41,
	interested: 9,
	call_back: 4,
	success_rate: 72.5,
	completed_calls: null,
};

/** A row of the figures table: the total (by default) or a change. */
export const figuresRow = (
	stages: Record<string, number>,
	days: Record<string, Record<string, number>> = {},
	extra: Record<string, unknown> = {},
) => ({ id: 1, kind: 'total', figures: JSON.stringify({ stages, days }), through: 0, ...extra });

export interface PageReads {
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
export const figuresNow = (reads: { figures?: Record<string, unknown>; changes?: Array<Record<string, unknown>> }) =>
	runExampleCode('Figures now', {
		items: reads.changes?.length ? reads.changes : [{}],
		nodes: { 'The figures': reads.figures ?? {} },
		now: NOW,
	})[0].json;

export const pageOf = (reads: PageReads, query: Record<string, string> = {}, analytics = ANALYTICS) =>
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
export const figure = (html: string, kind: string, key: string) =>
	new RegExp(`data-${kind}="${key}"><b>([^<]*)</b>`).exec(html)?.[1];

export interface ReportReads {
	figures?: Record<string, unknown>;
	changes?: Array<Record<string, unknown>>;
	next?: Record<string, unknown>;
	last?: Record<string, unknown> | Array<Record<string, unknown>>;
	/** The first row created on or after the day before's start, that day's, the day after's. */
	fromDayBefore?: Record<string, unknown>;
	fromThatDay?: Record<string, unknown>;
	afterThatDay?: Record<string, unknown>;
}

export const report = (
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

export const A_CAMPAIGN = {
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
