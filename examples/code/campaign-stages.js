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
	// Without the consent the law of the place asks, or their consent revoked: not called.
	{ key: 'no_consent', label: 'No consent', color: '#be185d', statuses: ['no consent'] },
	{ key: 'not_created', label: 'Not created', color: '#7c3aed', statuses: ['not created'] },
	{ key: 'other', label: 'Other', color: '#64748b', statuses: [] },
];
/** The stages counted per day: what an ending decided. */
const DAY_STAGES = ['reached', 'gave_up', 'callback_due', 'do_not_call'];
/** Days kept in the figures: enough for the page's two weeks and a month of reports. */
const DAYS_KEPT = 62;
/**
 * What the calls that ended spent, kept per hour (UTC, `2026-12-01T15`) for the last 24 hours
 * and 7 days, and for the whole campaign: the calls, their seconds, the seconds of calls Unpod put
 * no cost on (priced at your cost per minute), Unpod's own cost where it gave one, and what the
 * endings decided.
 */
const SPEND = ['calls', 'seconds', 'unpriced_seconds', 'unpod_cost'];
const HOURS_KEPT = 7 * 24;

const escape = (value) =>
	String(value ?? '').replace(
		/[&<>"']/g,
		(c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c],
	);

/** +12125550112 -> +1••••••••12: enough to tell rows apart, not to dial. */
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
		hours: {},
		spend: Object.fromEntries(SPEND.map((k) => [k, 0])),
		// Calls placed by their consent source ("not checked" where Consent was off), and refused for want of it;
		// endings whose opening said it is an AI, and did not.
		consent: { placed: {}, refused: 0 },
		disclosure: { said: 0, not_said: 0 },
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
		const hour = (at) => (figures.hours[at] ??= {});
		const add = (into, counts) => {
			for (const [key, n] of Object.entries(counts ?? {})) into[key] = (into[key] ?? 0) + (Number(n) || 0);
		};
		add(figures.stages, kept.stages);
		add(figures.spend, kept.spend);
		add(figures.consent.placed, kept.consent?.placed);
		figures.consent.refused += Number(kept.consent?.refused) || 0;
		add(figures.disclosure, kept.disclosure);
		for (const [date, counts] of Object.entries(kept.days ?? {})) add(day(date), counts);
		for (const [at, counts] of Object.entries(kept.hours ?? {})) add(hour(at), counts);
		figures.taken_through = Math.max(figures.taken_through, Number(kept.taken_through) || 0);
	}
	return figures;
}

/** The figures without the days older than DAYS_KEPT and the hours older than HOURS_KEPT. */
function recentDays(figures) {
	const newest = (of, count) =>
		Object.fromEntries(
			Object.keys(of)
				.sort()
				.slice(-count)
				.map((key) => [key, of[key]]),
		);
	return { ...figures, days: newest(figures.days, DAYS_KEPT), hours: newest(figures.hours ?? {}, HOURS_KEPT) };
}

/**
 * What the calls of some hours spent (all the campaign's when `hours` is not given), at `perMinute`
 * for the seconds Unpod put no cost on: calls, minutes, spend (null when neither a cost per
 * minute nor Unpod's cost gives one), and the spend per reached contact and per outcome decided.
 */
function spendOf(figures, perMinute, since) {
	const total = Object.fromEntries([...SPEND, ...DAY_STAGES].map((k) => [k, 0]));
	if (since === undefined) {
		for (const k of SPEND) total[k] = figures.spend?.[k] ?? 0;
		for (const k of DAY_STAGES) total[k] = figures.stages[k] ?? 0;
	} else
		for (const [at, counts] of Object.entries(figures.hours ?? {}))
			if (at >= since) for (const k of Object.keys(total)) total[k] += Number(counts[k]) || 0;
	const rate = Number(perMinute) > 0 ? Number(perMinute) : 0;
	const priced = rate > 0 || (total.unpod_cost > 0 && total.unpriced_seconds === 0);
	const spend = priced ? total.unpod_cost + (total.unpriced_seconds / 60) * rate : null;
	const per = (n) => (spend === null || !n ? null : spend / n);
	return {
		calls: total.calls,
		minutes: total.seconds / 60,
		spend,
		per_reached: per(total.reached),
		per_outcome: Object.fromEntries(DAY_STAGES.map((k) => [k, { count: total[k], cost: per(total[k]) }])),
	};
}

