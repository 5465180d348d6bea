// The morning report: yesterday against the day before, from the Data Table's rows (this node's
// input) and Unpod's analytics of the space; as an email body (tables and inline styles only: no
// SVG, no script, so mail clients show it) and as a Slack message. Unpod's figures are totals:
// the calls it made since the last report are the difference from the total this report kept.
// 1: yesterday against the day before (a morning report); 0: today so far against yesterday (an evening one).
const DAYS_AGO = 1;
const REPORTED = [
	['reached', 'Reached'],
	['callback_due', 'Callback scheduled'],
	['gave_up', 'Gave up'],
	['added', 'Contacts added'],
];

/** What changed on `day`: rows whose last change that day left them in each stage, rows added that day. */
function dayFigures(rows, day) {
	const figures = { reached: 0, callback_due: 0, gave_up: 0, added: 0 };
	const dayOf = dayFinder([day]);
	for (const row of rows) {
		const key = stageOf(row).key;
		if (dayOf(row.updatedAt) === day && key in figures) figures[key]++;
		if (dayOf(row.createdAt) === day) figures.added++;
	}
	return figures;
}

const change = (now, before) => (now === before ? '=' : now > before ? `+${now - before}` : `${now - before}`);

function emailHtml(title, days, today, before, counts, unpod) {
	const cell = 'padding:6px 10px;border-bottom:1px solid #e2e8f0;text-align:left';
	const head = ['', days.today, days.before, 'Change'].map((h) => `<th style="${cell}">${escape(h)}</th>`).join('');
	const lines = REPORTED.map(
		([key, label]) =>
			`<tr data-figure="${key}"><td style="${cell}">${label}</td><td style="${cell}"><b>${today[key]}</b></td><td style="${cell}">${before[key]}</td><td style="${cell}">${change(today[key], before[key])}</td></tr>`,
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
</body></html>`;
}

function slackMessage(title, days, today, before, counts, unpod) {
	const lines = REPORTED.map(
		([key, label]) => `${label}: *${today[key]}* (${days.before}: ${before[key]}, ${change(today[key], before[key])})`,
	);
	const now = STAGES.filter((s) => counts[s.key]).map((s) => `${s.label} ${counts[s.key]}`);
	const text = `${title}\n${lines.join('\n')}\nNow: ${now.join(', ')}\nUnpod: ${unpod.total_calls ?? '?'} calls, ${unpod.success_rate ?? '?'}% of tasks completed`;
	return {
		text,
		blocks: [
			{ type: 'header', text: { type: 'plain_text', text: title } },
			{ type: 'section', text: { type: 'mrkdwn', text: lines.join('\n') } },
			{ type: 'context', elements: [{ type: 'mrkdwn', text: `Now: ${now.join(' · ')}` }] },
		],
	};
}

const rows = rowsOf($input.all());
const analytics = $('Unpod analytics').first().json;
const reported = $now.minus({ days: DAYS_AGO });
const days = { today: reported.toISODate(), before: reported.minus({ days: 1 }).toISODate() };
const today = dayFigures(rows, days.today);
const before = dayFigures(rows, days.before);
const counts = countStages(rows);
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
const title = `Unpod campaign, ${reported.toFormat('cccc d LLLL yyyy')}`;
return [
	{
		json: {
			day: days.today,
			yesterday: today,
			day_before: before,
			now: counts,
			unpod,
			subject: `${title}: ${today.reached} reached, ${today.callback_due} callbacks scheduled`,
			html: emailHtml(title, days, today, before, counts, unpod),
			slack: slackMessage(title, days, today, before, counts, unpod),
		},
	},
];
