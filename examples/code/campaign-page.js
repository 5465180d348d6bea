// The campaign page: the campaign's figures (kept as it goes: "Figures now"), the rows still new
// (the next row to call and the table's last two), the next callbacks (the soonest timed ones, and
// Unpod's own when fewer than ten), what the calls spent (at Your costs' cost per minute) and
// Unpod's analytics of the space, as one self-contained HTML page (inline SVG, no script, nothing
// from another host): a few rows read, whatever the table's size. Phones are masked; it reloads itself (?refresh=<seconds>, 60).
const ANALYTICS = [
	['total_calls', 'Calls'],
	['interested', 'Interested'],
	['call_back', 'Asked for a callback'],
	['not_interested', 'Not interested'],
	['not_connected', 'Not connected'],
	['failed_calls', 'Failed'],
	['tasks_pending', 'Waiting to be called'],
	['tasks_in_progress', 'On a call now'],
	['success_rate', 'Tasks completed (%)'],
];
const DAYS = 14;

/** Per day (the last DAYS days), the endings decided: reached, given up, a callback scheduled, or do not call. */
function outcomesPerDay(figures) {
	const days = Array.from({ length: DAYS }, (_, i) => $now.minus({ days: DAYS - 1 - i }).toISODate());
	return days.map((day) => ({ day, ...Object.fromEntries(DAY_STAGES.map((k) => [k, figures.days[day]?.[k] ?? 0])) }));
}

/** When a callback is due, in the workflow's time zone ("Tue 1 Dec 15:30"); Unpod's own follow-ups carry no time here. */
function dueAt(value) {
	if (!value) return 'set by Unpod';
	const at = DateTime.fromISO(String(value));
	return at.isValid ? at.setZone($now.zone).toFormat('ccc d LLL HH:mm') : String(value);
}

/**
 * The soonest callbacks, then Unpod's own, whose time Unpod keeps. n8n 2.x reads the timed ones
 * soonest first; they are sorted here again, for n8n 1.x, whose Data Table node ignores Order By.
 */
function nextCallbacks(timed, unpods, count = 10) {
	const soonest = timed
		.filter((row) => stageOf(row.status).key === 'callback_due')
		.sort((a, b) => String(a.next_call_at).localeCompare(String(b.next_call_at)));
	return [...soonest, ...unpods].slice(0, count);
}

function progressBar(counts, total) {
	let x = 0;
	const parts = STAGES.filter((s) => counts[s.key]).map((s) => {
		const width = (counts[s.key] / total) * 1000;
		const rect = `<rect x="${x.toFixed(1)}" width="${width.toFixed(1)}" height="28" fill="${s.color}"><title>${s.label}: ${counts[s.key]}</title></rect>`;
		x += width;
		return rect;
	});
	return `<svg viewBox="0 0 1000 28" preserveAspectRatio="none" role="img" aria-label="Progress">${parts.join('')}</svg>`;
}

function dayChart(days) {
	const series = DAY_STAGES.map(stage);
	const most = Math.max(1, ...days.map((d) => series.reduce((sum, s) => sum + d[s.key], 0)));
	const bar = 600 / days.length;
	const bars = days.map((d, i) => {
		let y = 180;
		const rects = series.map((s) => {
			const height = (d[s.key] / most) * 160;
			y -= height;
			return d[s.key]
				? `<rect x="${(i * bar + 4).toFixed(1)}" y="${y.toFixed(1)}" width="${(bar - 8).toFixed(1)}" height="${height.toFixed(1)}" fill="${s.color}" data-day="${d.day}" data-stage="${s.key}" data-count="${d[s.key]}"><title>${d.day} ${s.label}: ${d[s.key]}</title></rect>`
				: '';
		});
		const label = `<text x="${(i * bar + bar / 2).toFixed(1)}" y="196" text-anchor="middle">${d.day.slice(8)}</text>`;
		return rects.join('') + label;
	});
	return `<svg viewBox="0 0 600 200" role="img" aria-label="Outcomes per day">${bars.join('')}</svg>`;
}

