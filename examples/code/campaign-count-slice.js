// What the slice changed in the figures: its rows called (a task each; those outside their calling
// hours created for later), refused (on the do-not-call list, or without the consent the law asks),
// or not created; the calls placed by their consent source; and the highest id it took (the rows
// after it are the ones still new: the page reads only those).
const made = $input.all().map((item) => item.json);
const placed = made.filter((row) => row.task_id);
const waiting = placed.filter((row) => row.scheduled_at).length;
const optedOut = made.filter((row) => !row.task_id && row.unpod_refused_by === 'doNotCall').length;
const noConsent = made.filter((row) => !row.task_id && row.unpod_refused_by === 'consent').length;
const bySource = {};
for (const row of placed) bySource[consentSourceOf(row)] = (bySource[consentSourceOf(row)] ?? 0) + 1;
const takenThrough = $('Take the slice').first().json.last;
return [
	{
		json: {
			stages: {
				calling: placed.length - waiting,
				waiting_hours: waiting,
				do_not_call: optedOut,
				no_consent: noConsent,
				not_created: made.length - placed.length - optedOut - noConsent,
			},
			days: {},
			consent: { placed: bySource, refused: noConsent },
			taken_through: takenThrough,
		},
	},
];
