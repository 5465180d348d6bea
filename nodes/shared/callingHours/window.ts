/**
 * Calling windows in the callee's own zones: which instants lie inside a window (its week's
 * hours on the wall clock of a zone, less its holidays), and the first instant inside every
 * window of a number that may ring in several zones. Pure: no clock but the instants given.
 */
import { DAY_MS, MINUTE_MS } from '../time';
import { addDays, HolidayBook } from './holidays';
import type { HolidayCalendar } from './holidays';
import { DAY_NAMES } from './week';
import type { Week } from './week';

/** A window of the wall clock in one zone: its week's hours, but never on one of its holidays. */
export interface ZoneWindow {
	zone: string;
	week: Week;
	holidays: readonly HolidayCalendar[];
}

export interface ZonedParts {
	year: number;
	month: number;
	day: number;
	hour: number;
	minute: number;
	weekday: number;
}

/**
 * How many days ahead a window is looked for: two weeks and a day cover any week with its
 * holidays (Christmas, a weekend and Boxing Day; France's May).
 */
export const HORIZON_DAYS = 15;

/**
 * The wall clock of instants in zones. Building a formatter costs tens of microseconds and
 * reading one a few: a clock keeps one formatter per zone, and the holidays of each year, for
 * one run of a node.
 */
export class ZoneClock {
	private formats = new Map<string, Intl.DateTimeFormat>();
	readonly holidays = new HolidayBook();

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
			weekday: DAY_NAMES.indexOf(get('weekday')),
		};
	}

	/** The wall clock of `ms` in `zone`, as if it were UTC: comparable with `Date.UTC(...)`. */
	private wall(ms: number, zone: string): number {
		const p = this.parts(ms, zone);
		return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute);
	}

	/**
	 * The instant (epoch ms) at which the wall clock in `timeZone` reads this date and time; where
	 * the clock skips it (a change to summer time, at midnight in Santiago or Havana), the first
	 * instant after the skip.
	 */
	instant(year: number, month: number, day: number, hour: number, minute: number, timeZone: string): number {
		const wanted = Date.UTC(year, month - 1, day, hour, minute);
		let guess = wanted;
		// Two corrections settle any zone offset where the wall-clock time exists.
		for (let i = 0; i < 2; i++) guess += wanted - this.wall(guess, timeZone);
		if (this.wall(guess, timeZone) === wanted) return guess;
		// In a skipped hour: the first minute whose wall clock reads at or after it.
		let low = guess - 3 * 3_600_000;
		let high = guess + 3 * 3_600_000;
		while (high - low > MINUTE_MS) {
			const mid = low + Math.floor((high - low) / 2 / MINUTE_MS) * MINUTE_MS;
			if (this.wall(mid, timeZone) >= wanted) high = mid;
			else low = mid;
		}
		return high;
	}

	/** `ms` on the wall clock of `zone`: `Sat 2026-11-28 00:06`. */
	wallClock(ms: number, zone: string): string {
		const p = this.parts(ms, zone);
		const two = (n: number) => String(n).padStart(2, '0');
		return `${DAY_NAMES[p.weekday]} ${p.year}-${two(p.month)}-${two(p.day)} ${two(p.hour)}:${two(p.minute)}`;
	}

	/** The holiday of `window` on the date of `ms` in its zone, if it is one. */
	holidayAt(ms: number, window: ZoneWindow): string | undefined {
		const p = this.parts(ms, window.zone);
		for (const calendar of window.holidays) {
			const name = this.holidays.holidayOn(calendar, p.year, p.month, p.day);
			if (name) return `${name}, ${calendar.name}`;
		}
		return undefined;
	}

	/**
	 * The first instant at or after `ms` inside `window`, within the horizon; undefined if none.
	 * Days are counted on the calendar, not by adding hours, so a clock change at midnight cannot
	 * turn the search back.
	 */
	nextOpening(ms: number, window: ZoneWindow): number | undefined {
		const { zone } = window;
		const today = this.parts(ms, zone);
		for (let k = 0; k <= HORIZON_DAYS; k++) {
			const date = addDays(today.year, today.month, today.day, k);
			if (window.holidays.some((c) => this.holidays.holidayOn(c, date.year, date.month, date.day))) continue;
			for (const [start, end] of window.week[date.weekday]) {
				const closes =
					end >= 1440
						? this.instant(date.year, date.month, date.day + 1, 0, 0, zone)
						: this.instant(date.year, date.month, date.day, Math.floor(end / 60), end % 60, zone);
				if (ms >= closes) continue;
				const opens = this.instant(date.year, date.month, date.day, Math.floor(start / 60), start % 60, zone);
				if (opens < closes) return Math.max(ms, opens);
			}
		}
		return undefined;
	}

	/**
	 * The first instant at or after `ms` that lies inside every window (a number that may ring in
	 * several zones), within the horizon; undefined when there is none: the windows never overlap.
	 * No window at all: `ms`, nothing holds the call.
	 */
	firstCommon(ms: number, windows: ZoneWindow[]): number | undefined {
		let at = ms;
		// Each pass moves `at` to the latest next opening; it settles where all are open.
		for (;;) {
			let moved = false;
			for (const window of windows) {
				const next = this.nextOpening(at, window);
				if (next === undefined || next - ms > HORIZON_DAYS * DAY_MS) return undefined;
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
		const size = slotMinutes * MINUTE_MS;
		let at: number | undefined = ms;
		for (let tries = 0; tries < 4 && at !== undefined; tries++) {
			const rounded: number = Math.ceil(at / size) * size;
			at = this.firstCommon(rounded, windows);
			if (at === rounded) return at;
		}
		return undefined;
	}
}
