/**
 * The calling hours of one callee: the zones the number may ring in (or the contact's own
 * `timezone`), the law's rules of its country and region, and the user's own days, hours and
 * limits, read in each of those zones; and the first instant a call may start. One
 * `CallingHours` serves one run of a node: it reads the prefix table once and remembers what it
 * worked out for each kind of number.
 */
import type { Purpose } from '../callPurposes';
import { BASE_RULE, rulesFor, UNPOD_ENGINE, unpodEngineFor } from './rules';
import type { CallLimit, LawRule } from './rules';
import { narrowed, sameHours, weekOf, weekText } from './week';
import type { Week } from './week';
import { ZoneClock } from './window';
import type { ZoneWindow } from './window';
import { PhonePlaces } from './zones';
import type { RingPlace } from './zones';

export const EVERY_DAY = [0, 1, 2, 3, 4, 5, 6];
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

const isEngine = (rule: LawRule) => (UNPOD_ENGINE as LawRule[]).includes(rule);

/** The user's own Calling Days and Hours: they narrow the window, in the callee's zone. */
export interface UserWindow {
	days: number[];
	/** Minutes after midnight. */
	start: number;
	end: number;
}

export interface HoursSettings {
	/** Keep to Calling Hours: the law's rules (and Unpod's engine's window); off, only the user's own. */
	law: boolean;
	/** The Calls Are: the rules that do not cover calls of this purpose are left out. */
	purpose: Purpose;
	user?: UserWindow;
	/** The zone of numbers whose zone is not known. */
	fallbackZone?: string;
	/** Max Calls per 24 Hours for everyone (0 or undefined: only the rules' own limits). */
	maxCallsPer24Hours?: number;
}

/** A limit of calls and whose it is: a rule's `where`, or the node's option. */
export interface CalleeLimit extends CallLimit {
	where: string;
}

export interface Callee {
	/** The zones the phone may ring in, where most of its people live first; empty when not known. */
	zones: string[];
	/**
	 * One window per zone: every rule and the user's hours at once; then, for +1 and +61 numbers,
	 * Unpod's engine's own window in the zone it reads (rules.ts, UNPOD_ENGINE).
	 */
	windows: ZoneWindow[];
	limits: CalleeLimit[];
	/** The rules that set the hours or a limit, beyond the base rule; Unpod's engine's among them. */
	rules: LawRule[];
	/** Each window on its own, named, for saying which one keeps a time closed (closedBy). */
	named: NamedWindow[];
}

/** One rule's window (or the user's own hours) alone, with the name an item gives it. */
export interface NamedWindow {
	name: string;
	window: Omit<ZoneWindow, 'zone'>;
	/** Its own clock (Mississippi's standard time, Unpod's engine's zone); none: the callee's. */
	zone?: string;
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
	private weeks = new Map<LawRule, Week>();

	/**
	 * The callee of `number` (E.164), its own `timezone` first; a number whose zone is not known
	 * rings in the fallback zone, if there is one.
	 */
	calleeOf(number: string, ownZone: string | undefined, settings: HoursSettings): Callee {
		const place = this.places.of(number);
		// Numbers of one place share one callee: 100,000 rows hold a few hundred.
		const ofPlace = this.callees.get(place) ?? new Map<string, Callee>();
		this.callees.set(place, ofPlace);
		const key = `${ownZone ?? ''}|${JSON.stringify(settings)}`;
		let callee = ofPlace.get(key);
		if (!callee) {
			callee = this.newCallee(place, ownZone, settings);
			ofPlace.set(key, callee);
		}
		return callee;
	}

