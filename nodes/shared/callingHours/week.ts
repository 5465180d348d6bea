/**
 * A week of calling hours: for each weekday (0 Sunday to 6 Saturday) the spans of the wall clock
 * a call may start in, in minutes after midnight. Read from the rules' text (`Mon-Fri`:
 * `10:00-13:00, 14:00-20:00`), narrowed rule by rule, and written back as people read it. Pure.
 */

/** `[start, end)`: minutes after midnight; a call starts from `start` and before `end`. */
export type Span = readonly [number, number];
export type Week = ReadonlyArray<readonly Span[]>;

export const DAY_NAMES = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** `HH:MM` as minutes after midnight. */
export const minutesOf = (hhmm: string) => {
	const [h, m] = hhmm.split(':').map(Number);
	return h * 60 + m;
};

/** Minutes after midnight as `HH:MM`. */
export const hhmmOf = (minutes: number) =>
	`${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** The days a key names: `Mon-Fri`, `Sat`, `Sat-Sun`, `Mon-Sun`. */
function daysOf(key: string): number[] {
	const [from, to = from] = key.split('-').map((d) => DAY_NAMES.indexOf(d.trim()));
	if (from < 0 || to < 0) throw new Error(`"${key}" names no weekday`);
	const days = [from];
	for (let d = from; d !== to;) days.push((d = (d + 1) % 7));
	return days;
}

/** A week from its text: each key a day or a run of days, each value its spans; a day not named has none. */
export function weekOf(hours: Readonly<Record<string, string>>): Week {
	const week: Span[][] = [[], [], [], [], [], [], []];
	for (const [key, text] of Object.entries(hours)) {
		const spans = text.split(',').map((span): Span => {
			const [start, end] = span.trim().split('-');
			return [minutesOf(start), minutesOf(end)];
		});
		for (const day of daysOf(key)) week[day] = spans;
	}
	return week;
}

/** The same spans every day of `days`. */
export const sameHours = (days: readonly number[], start: number, end: number): Week =>
	[0, 1, 2, 3, 4, 5, 6].map((day) => (days.includes(day) ? [[start, end] as Span] : []));

/** Where two weeks are both open. */
export function narrowed(a: Week, b: Week): Week {
	return a.map((spans, day) => {
		const out: Span[] = [];
		for (const [s1, e1] of spans)
			for (const [s2, e2] of b[day]) {
				const start = Math.max(s1, s2);
				const end = Math.min(e1, e2);
				if (start < end) out.push([start, end]);
			}
		return out.sort((x, y) => x[0] - y[0]);
	});
}

const spansText = (spans: readonly Span[]) => spans.map(([s, e]) => `${hhmmOf(s)}-${hhmmOf(e)}`).join(', ');

/** A week as people read it: `Mon-Fri 10:00-13:00, 14:00-20:00; Sat 09:00-17:00`; `no hour` for an empty one. */
export function weekText(week: Week): string {
	const parts: string[] = [];
	// From Monday, so that Monday to Friday reads as one run.
	const order = [1, 2, 3, 4, 5, 6, 0];
	for (let i = 0; i < order.length;) {
		const text = spansText(week[order[i]]);
		let j = i;
		while (j + 1 < order.length && spansText(week[order[j + 1]]) === text) j++;
		if (text) {
			const days = i === j ? DAY_NAMES[order[i]] : `${DAY_NAMES[order[i]]}-${DAY_NAMES[order[j]]}`;
			parts.push(i === 0 && j === 6 ? text : `${days} ${text}`);
		}
		i = j + 1;
	}
	return parts.join('; ') || 'no hour';
}
