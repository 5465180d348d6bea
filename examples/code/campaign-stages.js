// What every campaign figure is made of (shared by the Code nodes of the campaign, its page and
// the daily report): the stage of each row status, the figures the campaign keeps as it goes (the
// "Unpod campaign figures" table: a `total` row and the `change` rows not yet added to it), and
// the masks and escapes of what is shown.
const STAGES = [
	{ key: 'new', label: 'New', color: '#94a3b8', statuses: ['new', 'taking'] },
	{ key: 'calling', label: 'Calling', color: '#3b82f6', statuses: ['calling', 'deciding'] },
	// Created for the callee's next legal time: their calling hours were closed when the slice ran.
	{ key: 'waiting_hours', label: 'Waiting for their hours', color: '#0ea5e9', statuses: ['waiting for hours'] },
	{
		key: 'callback_due',
		label: 'Callback due',
		color: '#f59e0b',
		statuses: ['callback scheduled', 'retry scheduled', 'unpod follow-up'],
	},
	{ key: 'reached', label: 'Reached', color: '#16a34a', statuses: ['reached'] },
	{ key: 'gave_up', label: 'Gave up', color: '#dc2626', statuses: ['gave up'] },
	// Asked not to be called again (on a call), or on the do-not-call list before a call.
	{ key: 'do_not_call', label: 'Do not call', color: '#0f172a', statuses: ['do not call'] },
	{ key: 'not_created', label: 'Not created', color: '#7c3aed', statuses: ['not created'] },
	{ key: 'other', label: 'Other', color: '#64748b', statuses: [] },
];
/** The stages counted per day: what an ending decided. */
const DAY_STAGES = ['reached', 'gave_up', 'callback_due', 'do_not_call'];
/** Days kept in the figures: enough for the page's two weeks and a month of reports. */
const DAYS_KEPT = 62;

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
const stageOf = (status) => STAGES.find((s) => s.statuses.includes(String(status ?? '').trim())) ?? stage('other');

/** A Data Table's rows; the one empty item of a node that Always Outputs Data is none. */
const rowsOf = (items) => items.map((item) => item.json).filter((row) => row.id !== undefined);

/**
 * The figures of some rows of the figures table (each one's `figures` column, JSON: `stages` and
 * `days` counts, and `taken_through`, the highest row id a slice took), added up: the total and
 * the changes not yet in it make the campaign now.
 */
function figuresOf(rows) {
	const figures = {
		stages: Object.fromEntries(STAGES.filter((s) => s.key !== 'new').map((s) => [s.key, 0])),
		days: {},
		taken_through: 0,
	};
	for (const row of rows) {
		let kept = {};
		try {
			kept = JSON.parse(String(row?.figures || '{}'));
		} catch {
			kept = {};
		}
		const day = (date) => (figures.days[date] ??= Object.fromEntries(DAY_STAGES.map((k) => [k, 0])));
		for (const [key, n] of Object.entries(kept.stages ?? {})) figures.stages[key] = (figures.stages[key] ?? 0) + n;
		for (const [date, counts] of Object.entries(kept.days ?? {}))
			for (const [key, n] of Object.entries(counts)) day(date)[key] = (day(date)[key] ?? 0) + n;
		figures.taken_through = Math.max(figures.taken_through, Number(kept.taken_through) || 0);
	}
	return figures;
}

/** The figures without the days older than DAYS_KEPT. */
function recentDays(figures) {
	const days = Object.keys(figures.days).sort().reverse().slice(0, DAYS_KEPT);
	return { ...figures, days: Object.fromEntries(days.sort().map((d) => [d, figures.days[d]])) };
}

/** The total row (the first of kind `total`) and the changes after it, as the reads gave them. */
const campaignFigures = (totalItems, changeItems) =>
	figuresOf([...rowsOf(totalItems).slice(0, 1), ...rowsOf(changeItems)]);

/**
 * The rows still `new`: rows are called in the order of their id, so every row from the next one
 * to call (read among the rows after the last a slice took) to the table's last is new (rows
 * deleted in between make it an overcount). `lasts` are the table's last two rows, highest id
 * first; n8n 1.x's Data Table node ignores Order By and gives the lowest first: then the last row
 * is not known, and neither is the count (null).
 */
function newCount(next, lasts) {
	const [last, before] = lasts;
	if (last === undefined) return 0;
	if (before !== undefined && before.id > last.id) return null;
	return next?.id === undefined ? 0 : last.id - next.id + 1;
}

/** Every stage now: the figures kept, and the rows still new. */
const stageCounts = (figures, fresh) => ({ new: fresh, ...figures.stages });