	private newCallee(place: RingPlace | undefined, ownZone: string | undefined, settings: HoursSettings): Callee {
		const rules = settings.law ? rulesFor(place?.countryCode, place?.region, settings.purpose) : [];
		// The law holds in every zone the phone may ring in; the user's own hours alone, where most of
		// its people live (a window of 09:00-19:00 has no hour common to all 42 North American zones).
		const known = ownZone ? [ownZone] : (place?.zones ?? []).slice(0, settings.law ? undefined : 1);
		const zones = known.length || !settings.fallbackZone ? known : [settings.fallbackZone];
		// A rule read on a clock of its own (Mississippi's standard time) is a window of its own, as
		// Unpod's engine's is; the others narrow the callee's own.
		const local = rules.filter((rule) => !rule.zone);
		const week = this.weekOf(local, settings.user);
		const holidays = local.flatMap((rule) => rule.holidays ?? []);
		const fixedClock = zones.length ? rules.filter((rule): rule is LawRule & { zone: string } => !!rule.zone) : [];
		const engine = settings.law && zones.length ? unpodEngineFor(place?.countryCode) : [];
		const limits: CalleeLimit[] = rules.flatMap((rule) =>
			(rule.limits ?? []).map((l) => ({ ...l, where: rule.where })),
		);
		if (settings.maxCallsPer24Hours)
			limits.push({ calls: settings.maxCallsPer24Hours, days: 1, where: 'Max Calls per 24 Hours' });
		return {
			zones,
			windows: [
				...zones.map((zone) => ({ zone, week, holidays })),
				...[...fixedClock, ...engine].map((rule) => ({
					zone: rule.zone,
					week: this.ruleWeek(rule),
					holidays: rule.holidays ?? [],
				})),
			],
			limits,
			rules: [...rules.filter((rule) => rule.countryCode !== undefined), ...engine],
			named: [
				...[...rules, ...engine].map((rule) => ({
					name: isEngine(rule) ? rule.where : rule === BASE_RULE ? "the package's floor, kept everywhere" : `${rule.where}'s law`,
					window: { week: this.ruleWeek(rule), holidays: rule.holidays ?? [] },
					...(rule.zone ? { zone: rule.zone } : {}),
				})),
				...(settings.user
					? [
							{
								name: 'your Calling Days and Hours',
								window: { week: sameHours(settings.user.days, settings.user.start, settings.user.end), holidays: [] },
							},
						]
					: []),
			],
		};
	}

	/** The week every rule and the user's own hours leave open. */
	private weekOf(rules: LawRule[], user: UserWindow | undefined): Week {
		let week: Week = sameHours(EVERY_DAY, 0, 1440);
		for (const rule of rules) week = narrowed(week, this.ruleWeek(rule));
		return user ? narrowed(week, sameHours(user.days, user.start, user.end)) : week;
	}

	private ruleWeek(rule: LawRule): Week {
		let week = this.weeks.get(rule);
		if (!week) this.weeks.set(rule, (week = weekOf(rule.hours)));
		return week;
	}

	/**
	 * The first instant at or after `at` inside every window of the callees (one number, or the
	 * calls of one wait together); undefined when there is none within the horizon. Remembered
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
			key = windows.map((w) => `${w.zone}/${weekText(w.week)}/${w.holidays.map((h) => h.name).join('+')}`).join(',');
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

	/**
	 * What keeps `at` closed for the callee, in words: `France's law: no calls on Sunday`, `Utah's
	 * law: no calls on Christmas Day, Utah legal holidays`, `Florida's law: calls 08:00-20:00`: the
	 * window that stays closed longest; undefined when every one is open.
	 */
	closedBy(callee: Callee, at: number): string | undefined {
		// The window that stays closed longest is the one that moved the call: at 22:50 on a Sunday
		// in Paris, France's law (Monday 10:00), not the 21:00 floor (Monday 08:00).
		let found: { text: string; opens: number } | undefined;
		for (const { name, window, zone: own } of callee.named) {
			for (const zone of own ? [own] : callee.zones) {
				const zoned = { ...window, zone };
				const opens = this.clock.nextOpening(at, zoned) ?? Number.POSITIVE_INFINITY;
				if (opens === at || (found && opens < found.opens)) continue;
				const holiday = this.clock.holidayAt(at, zoned);
				const weekday = this.clock.parts(at, zone).weekday;
				const why = holiday
					? `no calls on ${holiday}`
					: window.week[weekday].length
						? `calls ${weekText(window.week)}`
						: `no calls on ${WEEKDAYS[weekday]}`;
				found = { text: `${name}: ${why}${own ? ` (${this.clock.wallClock(at, zone)} there)` : ''}`, opens };
			}
		}
		return found?.text;
	}

	/**
	 * The window as a sentence: `Mon-Fri 10:00-13:00, 14:00-20:00 local, no calls on France's public
	 * holidays, France's law`; `09:00-20:00 in America/New_York for Unpod's engine` where it applies.
	 */
	windowText(callee: Callee): string {
		const own = callee.windows.find((w) => callee.zones.includes(w.zone)) ?? callee.windows[0];
		if (!own) return 'any hour';
		const holidays = own.holidays.length ? [`no calls on ${own.holidays.map((h) => h.name).join(' or ')}`] : [];
		const laws = callee.rules.filter((r) => !r.zone).map((r) => `${r.where}'s law`);
		const engine = callee.rules
			.filter((r): r is LawRule & { zone: string } => !!r.zone)
			.map(
				(r) =>
					`${weekText(this.ruleWeek(r))} in ${r.zoneName ?? r.zone} for ${isEngine(r) ? r.where : `${r.where}'s law`}`,
			);
		return [`${weekText(own.week)} local`, ...holidays, ...laws, ...engine].join(', ');
	}
}
