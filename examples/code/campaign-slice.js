// The slice this run calls: the ids of the rows read (the next `new` rows, in id order). The next
// node takes them with one update (`new` -> `taking`, by id range): of two runs that read the same
// rows at once (a long run overlapping the next, two workers), only one gets each row.
const ids = $input
	.all()
	.map((item) => item.json.id)
	.filter((id) => typeof id === 'number');
if (!ids.length) return [];
return [{ json: { first: Math.min(...ids), last: Math.max(...ids), rows: ids.length } }];
