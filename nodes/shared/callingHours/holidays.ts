/**
 * The holidays calling laws name, each list written from its own statute as rules (a fixed date,
 * the nth weekday of a month, a day counted from Easter) and the day each is observed on when it
 * falls on a weekend. A call is kept off both the day itself and the day it is observed: the
 * statutes differ on which is "the" holiday, and neither day risks a call the law forbids.
 * Written from the statutes, not copied from a holiday data set (whose licences do not fit an MIT
 * package). Pure: dates in, dates out.
 */

/** Days moved, by the weekday a holiday falls on (0 Sunday to 6 Saturday). */
type Observance = Partial<Record<number, number>>;

/** Saturday to the Friday before, Sunday to the Monday after. */
const SAT_FRI_SUN_MON: Observance = { 6: -1, 0: 1 };
/** Sunday to the Monday after. */
const SUN_MON: Observance = { 0: 1 };
/** Saturday or Sunday to the Monday after. */
const WEEKEND_MON: Observance = { 6: 2, 0: 1 };

export type Holiday = { name: string; observed?: Observance; years?: 'even' } & (
	| { month: number; day: number }
	/** `nth` 1 to 4, or -1 for the last; `plus` days after it ("the Tuesday after the first Monday"). */
	| { month: number; weekday: number; nth: number; plus?: number }
	/** Days after Western Easter Sunday (Good Friday -2, Easter Monday 1). */
	| { easter: number }
);

export interface HolidayCalendar {
	/** Whose holidays, as an item names them: `France's public holidays`. */
	name: string;
	citation: string;
	holidays: Holiday[];
}

const MON = 1;
const THU = 4;
const fixed = (name: string, month: number, day: number, observed?: Observance): Holiday => ({
	name,
	month,
	day,
	...(observed ? { observed } : {}),
});
const nth = (name: string, n: number, weekday: number, month: number): Holiday => ({ name, month, weekday, nth: n });

export const US_FEDERAL: HolidayCalendar = {
	name: 'US federal holidays',
	citation:
		'5 U.S.C. 6103(a): the eleven legal public holidays; 6103(b) and Executive Order 11582: one on a Saturday is observed the Friday before, one on a Sunday the Monday after',
	holidays: [
		fixed("New Year's Day", 1, 1, SAT_FRI_SUN_MON),
		nth('Birthday of Martin Luther King, Jr.', 3, MON, 1),
		nth("Washington's Birthday", 3, MON, 2),
		nth('Memorial Day', -1, MON, 5),
		fixed('Juneteenth National Independence Day', 6, 19, SAT_FRI_SUN_MON),
		fixed('Independence Day', 7, 4, SAT_FRI_SUN_MON),
		nth('Labor Day', 1, MON, 9),
		nth('Columbus Day', 2, MON, 10),
		fixed('Veterans Day', 11, 11, SAT_FRI_SUN_MON),
		nth('Thanksgiving Day', 4, THU, 11),
		fixed('Christmas Day', 12, 25, SAT_FRI_SUN_MON),
	],
};

export const RHODE_ISLAND: HolidayCalendar = {
	name: 'Rhode Island holidays',
	citation:
		"R.I. Gen. Laws 25-1-1: New Year's Day, Dr. Martin Luther King, Jr.'s Birthday, Washington's Birthday, Rhode Island Independence Day (May 4), Memorial Day, Independence Day, Victory Day (second Monday of August), Labor Day, Columbus Day, Veterans' Day, Christmas Day (those of a fixed date on a weekend also the Monday after), election day in years of a general election of state officers",
	holidays: [
		fixed("New Year's Day", 1, 1, WEEKEND_MON),
		nth("Dr. Martin Luther King, Jr.'s Birthday", 3, MON, 1),
		nth("Washington's Birthday", 3, MON, 2),
		fixed('Rhode Island Independence Day', 5, 4, SUN_MON),
		nth('Memorial Day', -1, MON, 5),
		fixed('Independence Day', 7, 4, WEEKEND_MON),
		nth('Victory Day', 2, MON, 8),
		nth('Labor Day', 1, MON, 9),
		nth('Columbus Day', 2, MON, 10),
		fixed("Veterans' Day", 11, 11, WEEKEND_MON),
		{ name: 'Election day', month: 11, weekday: MON, nth: 1, plus: 1, years: 'even' },
		fixed('Christmas Day', 12, 25, WEEKEND_MON),
	],
};

