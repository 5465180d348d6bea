/**
 * Calling windows in the callee's own zones: which instants lie inside a window (days and hours
 * of the wall clock in a zone), and the first instant that lies inside every window of a number
 * that may ring in several zones. Pure: no clock but the instants given.
 */

/** A window of the wall clock in one zone: calls may start from `start` until before `end`. */
export interface ZoneWindow {
	zone: string;
	/** Days calls may start on, 0 Sunday to 6 Saturday. */
	days: number[];
	/** Minutes after midnight: the first minute a call may start, and the minute by which it has started. */
	start: number;
	end: number;
}

export interface ZonedParts {
	year: number;
	month: number;
	day: number;
	hour: number;
	minute: number;
	weekday: number;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const DAY_MS = 86_400_000;
/** How far ahead a window is looked for: a week and a day covers any weekly window. */
const HORIZON_MS = 8 * DAY_MS;

/** `HH:MM` as minutes after midnight. */
export const minutesOf = (hhmm: string) => {
	const [h, m] = hhmm.split(':').map(Number);
	return h * 60 + m;
};

/** Minutes after midnight as `HH:MM`. */
export const hhmmOf = (minutes: number) =>
	`${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/**
 * The wall clock of instants in zones. Building a formatter costs tens of microseconds and
 * reading one a few: a clock keeps one formatter per zone, for one run of a node.
 */
export class ZoneClock {
	private formats = new Map<string, Intl.DateTimeFormat>();

	private format(timeZone: string): Intl.DateTimeFormat {
		let format = this.formats.get(timeZone);
		if (!format) {
			format = new Intl.DateTimeFormat('en-US', {
				timeZone,
				hourCycle: 'h23',
				year: 'numeric',
				month: 'numeric',
				day: 'numeric',
				hour: 'numeric',
				minute: 'numeric',
				weekday: 'short',
			});
			this.formats.set(timeZone, format);
		}
		return format;
	}

	/** The wall-clock date and time of `ms` in `timeZone`. */
	parts(ms: number, timeZone: string): ZonedParts {
		const parts = this.format(timeZone).formatToParts(new Date(ms));
		const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
		return {
			year: Number(get('year')),
			month: Number(get('month')),
			day: Number(get('day')),
			hour: Number(get('hour')) % 24,
			minute: Number(get('minute')),
			weekday: WEEKDAYS.indexOf(get('weekday')),
		};
	}

	/** The instant (epoch ms) at which the wall clock in `timeZone` reads this date and time. */
	instant(year: number, month: number, day: number, hour: number, minute: number, timeZone: string): number {
		const wanted = Date.UTC(year, month - 1, day, hour, minute);
		let guess = wanted;
		// Two corrections settle any zone offset, daylight-saving changes included.
		for (let i = 0; i < 2; i++) {
			const p = this.parts(guess, timeZone);
			guess += wanted - Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute);
		}
		return guess;
	}

	/** `ms` on the wall clock of `zone`: `Sat 2026-11-28 00:06`. */
	wallClock(ms: number, zone: string): string {
		const p = this.parts(ms, zone);
		const two = (n: number) => String(n).padStart(2, '0');
		return `${WEEKDAYS[p.weekday]} ${p.year}-${two(p.month)}-${two(p.day)} ${two(p.hour)}:${two(p.minute)}`;
	}

	/** The first instant at or after `ms` inside `window`, within the horizon; undefined if none. */
	nextOpening(ms: number, window: ZoneWindow): number | undefined {
		const { zone, start } = window;
		let at = ms;
		for (let day = 0; day <= 8; day++) {
			const p = this.parts(at, zone);
			const minute = p.hour * 60 + p.minute;
			if (window.days.includes(p.weekday)) {
				if (minute >= start && minute < window.end) return at;
				if (minute < start) return this.instant(p.year, p.month, p.day, Math.floor(start / 60), start % 60, zone);
			}
			// The next day's midnight: noon of this day plus a day, read back, keeps clear of daylight-saving gaps.
			const next = this.parts(this.instant(p.year, p.month, p.day, 12, 0, zone) + DAY_MS, zone);
			at = this.instant(next.year, next.month, next.day, 0, 0, zone);
		}
		return undefined;
	}

	/**
	 * The first instant at or after `ms` that lies inside every window (a number that may ring in
	 * several zones), within `horizonMs`; undefined when there is none: the windows never overlap.
	 */
	firstCommon(ms: number, windows: ZoneWindow[], horizonMs = HORIZON_MS): number | undefined {
		if (!windows.length) return undefined;
		let at = ms;
		// Each pass moves `at` to the latest next opening; it settles where all are open.
		for (;;) {
			let moved = false;
			for (const window of windows) {
				const next = this.nextOpening(at, window);
				if (next === undefined || next - ms > horizonMs) return undefined;
				if (next > at) {
					at = next;
					moved = true;
				}
			}
			if (!moved) return at;
		}
	}

	/**
	 * A slot's start: `ms` rounded up to the next multiple of `slotMinutes` (UTC) and inside every
	 * window: a rounding that leaves one (20:50 becoming 21:00 with calls until 21:00) goes on to
	 * the next common opening. Undefined when there is none.
	 */
	slot(ms: number, slotMinutes: number, windows: ZoneWindow[]): number | undefined {
		const size = slotMinutes * 60_000;
		let at: number | undefined = ms;
		for (let tries = 0; tries < 4 && at !== undefined; tries++) {
			const rounded: number = Math.ceil(at / size) * size;
			at = this.firstCommon(rounded, windows);
			if (at === rounded) return at;
		}
		return undefined;
	}
}
