// What the slice changed in the figures: its rows called (a task each; those outside their calling
// hours created for later), refused as on the do-not-call list, or not created, and the highest id
// it took (the rows after it are the ones still new: the page reads only those).
const made = $input.all().map((item) => item.json);
const called = made.filter((row) => row.task_id).length;
const waiting = made.filter((row) => row.task_id && row.scheduled_at).length;
const refused = made.filter((row) => !row.task_id && row.unpod_refused).length;
const takenThrough = $('Take the slice').first().json.last;
return [
	{
		json: {
			stages: {
				calling: called - waiting,
				waiting_hours: waiting,
				do_not_call: refused,
				not_created: made.length - called - refused,
			},
			days: {},
			taken_through: takenThrough,
		},
	},
];