export const LOUISIANA: HolidayCalendar = {
	name: 'Louisiana legal holidays',
	citation:
		"La. R.S. 1:55(A)(1): New Year's Day, Battle of New Orleans (January 8), Dr. Martin Luther King, Jr.'s Birthday, Washington's Birthday, Mardi Gras, Good Friday, National Memorial Day, Independence Day, Huey P. Long Day (August 30), Labor Day, Columbus Day, All Saints' Day (November 1), Veterans' Day, Thanksgiving Day, Christmas Day; and general election day in even years (1:55, as its summaries list it). 1:55(E): New Year's Day, Independence Day and Christmas Day on a Saturday are kept the Friday before, on a Sunday the Monday after (the courts' clerks' rule, as the Orleans Parish civil clerk reads it; kept for every number: the package risks no call the law may forbid)",
	holidays: [
		fixed("New Year's Day", 1, 1, SAT_FRI_SUN_MON),
		fixed('Battle of New Orleans', 1, 8),
		nth("Dr. Martin Luther King, Jr.'s Birthday", 3, MON, 1),
		nth("Washington's Birthday and Presidents' Day", 3, MON, 2),
		{ name: 'Mardi Gras', easter: -47 },
		{ name: 'Good Friday', easter: -2 },
		nth('National Memorial Day', -1, MON, 5),
		fixed('Independence Day', 7, 4, SAT_FRI_SUN_MON),
		fixed('Huey P. Long Day', 8, 30),
		nth('Labor Day', 1, MON, 9),
		nth('Christopher Columbus Day', 2, MON, 10),
		fixed("All Saints' Day", 11, 1),
		fixed("Veterans' Day", 11, 11),
		nth('Thanksgiving Day', 4, THU, 11),
		fixed('Christmas Day', 12, 25, SAT_FRI_SUN_MON),
		{ name: 'General election day', month: 11, weekday: MON, nth: 1, plus: 1, years: 'even' },
	],
};

export const ALABAMA: HolidayCalendar = {
	name: 'Alabama state holidays',
	citation:
		'Ala. Code 1-3-8, as the Alabama Department of Archives and History lists it; 1-3-8(a): a holiday on a Sunday is kept the day after, one on a Saturday the day before; Mardi Gras, a holiday of Baldwin and Mobile counties only, is kept for every Alabama number (a number does not tell its county)',
	holidays: [
		fixed("New Year's Day", 1, 1, SAT_FRI_SUN_MON),
		nth('Birthdays of Robert E. Lee and Martin Luther King, Jr.', 3, MON, 1),
		nth('Birthdays of George Washington and Thomas Jefferson', 3, MON, 2),
		{ name: 'Mardi Gras', easter: -47 },
		nth('Confederate Memorial Day', 4, MON, 4),
		nth('National Memorial Day', -1, MON, 5),
		nth('Birthday of Jefferson Davis', 1, MON, 6),
		fixed('Independence Day', 7, 4, SAT_FRI_SUN_MON),
		nth('Labor Day', 1, MON, 9),
		nth('Columbus Day, Fraternal Day and American Indian Heritage Day', 2, MON, 10),
		fixed('Veterans Day', 11, 11, SAT_FRI_SUN_MON),
		nth('Thanksgiving Day', 4, THU, 11),
		fixed('Christmas Day', 12, 25, SAT_FRI_SUN_MON),
	],
};

