/**
 * The calling hours of one callee: the zones the number may ring in (or the contact's own
 * `timezone`), the rules of its region, and the user's own days and hours, read in each of those
 * zones; and the first instant a call may start. One `CallingHours` serves one run of a node:
 * it reads the prefix table once and remembers what it worked out for each kind of number.
 */
import { rulesFor, unpodEngineFor } from './rules';
import type { HoursRule } from './rules';
import { hhmmOf, minutesOf, ZoneClock } from './window';
import type { ZoneWindow } from './window';
import { PhonePlaces } from './zones';
import type { RingPlace } from './zones';

/** The user's own Calling Days and Hours: they narrow the law's window, in the callee's zone. */
export interface UserWindow {
	days: number[];
	/** `HH:MM`. */
	start: string;
	end: string;
}

export const EVERY_DAY = [0, 1, 2, 3, 4, 5, 6];

export interface HoursSettings {
	user?: UserWindow;
	/** The zone of numbers whose zone is not known (or that ring in zones with no common hour). */
	fallbackZone?: string;
	/** Max Calls per 24 Hours for everyone (0 or undefined: only the rules' own limits). */
	maxCallsPer24Hours?: number;
}

export interface Callee {
	/** The zones the phone may ring in; empty when not known. */
	zones: string[];
	/**
	 * One window per zone: every rule and the user's hours at once; then, for +1 and +61 numbers,
	 * Unpod's engine's own window in the zone it reads (rules.ts, UNPOD_ENGINE).
	 */
	windows: ZoneWindow[];
	/** The strictest limit of calls in 24 hours, if any. */
	maxCallsPer24Hours?: number;
	/** The rules that set the hours or the limit, beyond the base rule; Unpod's engine's among them. */
	rules: HoursRule[];
}

/** Whether `zone` is an IANA zone this runtime knows. */
export function isTimeZone(zone: string): boolean {
	try {
		new Intl.DateTimeFormat('en-US', { timeZone: zone });
		return true;
	} catch {
		return false;
	}
}

export class CallingHours {
	readonly clock = new ZoneClock();
	private places = new PhonePlaces();
	private remembered = new Map<string, number | null>();
	private callees = new Map<RingPlace | undefined, Map<string, Callee>>();
	private windowKeys = new WeakMap<ZoneWindow[], string>();

	/**
	 * The callee of `number` (E.164), its own `timezone` first. With a fallback zone, a number
	 * whose zones are not known or have no legal hour in common from `now` on rings there.
	 */
	calleeOf(number: string, ownZone: string | undefined, settings: HoursSettings, now: number): Callee {
		const place = this.places.of(number);
		// Numbers of one place share one callee: 100,000 rows hold a few hundred.
		const ofPlace = this.callees.get(place) ?? new Map<string, Callee>();
		this.callees.set(place, ofPlace);
		const key = `${ownZone ?? ''}|${JSON.stringify(settings)}|${now}`;
		let callee = ofPlace.get(key);
		if (!callee) {
			callee = this.newCallee(place, ownZone, settings, now);
			ofPlace.set(key, callee);
		}
		return callee;
	}

	private newCallee(
		place: RingPlace | undefined,
		ownZone: string | undefined,
		settings: HoursSettings,
		now: number,
	): Callee {
		const rules = rulesFor(place?.countryCode, place?.region);
		let zones = ownZone ? [ownZone] : (place?.zones ?? []);
		const engine = unpodEngineFor(place?.countryCode);
		const windowsIn = (list: string[]) => [
			...list.map((zone) => windowOf(zone, rules, settings.user)),
			...(list.length
				? engine.map((rule) => ({
						zone: rule.zone,
						days: EVERY_DAY,
						start: minutesOf(rule.start),
						end: minutesOf(rule.end),
					}))
				: []),
		];
		if (settings.fallbackZone && (!zones.length || this.firstLegal(now, windowsIn(zones)) === undefined)) {
			zones = [settings.fallbackZone];
		}
		const limits = [settings.maxCallsPer24Hours, ...rules.map((r) => r.maxCallsPer24Hours)].filter(
			(n): n is number => typeof n === 'number' && n > 0,
		);
		return {
			zones,
			windows: windowsIn(zones),
			...(limits.length ? { maxCallsPer24Hours: Math.min(...limits) } : {}),
			rules: [...rules.slice(1), ...engine],
		};
	}

	/**
	 * The first instant at or after `at` inside every window of the callees (one number, or the
	 * calls of one wait together); undefined when there is none within eight days. Remembered
	 * for each `at` and set of windows: 100,000 contacts share a few hundred.
	 */
	firstLegal(at: number, windows: ZoneWindow[]): number | undefined {
		return this.remember(this.keyOf(at, windows), () => this.clock.firstCommon(at, windows));
	}

	/**
	 * `at` rounded up to a slot of `slotMinutes` inside every window (the calls of a slot share a
	 * request), remembered as firstLegal is; undefined when there is none.
	 */
	slot(at: number, windows: ZoneWindow[], slotMinutes: number): number | undefined {
		const key = `slot ${slotMinutes} ${this.keyOf(at, windows)}`;
		return this.remember(key, () => this.clock.slot(at, slotMinutes, windows));
	}

	private remember(key: string, find: () => number | undefined): number | undefined {
		const known = this.remembered.get(key);
		if (known !== undefined) return known ?? undefined;
		const found = find();
		this.remembered.set(key, found ?? null);
		return found;
	}

	private keyOf(at: number, windows: ZoneWindow[]): string {
		// A callee's windows are one array for all its rows: their key is made once.
		let key = this.windowKeys.get(windows);
		if (key === undefined) {
			key = windows.map((w) => `${w.zone}/${w.days.join('')}/${w.start}-${w.end}`).join(',');
			this.windowKeys.set(windows, key);
		}
		return `${at}|${key}`;
	}

	/**
	 * The callee's wall clock at `ms`, zone by zone: `Sat 2026-11-28 00:06 (Europe/London)`; for a
	 * number of more than three zones, the earliest and the latest: `... to ..., in its 42 zones`.
	 */
	localTime(ms: number, callee: Pick<Callee, 'zones'>): string {
		const times = callee.zones.map((zone) => ({ zone, wall: this.clock.wallClock(ms, zone) }));
		const text = ({ zone, wall }: { zone: string; wall: string }) => `${wall} (${zone})`;
		if (times.length <= 3) return times.map(text).join('; ');
		// `Sat 2026-11-28 00:06` sorts by what follows the weekday.
		const sorted = [...times].sort((a, b) => a.wall.slice(4).localeCompare(b.wall.slice(4)));
		return `${text(sorted[0])} to ${text(sorted[sorted.length - 1])}, in its ${times.length} zones`;
	}
}

/** A zone's window: the latest start and the earliest end of the rules, narrowed by the user's. */
function windowOf(zone: string, rules: HoursRule[], user: UserWindow | undefined): ZoneWindow {
	const starts = rules.map((r) => minutesOf(r.start));
	const ends = rules.map((r) => minutesOf(r.end));
	if (user) {
		starts.push(minutesOf(user.start));
		ends.push(minutesOf(user.end));
	}
	return { zone, days: user?.days ?? EVERY_DAY, start: Math.max(...starts), end: Math.min(...ends) };
}

/** A window as people read it: `08:00-20:00`. */
export const hoursOf = (window: Pick<ZoneWindow, 'start' | 'end'>) => `${hhmmOf(window.start)}-${hhmmOf(window.end)}`;
