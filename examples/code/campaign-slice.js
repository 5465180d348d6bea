// The slice this run calls: from the lowest id of the rows read (the next `new` rows) over as many
// ids as rows were read, so it never holds more rows than that, even where n8n returned the rows
// out of id order (n8n 1.x's Data Table node ignores Order By). The next node takes them with one
// update (`new` -> `taking`, by id range): of two runs that read the same rows at once (a long run
// overlapping the next, two workers), only one gets each row.
const ids = $input
	.all()
	.map((item) => item.json.id)
	.filter((id) => typeof id === 'number');
if (!ids.length) return [];
const first = Math.min(...ids);
return [{ json: { first, last: Math.min(Math.max(...ids), first + ids.length - 1), rows: ids.length } }];
