/** The Data Table campaign example's table: its columns, and rows of a campaign halfway through. */

/** The columns the example's sticky note asks for. */
export const CAMPAIGN_COLUMNS: Array<{ name: string; type: 'string' | 'number' }> = [
	{ name: 'name', type: 'string' },
	{ name: 'phone', type: 'string' },
	{ name: 'status', type: 'string' },
	{ name: 'task_id', type: 'string' },
	{ name: 'attempt', type: 'number' },
	{ name: 'next_call_at', type: 'string' },
	{ name: 'result', type: 'string' },
	{ name: 'consent_at', type: 'string' },
	{ name: 'consent_source', type: 'string' },
	{ name: 'consent_wording', type: 'string' },
	{ name: 'consent_revoked_at', type: 'string' },
];

/** The shared "Unpod do-not-call" table every example reads before it calls and writes an opt-out to. */
export const DO_NOT_CALL_COLUMNS: Array<{ name: string; type: 'string' | 'number' }> = [
	{ name: 'phone', type: 'string' },
	{ name: 'reason', type: 'string' },
	{ name: 'source', type: 'string' },
	{ name: 'added_at', type: 'string' },
];

/** The campaign's figures table: a `total` row, and `change` rows not yet added up in it. */
export const FIGURES_COLUMNS: Array<{ name: string; type: 'string' | 'number' }> = [
	{ name: 'kind', type: 'string' },
	{ name: 'figures', type: 'string' },
	{ name: 'through', type: 'number' },
];

const STATUSES = [
	'reached',
	'reached',
	'gave up',
	'calling',
	'retry scheduled',
	'callback scheduled',
	'unpod follow-up',
	'new',
];

/** `count` rows in every stage of the campaign, callbacks due over the first days of December 2026. */
export function campaignRows(count: number): Array<Record<string, unknown>> {
	return Array.from({ length: count }, (_, i) => {
		const status = STATUSES[i % STATUSES.length];
		const due = status.endsWith('scheduled')
			? new Date(Date.UTC(2026, 11, 1 + (i % 9), 9 + (i % 8))).toISOString()
			: '';
		return {
			name: `Contact ${i + 1}`,
			phone: `+12125${String(i).padStart(6, '0')}`,
			status,
			task_id: status === 'new' ? '' : `T${String(i).padStart(23, '0')}`,
			attempt: status === 'new' ? 0 : 1 + (i % 3),
			next_call_at: due,
			result: status === 'reached' ? 'reached' : '',
		};
	});
}

/** The campaign page's stage of each row status: the tests' own account of what the page must count. */
export const STAGE_OF_STATUS: Record<string, string> = {
	new: 'new',
	calling: 'calling',
	deciding: 'calling',
	'waiting for hours': 'waiting_hours',
	'callback scheduled': 'callback_due',
	'retry scheduled': 'callback_due',
	'unpod follow-up': 'callback_due',
	reached: 'reached',
	'gave up': 'gave_up',
	'do not call': 'do_not_call',
	'no consent': 'no_consent',
	'not created': 'not_created',
};

/** How many rows are in each stage of the page. */
export function stageCounts(rows: Array<Record<string, unknown>>): Record<string, number> {
	const counts: Record<string, number> = {
		new: 0,
		calling: 0,
		waiting_hours: 0,
		callback_due: 0,
		reached: 0,
		gave_up: 0,
		do_not_call: 0,
		no_consent: 0,
		not_created: 0,
	};
	for (const row of rows) counts[STAGE_OF_STATUS[String(row.status)]]++;
	return counts;
}

/**
 * The figures row a campaign of `rows` would have kept had it run them (every decided row decided
 * on `day`, the slices through row id `takenThrough`), for a page or a report of seeded rows.
 */
export function figuresRow(
	rows: Array<Record<string, unknown>>,
	day: string,
	takenThrough = 0,
): Record<string, unknown> {
	const { new: _new, ...stages } = stageCounts(rows);
	const decided = {
		reached: stages.reached,
		gave_up: stages.gave_up,
		callback_due: stages.callback_due,
		do_not_call: stages.do_not_call,
	};
	return {
		kind: 'total',
		figures: JSON.stringify({ stages: { ...stages, other: 0 }, days: { [day]: decided }, taken_through: takenThrough }),
		through: 0,
	};
}

/** The figures kept: stage counts, what each day decided, and what the calls spent (calls, seconds, Unpod's cost). */
type Figures = {
	stages: Record<string, number>;
	days: Record<string, Record<string, number>>;
	spend: Record<string, number>;
};

/** What the figures table says now: its total and the changes after it, added up (the test's own sum). */
export function keptFigures(rows: Array<Record<string, any>>): Figures {
	const total = rows.find((r) => r.kind === 'total');
	const counted = [
		...(total ? [total] : []),
		...rows.filter((r) => r.kind === 'change' && r.id > (total?.through || 0)),
	];
	const sum: Figures = { stages: {}, days: {}, spend: {} };
	for (const row of counted) {
		const kept = JSON.parse(row.figures || '{}') as Partial<Figures>;
		for (const [k, n] of Object.entries(kept.stages ?? {})) sum.stages[k] = (sum.stages[k] ?? 0) + n;
		for (const [k, n] of Object.entries(kept.spend ?? {})) sum.spend[k] = (sum.spend[k] ?? 0) + n;
		for (const [day, counts] of Object.entries(kept.days ?? {}))
			for (const [k, n] of Object.entries(counts)) (sum.days[day] ??= {})[k] = (sum.days[day][k] ?? 0) + n;
	}
	return sum;
}
