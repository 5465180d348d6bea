// What these endings changed in the figures: each updated row (this node's input) leaves the
// stage its row was in before it was claimed (read by "The row before") for the one it is in now,
// and counts today as what was decided.
const before = new Map(rowsOf($('The row before').all()).map((row) => [row.id, row.status]));
const stages = {};
const decided = {};
const add = (into, key, delta) => (into[key] = (into[key] ?? 0) + delta);
// A next call placed counts by the row's consent source (where Follow Up checked none, as such); a
// row now refused for consent, as refused.
const unchecked = new Set(
	$('Schedule follow-up')
		.all()
		.filter((item) => String(item.json.unpod_consent ?? '').startsWith('off'))
		.map((item) => item.json.follow_up_task_id),
);
const placed = {};
let refused = 0;
for (const row of rowsOf($input.all())) {
	const from = stageOf(before.get(row.id)).key;
	const to = stageOf(row.status).key;
	// A status written by hand that no stage knows was never counted: nothing to take it from.
	if (from !== 'other') add(stages, from, -1);
	add(stages, to, 1);
	if (DAY_STAGES.includes(to)) add(decided, to, 1);
	if (to === 'callback_due' && row.status !== 'unpod follow-up')
		add(placed, consentSourceOf(unchecked.has(row.task_id) ? { unpod_consent: 'off' } : row), 1);
	if (to === 'no_consent') refused += 1;
}
// Whether each call's opening said an AI speaks (null: nobody spoke, not counted).
const disclosure = { said: 0, not_said: 0 };
// Each claimed ending is a call that ended (once: only the execution that claimed its row counts
// it): its seconds, and Unpod's cost where Unpod gave one (its live cost fields read 0).
const spend = Object.fromEntries(SPEND.map((k) => [k, 0]));
for (const call of $('Calls claimed')
	.all()
	.map((item) => item.json)) {
	const seconds = Math.max(0, Number(call.duration) || 0);
	const cost = Number(call.cost) || 0;
	if (call.ai_disclosed === true) disclosure.said += 1;
	if (call.ai_disclosed === false) disclosure.not_said += 1;
	spend.calls += 1;
	spend.seconds += seconds;
	if (cost > 0) spend.unpod_cost += cost;
	else spend.unpriced_seconds += seconds;
}
return [
	{
		json: {
			stages,
			days: Object.keys(decided).length ? { [$now.toISODate()]: decided } : {},
			hours: { [hourKey($now)]: { ...spend, ...decided } },
			spend,
			consent: { placed, refused },
			disclosure,
		},
	},
];
