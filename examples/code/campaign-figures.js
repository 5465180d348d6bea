// Adds one change to the campaign's figures without losing another's: it writes the figures only
// if their `version` is still the one it read ("Write the figures" updates where it is); when
// another execution wrote first, the loop reads them again and adds the change to theirs.
const TRIES = 50;
if ($runIndex >= TRIES)
	throw new Error(`The campaign's figures changed under this execution ${TRIES} times in a row: run it again`);
const row = $input.first().json;
const version = Number(row.version) || 0;
const figures = addToFigures(figuresOf(row), $('Figures change').first().json);
return [
	{
		json: {
			row_id: row.id ?? null,
			version_before: version,
			version: version + 1,
			figures: JSON.stringify(figures),
		},
	},
];
