// What the slice changed in the figures: its rows called (a task each) or not created, and the
// highest id it took (the rows after it are the ones still new: the page reads only those).
const made = $input.all().map((item) => item.json);
const called = made.filter((row) => row.task_id).length;
const takenThrough = $('Take the slice').first().json.last;
return [
	{
		json: { stages: { calling: called, not_created: made.length - called }, days: {}, taken_through: takenThrough },
	},
];