export const UTAH: HolidayCalendar = {
	name: 'Utah legal holidays',
	citation:
		"Utah Code 63G-1-301 (as in effect from 2026-05-06): New Year's Day, Independence Day, Pioneer Day (July 24), Veterans Day and Christmas, on a Saturday also the Friday before and on a Sunday the Monday after; Dr. Martin Luther King, Jr. Day, Presidents' Day, Good Friday, Easter Sunday, Memorial Day, Labor Day, Columbus Day, Thanksgiving Day; Juneteenth (June 19, observed on a Monday: the one before from Tuesday to Friday, the one after on a weekend); every Sunday",
	holidays: [
		fixed("New Year's Day", 1, 1, SAT_FRI_SUN_MON),
		nth('Dr. Martin Luther King, Jr. Day', 3, MON, 1),
		nth("Presidents' Day", 3, MON, 2),
		{ name: 'Good Friday', easter: -2 },
		nth('Memorial Day', -1, MON, 5),
		fixed('Juneteenth National Freedom Day', 6, 19, { 2: -1, 3: -2, 4: -3, 5: -4, 6: 2, 0: 1 }),
		fixed('Independence Day', 7, 4, SAT_FRI_SUN_MON),
		fixed('Pioneer Day', 7, 24, SAT_FRI_SUN_MON),
		nth('Labor Day', 1, MON, 9),
		nth('Columbus Day', 2, MON, 10),
		fixed('Veterans Day', 11, 11, SAT_FRI_SUN_MON),
		nth('Thanksgiving Day', 4, THU, 11),
		fixed('Christmas', 12, 25, SAT_FRI_SUN_MON),
	],
};

export const FRANCE: HolidayCalendar = {
	name: "France's public holidays",
	citation:
		"Code du travail L3133-1: 1 January, Easter Monday, 1 May, 8 May, Ascension, Whit Monday, 14 July, Assumption (15 August), All Saints' Day (1 November), 11 November, Christmas Day",
	holidays: [
		fixed('1 January', 1, 1),
		{ name: 'Easter Monday', easter: 1 },
		fixed('1 May', 5, 1),
		fixed('8 May', 5, 8),
		{ name: 'Ascension', easter: 39 },
		{ name: 'Whit Monday', easter: 50 },
		fixed('14 July', 7, 14),
		fixed('Assumption', 8, 15),
		fixed("All Saints' Day", 11, 1),
		fixed('11 November', 11, 11),
		fixed('Christmas Day', 12, 25),
	],
};

export const AUSTRALIA: HolidayCalendar = {
	name: "Australia's national public holidays",
	citation:
		"The days that are public holidays in every state and territory, as the Telecommunications (Telemarketing and Research Calls) Industry Standard 2017's national public holidays are read: New Year's Day, Australia Day (26 January), Good Friday, Easter Monday, Anzac Day (25 April), Christmas Day, Boxing Day, and the Mondays and Tuesdays every state gives for those of a weekend",
	holidays: [
		fixed("New Year's Day", 1, 1, WEEKEND_MON),
		fixed('Australia Day', 1, 26, WEEKEND_MON),
		{ name: 'Good Friday', easter: -2 },
		{ name: 'Easter Monday', easter: 1 },
		fixed('Anzac Day', 4, 25),
		fixed('Christmas Day', 12, 25, { 6: 2, 0: 2 }),
		fixed('Boxing Day', 12, 26, { 6: 2, 0: 2 }),
	],
};

export const SOUTH_AFRICA: HolidayCalendar = {
	name: "South Africa's public holidays",
	citation:
		'Public Holidays Act 36 of 1994, Schedule 1, and s 2(1): a public holiday on a Sunday makes the Monday after one',
	holidays: [
		fixed("New Year's Day", 1, 1, SUN_MON),
		fixed('Human Rights Day', 3, 21, SUN_MON),
		{ name: 'Good Friday', easter: -2 },
		{ name: 'Family Day', easter: 1 },
		fixed('Freedom Day', 4, 27, SUN_MON),
		fixed("Workers' Day", 5, 1, SUN_MON),
		fixed('Youth Day', 6, 16, SUN_MON),
		fixed("National Women's Day", 8, 9, SUN_MON),
		fixed('Heritage Day', 9, 24, SUN_MON),
		fixed('Day of Reconciliation', 12, 16, SUN_MON),
		fixed('Christmas Day', 12, 25, SUN_MON),
		fixed('Day of Goodwill', 12, 26, SUN_MON),
	],
};

