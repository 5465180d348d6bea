// Adds the changes not yet in the total (this node's input, read after the total) to the total,
// to be written only if no other execution added some since ("Write the figures total" updates
// where `through` is still the one read). When another did, this one stops: its change is already
// counted, by the page as a change row until the next execution adds it to the total.
const total = rowsOf($('Figures total').all())[0];
const changes = rowsOf($input.all());
if (!total || !changes.length) return [];
return [
	{
		json: {
			total_id: total.id,
			through_before: Number(total.through) || 0,
			through: Math.max(...changes.map((row) => row.id)),
			figures: JSON.stringify(recentDays(figuresOf([total, ...changes]))),
		},
	},
];
