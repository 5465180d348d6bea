// What these endings changed in the figures: each updated row (this node's input) leaves the
// stage its row was in before it was claimed (read by "The row before") for the one it is in now,
// and counts today as what was decided.
const before = new Map(rowsOf($('The row before').all()).map((row) => [row.id, row.status]));
const stages = {};
const decided = {};
const add = (into, key, delta) => (into[key] = (into[key] ?? 0) + delta);
for (const row of rowsOf($input.all())) {
	const from = stageOf(before.get(row.id)).key;
	const to = stageOf(row.status).key;
	// A status written by hand that no stage knows was never counted: nothing to take it from.
	if (from !== 'other') add(stages, from, -1);
	add(stages, to, 1);
	if (DAY_STAGES.includes(to)) add(decided, to, 1);
}
return [{ json: { stages, days: Object.keys(decided).length ? { [$now.toISODate()]: decided } : {} } }];
