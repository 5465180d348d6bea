// What this slice added, for the first execution to go on from.
const slice = $('One slice').first().json;
const rows = $('As contacts').all().length;
return [{ json: { from_line: slice.from_line, rows, asked: slice.rows, columns: slice.columns } }];
