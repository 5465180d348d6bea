// The slice's lines (arrays, as read without a header) as rows named by the header's columns.
const { columns } = $('One slice').first().json;
return $input
	.all()
	.filter((item) => Array.isArray(item.json.row))
	.map((item) => ({ json: Object.fromEntries(columns.map((name, i) => [name, item.json.row[i] ?? ''])) }));
