// The morning report: yesterday against the day before, from the campaign's figures (kept as it
// goes), the rows added each day (told by the first row created on or after each day's start: rows
// get ids in the order they are added), Unpod's analytics of the space, and what the calls spent
// (the last 24 hours, 7 days and the campaign, at Report on's cost per minute); as an email body
// (tables and inline styles only: no SVG, no script, so mail clients show it) and as a Slack
// message. Unpod's figures are totals: the calls it made since the last report are the difference
// from the total this report kept. It reads a handful of rows, whatever the table's size.
const REPORTED = [
	['reached', 'Reached'],
	['callback_due', 'Callback scheduled'],
	['gave_up', 'Gave up'],
	['do_not_call', 'Asked not to be called'],
	['added', 'Contacts added'],
];

/**
 * What `day` decided (the figures' day), and the rows added that day: from the first row created
 * that day to the first row created after it, or past the table's last row (null where that is
 * not known: n8n 1.x).
 */
function dayFigures(figures, day, firstId, nextFirstId) {
	const decided = figures.days[day] ?? {};
	const added = firstId === undefined ? 0 : nextFirstId === undefined ? null : nextFirstId - firstId;
	return {
		reached: decided.reached ?? 0,
		callback_due: decided.callback_due ?? 0,
		gave_up: decided.gave_up ?? 0,
		do_not_call: decided.do_not_call ?? 0,
		added,
	};
}

const change = (now, before) =>
	now === null || before === null ? '' : now === before ? '=' : now > before ? `+${now - before}` : `${now - before}`;
const shown = (value) => value ?? '?';

function emailHtml(title, days, today, before, counts, unpod, spend, figures) {
	const cell = 'padding:6px 10px;border-bottom:1px solid #e2e8f0;text-align:left';
	const head = ['', days.today, days.before, 'Change'].map((h) => `<th style="${cell}">${escape(h)}</th>`).join('');
	const lines = REPORTED.map(
		([key, label]) =>
			`<tr data-figure="${key}"><td style="${cell}">${label}</td><td style="${cell}"><b>${shown(today[key])}</b></td><td style="${cell}">${shown(before[key])}</td><td style="${cell}">${change(today[key], before[key])}</td></tr>`,
	).join('');
	const now = STAGES.filter((s) => counts[s.key])
		.map(
			(s) =>
				`<td style="${cell}"><span style="color:${s.color}">&#9632;</span> ${s.label}: <b>${counts[s.key]}</b></td>`,
		)
		.join('');
	const calls =
		unpod.calls_since_last_report === null ? '' : `; ${unpod.calls_since_last_report} calls since the last report`;
	return `<!doctype html><html><body style="font-family:Arial,Helvetica,sans-serif;color:#0f172a">
<h2 style="margin:0 0 8px">${escape(title)}</h2>
<table cellspacing="0" cellpadding="0" style="border-collapse:collapse;font-size:14px">
<thead><tr>${head}</tr></thead><tbody>${lines}</tbody></table>
<p style="margin:16px 0 4px"><b>The campaign now</b></p>
<table cellspacing="0" cellpadding="0" style="border-collapse:collapse;font-size:14px"><tr>${now}</tr></table>
<p style="font-size:14px">Unpod: ${escape(unpod.total_calls ?? '?')} calls in all, ${escape(unpod.success_rate ?? '?')}% of tasks completed${calls}.</p>
<p style="margin:16px 0 4px"><b>Consent and the opening</b> (the campaign)</p>
${consentTable(figures, cell)}
<p style="margin:16px 0 4px"><b>Spend</b></p>
${spendTable(spend, cell)}${spend.campaign.spend === null ? `<p style="font-size:13px;color:#64748b">${escape(SPEND_UNKNOWN)}</p>` : ''}
</body></html>`;
}