/** A date as one number, `20261225`: what the holiday sets hold. */
export const dayKey = (year: number, month: number, day: number) => year * 10_000 + month * 100 + day;

/** The date `days` after year-month-day, and its weekday. */
export function addDays(year: number, month: number, day: number, days: number) {
	const date = new Date(Date.UTC(year, month - 1, day + days));
	return {
		year: date.getUTCFullYear(),
		month: date.getUTCMonth() + 1,
		day: date.getUTCDate(),
		weekday: date.getUTCDay(),
	};
}

/** Western Easter Sunday of `year` (the Gregorian computus of Meeus, Jones and Butcher). */
export function easterSunday(year: number): { month: number; day: number } {
	const a = year % 19;
	const b = Math.floor(year / 100);
	const c = year % 100;
	const d = Math.floor(b / 4);
	const e = b % 4;
	const f = Math.floor((b + 8) / 25);
	const g = Math.floor((b - f + 1) / 3);
	const h = (19 * a + b - d - g + 15) % 30;
	const i = Math.floor(c / 4);
	const k = c % 4;
	const l = (32 + 2 * e + 2 * i - h - k) % 7;
	const m = Math.floor((a + 11 * h + 22 * l) / 451);
	const month = Math.floor((h + l - 7 * m + 114) / 31);
	return { month, day: ((h + l - 7 * m + 114) % 31) + 1 };
}

/** The date of a holiday in `year`, before any observance. */
function dateOf(holiday: Holiday, year: number) {
	if ('easter' in holiday) {
		const easter = easterSunday(year);
		return addDays(year, easter.month, easter.day, holiday.easter);
	}
	if ('day' in holiday) return addDays(year, holiday.month, holiday.day, 0);
	const { month, weekday, nth, plus = 0 } = holiday;
	if (nth > 0) {
		const first = addDays(year, month, 1, 0).weekday;
		return addDays(year, month, 1, ((weekday - first + 7) % 7) + (nth - 1) * 7 + plus);
	}
	const last = addDays(year, month + 1, 0, 0);
	return addDays(year, month, last.day, -((last.weekday - weekday + 7) % 7) + plus);
}

/** Every day of `year` a calendar keeps free of calls: each holiday, and the day it is observed on. */
export function holidayDays(calendar: HolidayCalendar, year: number): Map<number, string> {
	const days = new Map<number, string>();
	for (const holiday of calendar.holidays) {
		if (holiday.years === 'even' && year % 2) continue;
		const date = dateOf(holiday, year);
		days.set(dayKey(date.year, date.month, date.day), holiday.name);
		const moved = holiday.observed?.[date.weekday];
		if (moved) {
			const observed = addDays(date.year, date.month, date.day, moved);
			days.set(dayKey(observed.year, observed.month, observed.day), `${holiday.name} (observed)`);
		}
	}
	return days;
}

/**
 * The holidays of the calendars a run meets, worked out once a year and calendar (a holiday
 * observed across New Year, a Saturday 1 January kept on 31 December, is found from the next year's).
 */
export class HolidayBook {
	private years = new Map<HolidayCalendar, Map<number, Map<number, string>>>();

	/** The holiday `year-month-day` is in `calendar`, if it is one. */
	holidayOn(calendar: HolidayCalendar, year: number, month: number, day: number): string | undefined {
		const key = dayKey(year, month, day);
		return this.of(calendar, year).get(key) ?? (month === 12 ? this.of(calendar, year + 1).get(key) : undefined);
	}

	private of(calendar: HolidayCalendar, year: number): Map<number, string> {
		let byYear = this.years.get(calendar);
		if (!byYear) this.years.set(calendar, (byYear = new Map()));
		let days = byYear.get(year);
		if (!days) byYear.set(year, (days = holidayDays(calendar, year)));
		return days;
	}
}