/** The hour key (UTC) `hours` ago from `now`: the spend of the last 24 hours reads from it. */
const hourKey = (now, hours = 0) => now.toUTC().minus({ hours }).toFormat("yyyy-LL-dd'T'HH");

/** The spend of the last 24 hours, 7 days and the campaign, at `perMinute`. */
const spendFigures = (figures, perMinute, now) => ({
	last_24_hours: spendOf(figures, perMinute, hourKey(now, 23)),
	last_7_days: spendOf(figures, perMinute, hourKey(now, 7 * 24 - 1)),
	campaign: spendOf(figures, perMinute),
});

const money = (value) => (value === null || value === undefined ? '?' : value.toFixed(2));
const minutesText = (minutes) => (Math.round(minutes * 10) / 10).toFixed(1);

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

/** The spend as a table (inline styles: the report's mail clients show them too), one column per period. */
function spendTable(spend, cell = 'padding:6px 8px;border-bottom:1px solid #e2e8f0;text-align:left') {
	const periods = [
		['last_24_hours', 'Last 24 hours'],
		['last_7_days', 'Last 7 days'],
		['campaign', 'Campaign'],
	];
	const labels = {
		reached: 'Reached',
		callback_due: 'Callback scheduled',
		gave_up: 'Gave up',
		do_not_call: 'Asked not to be called',
	};
	const line = (key, label, value) =>
		`<tr data-spend="${key}"><td style="${cell}">${label}</td>${periods
			.map(([when]) => `<td style="${cell}" data-when="${when}">${escape(value(spend[when]))}</td>`)
			.join('')}</tr>`;
	const rows = [
		line('calls', 'Calls', (s) => s.calls),
		line('minutes', 'Minutes', (s) => minutesText(s.minutes)),
		line('spend', 'Spend', (s) => money(s.spend)),
		line('per_reached', 'Per reached contact', (s) => money(s.per_reached)),
		...DAY_STAGES.map((k) =>
			line(
				`outcome_${k}`,
				`${labels[k]}: count, cost each`,
				(s) => `${s.per_outcome[k].count}, ${money(s.per_outcome[k].cost)}`,
			),
		),
	];
	const head = ['', ...periods.map(([, label]) => label)].map((h) => `<th style="${cell}">${h}</th>`).join('');
	return `<table cellspacing="0" cellpadding="0" style="border-collapse:collapse;font-size:14px"><thead><tr>${head}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** Where a call's consent came from, as the figures count it: its source, or why there is none. */
function consentSourceOf(row) {
	if (String(row.unpod_consent ?? '').startsWith('off')) return 'not checked (Consent: Off)';
	const source = String(row.consent_source ?? '').trim();
	return source || (row.consent_at ? 'no source given' : 'none asked');
}

/**
 * Consent and the opening, for the page and the report: the calls placed by consent source, those
 * refused for want of consent, and the endings whose opening did not say an AI speaks.
 */
function consentTable(figures, cell = 'padding:6px 8px;border-bottom:1px solid #e2e8f0;text-align:left') {
	const { placed, refused } = figures.consent;
	const { said, not_said } = figures.disclosure;
	const line = (key, label, value) =>
		`<tr data-consent="${escape(key)}"><td style="${cell}">${escape(label)}</td><td style="${cell}"><b>${escape(value)}</b></td></tr>`;
	const sources = Object.entries(placed)
		.sort(([, a], [, b]) => b - a)
		.map(([source, count]) => line(`placed:${source}`, `Calls placed, consent by ${source}`, count));
	const rows = [
		...(sources.length ? sources : [line('placed', 'Calls placed', 0)]),
		line('refused', 'Not called: no consent where the law asks it, or consent revoked', refused),
		line('not_said', 'Calls whose opening did not say an AI speaks', `${not_said} of ${said + not_said}`),
	];
	return `<table cellspacing="0" cellpadding="0" style="border-collapse:collapse;font-size:14px"><tbody>${rows.join('')}</tbody></table>`;
}

/** Why the spend reads "?": no cost per minute, and no cost from Unpod. */
const SPEND_UNKNOWN =
	"Enter your cost per minute (Unpod's price for your plan) in the Your costs node to see the spend: Unpod's own cost fields read 0.";
