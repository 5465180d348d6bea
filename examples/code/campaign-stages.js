// What every campaign figure is made of (shared by the campaign page and the daily report):
// the stage of each Data Table row by its status, and the masks and escapes of what is shown.
const STAGES = [
	{ key: 'new', label: 'New', color: '#94a3b8', statuses: ['new'] },
	{ key: 'calling', label: 'Calling', color: '#3b82f6', statuses: ['calling', 'deciding'] },
	{
		key: 'callback_due',
		label: 'Callback due',
		color: '#f59e0b',
		statuses: ['callback scheduled', 'retry scheduled', 'unpod follow-up'],
	},
	{ key: 'reached', label: 'Reached', color: '#16a34a', statuses: ['reached'] },
	{ key: 'gave_up', label: 'Gave up', color: '#dc2626', statuses: ['gave up'] },
	{ key: 'not_created', label: 'Not created', color: '#7c3aed', statuses: ['not created'] },
	{ key: 'other', label: 'Other', color: '#64748b', statuses: [] },
];

const escape = (value) =>
	String(value ?? '').replace(
		/[&<>"']/g,
		(c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c],
	);

/** +15550300012 -> +1••••••••12: enough to tell rows apart, not to dial. */
function maskPhone(phone) {
	const digits = String(phone ?? '').replace(/\D/g, '');
	if (digits.length < 5) return '•••';
	return (
		(String(phone).trim().startsWith('+') ? '+' : '') + digits[0] + '•'.repeat(digits.length - 3) + digits.slice(-2)
	);
}

const stage = (key) => STAGES.find((s) => s.key === key);
const stageOf = (row) => STAGES.find((s) => s.statuses.includes(String(row.status ?? '').trim())) ?? stage('other');

/** The Data Table's rows; an empty table's one empty item (the node's Always Output Data) is none. */
const rowsOf = (items) => items.map((item) => item.json).filter((row) => row.id !== undefined);

/**
 * Which of `days` (ISO dates in the workflow's time zone) a time falls on, or undefined: the days'
 * bounds are worked out once, so that ten thousand rows need no date library each.
 */
function dayFinder(days) {
	const spans = days.map((day) => {
		const start = DateTime.fromISO(day, { zone: $now.zone });
		return { day, start: start.toMillis(), end: start.plus({ days: 1 }).toMillis() };
	});
	return (value) => {
		const ms = value instanceof Date ? value.getTime() : Date.parse(String(value ?? ''));
		return Number.isNaN(ms) ? undefined : spans.find((s) => ms >= s.start && ms < s.end)?.day;
	};
}

function countStages(rows) {
	const counts = Object.fromEntries(STAGES.map((s) => [s.key, 0]));
	for (const row of rows) counts[stageOf(row).key]++;
	return counts;
}