function page(figures, fresh, callbacks, analytics, refresh, spend) {
	const counts = stageCounts(figures, fresh);
	const contacts = Object.values(counts).reduce((sum, n) => sum + (n ?? 0), 0);
	const total = contacts || 1;
	const done = counts.reached + counts.gave_up + counts.do_not_call + counts.no_consent + counts.not_created;
	const tile = (key, label, value, attr = 'figure') =>
		`<div class="tile" data-${attr}="${key}"><b>${escape(value)}</b><span>${escape(label)}</span></div>`;
	const tiles = STAGES.filter((s) => s.key !== 'other' || counts.other)
		.map((s) => tile(s.key, s.label, counts[s.key] ?? '?'))
		.join('');
	const legend = DAY_STAGES.map(stage)
		.map((s) => `<span><i style="background:${s.color}"></i>${s.label}</span>`)
		.join('');
	const due = callbacks
		.map(
			(r) =>
				`<tr data-row="${escape(r.id)}"><td>${escape(r.name)}</td><td class="phone">${escape(maskPhone(r.phone))}</td><td>${escape(dueAt(r.next_call_at))}</td><td>${escape(r.status)}</td><td>${escape(r.attempt)}</td></tr>`,
		)
		.join('');
	const unpodTiles = ANALYTICS.filter(([key]) => analytics[key] !== null && analytics[key] !== undefined)
		.map(([key, label]) => tile(key, label, analytics[key], 'analytics'))
		.join('');
	const updated = $now.toFormat('yyyy-LL-dd HH:mm ZZZZ');
	return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="${refresh}">
<title>Unpod campaign: ${done} of ${contacts} done</title>
<style>
body{font:15px/1.4 system-ui,sans-serif;margin:0;padding:16px;background:#f8fafc;color:#0f172a}
main{max-width:960px;margin:auto}h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:24px 0 8px}
.muted{color:#64748b;font-size:13px}.tiles{margin-top:8px;display:grid;grid-template-columns:repeat(auto-fill,minmax(130px,1fr));gap:8px}
.tile{background:#fff;border:1px solid #e2e8f0;border-radius:8px;padding:10px}.tile b{display:block;font-size:24px}
.tile span{color:#475569;font-size:13px}svg{width:100%;height:auto;display:block;background:#fff;border-radius:6px}
svg text{font-size:11px;fill:#64748b}.legend span{margin-right:12px;font-size:13px}.legend i{display:inline-block;width:10px;height:10px;margin-right:4px;border-radius:2px}
table{width:100%;border-collapse:collapse;background:#fff;font-size:14px}td,th{padding:6px 8px;border-bottom:1px solid #e2e8f0;text-align:left}
@media(max-width:600px){body{padding:8px}td:nth-child(n+4),th:nth-child(n+4){display:none}}
</style></head><body><main>
<h1>Unpod campaign</h1>
<p class="muted">${contacts} contacts, <span data-figure="done">${done}</span> done. Updated ${escape(updated)}; this page reloads every ${refresh} s.</p>
${progressBar(counts, total)}
<div class="tiles">${tiles}</div>
<h2>Outcomes per day</h2>
<p class="legend">${legend} <span class="muted">what each call's ending decided, by day</span></p>
${dayChart(outcomesPerDay(figures))}
<h2>Next callbacks due</h2>
${due ? `<table><thead><tr><th>Name</th><th>Phone</th><th>Due</th><th>Status</th><th>Call</th></tr></thead><tbody>${due}</tbody></table>` : '<p class="muted">None scheduled.</p>'}
<h2>Consent and the opening</h2>
<p class="muted">Calls placed, by where their consent came from; contacts not called for want of it; calls whose agent did not say in its first words that it is an AI.</p>
${consentTable(figures)}
<h2>Spend</h2>
<p class="muted">Calls ended and their minutes; the spend at your cost per minute.${spend.campaign.spend === null ? ` ${escape(SPEND_UNKNOWN)}` : ''}</p>
${spendTable(spend)}
<h2>Unpod's figures for the space</h2>
<div class="tiles">${unpodTiles || '<p class="muted">Unpod sent no figures.</p>'}</div>
</main></body></html>`;
}

const request = $('Campaign page').first().json;
const refresh = Math.max(5, Math.round(Number(request.query?.refresh)) || 60);
const figures = $('Figures now').first().json;
const fresh = newCount(rowsOf($('Next to call').all())[0], rowsOf($('Last row').all()));
// Unpod's own follow-ups are read only when fewer than ten timed callbacks are due: then they are this node's input.
const unpods = rowsOf($input.all()).filter((row) => row.status === 'unpod follow-up');
const callbacks = nextCallbacks(rowsOf($('Next callbacks').all()), unpods);
const analytics = $('Unpod analytics').first().json;
const spend = spendFigures(figures, $('Your costs').first().json.cost_per_minute, $now);
return [{ json: { html: page(figures, fresh, callbacks, analytics, refresh, spend), spend } }];
