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
			phone: `+1555${String(i).padStart(7, '0')}`,
			status,
			task_id: status === 'new' ? '' : `T${String(i).padStart(23, '0')}`,
			attempt: status === 'new' ? 0 : 1 + (i % 3),
			next_call_at: due,
			result: status === 'reached' ? 'reached' : '',
		};
	});
}