function slackMessage(title, days, today, before, counts, unpod, spend, figures) {
	const lines = REPORTED.map(
		([key, label]) =>
			`${label}: *${shown(today[key])}* (${days.before}: ${shown(before[key])}, ${change(today[key], before[key])})`,
	);
	const now = STAGES.filter((s) => counts[s.key]).map((s) => `${s.label} ${counts[s.key]}`);
	const day = spend.last_24_hours;
	const spent = `Last 24 hours: ${day.calls} calls, ${minutesText(day.minutes)} minutes, spend ${money(day.spend)}, per reached contact ${money(day.per_reached)}; campaign: ${spend.campaign.calls} calls, spend ${money(spend.campaign.spend)}`;
	const { placed, refused } = figures.consent;
	const { said, not_said } = figures.disclosure;
	const consent = `Consent: ${
		Object.entries(placed)
			.map(([source, n]) => `${n} placed by ${source}`)
			.join(', ') || 'no calls placed'
	}; ${refused} not called for want of it; ${not_said} of ${said + not_said} openings did not say an AI speaks`;
	const text = `${title}\n${lines.join('\n')}\nNow: ${now.join(', ')}\nUnpod: ${unpod.total_calls ?? '?'} calls, ${unpod.success_rate ?? '?'}% of tasks completed\n${spent}\n${consent}`;
	return {
		text,
		blocks: [
			{ type: 'header', text: { type: 'plain_text', text: title } },
			{ type: 'section', text: { type: 'mrkdwn', text: lines.join('\n') } },
			{ type: 'context', elements: [{ type: 'mrkdwn', text: `Now: ${now.join(' · ')}` }] },
			{ type: 'context', elements: [{ type: 'mrkdwn', text: spent }] },
			{ type: 'context', elements: [{ type: 'mrkdwn', text: consent }] },
		],
	};
}

const daysAgo = Number($('Report on').first().json.days_ago) || 0;
const figures = $('Figures now').first().json;
const lasts = rowsOf($('Last row').all());
const fresh = newCount(rowsOf($('Next to call').all())[0], lasts);
const firstId = (node) => rowsOf($(node).all())[0]?.id;
// The table's last row is known where n8n sorted the rows (not 1.x); an empty table has none.
const pastLast = lasts.length && (lasts.length < 2 || lasts[0].id > lasts[1].id) ? lasts[0].id + 1 : undefined;
const analytics = $('Unpod analytics').first().json;
const reported = $now.minus({ days: daysAgo });
const days = { today: reported.toISODate(), before: reported.minus({ days: 1 }).toISODate() };
const today = dayFigures(
	figures,
	days.today,
	firstId('Added from that day'),
	firstId('Added after that day') ?? pastLast,
);
const before = dayFigures(
	figures,
	days.before,
	firstId('Added from the day before'),
	firstId('Added from that day') ?? pastLast,
);
const counts = stageCounts(figures, fresh);
// The total at the last report, kept in the workflow (saved by active workflows' executions only).
const kept = $getWorkflowStaticData('global');
const total = typeof analytics.total_calls === 'number' ? analytics.total_calls : null;
const unpod = {
	total_calls: total,
	success_rate: analytics.success_rate ?? null,
	calls_since_last_report:
		total !== null && typeof kept.unpodTotalCalls === 'number' ? total - kept.unpodTotalCalls : null,
};
if (total !== null) kept.unpodTotalCalls = total;
const spend = spendFigures(figures, $('Report on').first().json.cost_per_minute, $now);
const title = `Unpod campaign, ${reported.toFormat('cccc d LLLL yyyy')}`;
return [
	{
		json: {
			day: days.today,
			yesterday: today,
			day_before: before,
			now: counts,
			unpod,
			spend,
			subject: `${title}: ${today.reached} reached, ${today.callback_due} callbacks scheduled`,
			html: emailHtml(title, days, today, before, counts, unpod, spend, figures),
			slack: slackMessage(title, days, today, before, counts, unpod, spend, figures),
		},
	},
];
