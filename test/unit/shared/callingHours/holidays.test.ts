/**
 * The holiday calendars, written from their statutes, for 2026 to 2028: against the dates of
 * date-holidays (a dev dependency here, a second source only: its data is not in the package)
 * and against dates checked by hand. Pure.
 */
import Holidays from 'date-holidays';
import {
	ALABAMA,
	AUSTRALIA,
	easterSunday,
	FRANCE,
	holidayDays,
	HolidayBook,
	LOUISIANA,
	RHODE_ISLAND,
	SOUTH_AFRICA,
	US_FEDERAL,
	UTAH,
} from '../../../../nodes/shared/callingHours/holidays';
import type { HolidayCalendar } from '../../../../nodes/shared/callingHours/holidays';

const YEARS = [2026, 2027, 2028];

/** A calendar's days of `year` as `2027-03-29`. */
const ours = (calendar: HolidayCalendar, year: number) =>
	[...new Set([...holidayDays(calendar, year).keys(), ...holidayDays(calendar, year + 1).keys()])]
		.map(
			(key) =>
				`${Math.floor(key / 10_000)}-${String(Math.floor(key / 100) % 100).padStart(2, '0')}-${String(key % 100).padStart(2, '0')}`,
		)
		.filter((date) => date.startsWith(String(year)))
		.sort();

/** date-holidays' public holidays of `year`, as `2027-03-29`, less those whose names match `leave`. */
const theirs = (country: string, state: string | undefined, year: number, leave?: RegExp) =>
	[
		...new Set(
			new Holidays(country, state ?? '')
				.getHolidays(year)
				.filter((h) => h.type === 'public' && !(leave && leave.test(h.name)))
				.map((h) => h.date.slice(0, 10)),
		),
	].sort();

describe.each(YEARS)('%i', (year) => {
	test("France's eleven public holidays are date-holidays' own", () => {
		expect(ours(FRANCE, year)).toEqual(theirs('FR', undefined, year));
	});

	test("South Africa's, with a Sunday's holiday on the Monday after, are date-holidays' own", () => {
		expect(ours(SOUTH_AFRICA, year)).toEqual(theirs('ZA', undefined, year));
	});

	test("the US federal holidays, with their Friday and Monday observances, are date-holidays' own", () => {
		// 5 U.S.C. 6103(b): Veterans Day 2028, a Saturday, is observed on Friday the 10th; date-holidays has none.
		const more = ours(US_FEDERAL, year).filter((date) => !theirs('US', undefined, year).includes(date));
		expect(more).toEqual(year === 2028 ? ['2028-11-10'] : []);
		expect(theirs('US', undefined, year).filter((date) => !ours(US_FEDERAL, year).includes(date))).toEqual([]);
	});

	test("Australia's national public holidays: date-holidays' days for the whole country, less Easter's weekend", () => {
		expect(ours(AUSTRALIA, year)).toEqual(theirs('AU', undefined, year, /Easter (Saturday|Sunday)/));
	});

	test.each([
		// The state days of each statute that date-holidays also lists, each in our calendar.
		['Utah', UTAH, 'UT', /Juneteenth/],
		// With their observed days: a Saturday's holiday on the Friday before, a Sunday's on the Monday after.
		['Louisiana', LOUISIANA, 'LA', /Juneteenth/],
		['Alabama', ALABAMA, 'AL', /Juneteenth/],
		['Rhode Island', RHODE_ISLAND, 'RI', /Juneteenth|Thanksgiving|substitute/],
	])("%s's statute holds every state holiday date-holidays lists", (_, calendar, state, leave) => {
		const days = ours(calendar, year);
		expect(theirs('US', state, year, leave).filter((date) => !days.includes(date))).toEqual([]);
	});
});

describe('checked by hand', () => {
	test('Easter Sunday, and the days counted from it', () => {
		expect(YEARS.map((y) => easterSunday(y))).toEqual([
			{ month: 4, day: 5 },
			{ month: 3, day: 28 },
			{ month: 4, day: 16 },
		]);
		// Mardi Gras 2027 (Louisiana), Ascension and Whit Monday 2027 (France).
		expect(ours(LOUISIANA, 2027)).toContain('2027-02-09');
		expect(ours(FRANCE, 2027)).toEqual(expect.arrayContaining(['2027-05-06', '2027-05-17']));
	});

	test("Utah keeps Juneteenth on a Monday, and a Saturday's holiday on the Friday before", () => {
		// 2027-06-19 is a Saturday: the legal holiday is Monday the 21st; the day itself is kept free too.
		expect(ours(UTAH, 2027)).toEqual(expect.arrayContaining(['2027-06-19', '2027-06-21', '2027-07-23', '2027-07-24']));
		// 2026-06-19 is a Friday: the Monday before, the 15th.
		expect(ours(UTAH, 2026)).toEqual(expect.arrayContaining(['2026-06-15', '2026-06-19']));
	});

	test("Rhode Island's election day comes in even years only; Victory Day every year", () => {
		expect(ours(RHODE_ISLAND, 2026)).toContain('2026-11-03');
		expect(ours(RHODE_ISLAND, 2028)).toContain('2028-11-07');
		expect(ours(RHODE_ISLAND, 2027).filter((d) => d.startsWith('2027-11-0'))).toEqual([]);
		expect(ours(RHODE_ISLAND, 2027)).toContain('2027-08-09');
	});

	test("Alabama's own days: Confederate Memorial Day, Jefferson Davis's birthday", () => {
		expect(ours(ALABAMA, 2027)).toEqual(expect.arrayContaining(['2027-04-26', '2027-06-07']));
	});

	test('Alabama and Louisiana keep a weekend holiday on the Friday before or the Monday after (2027, 2028)', () => {
		// 2027: Independence Day a Sunday, Christmas Day and New Year's Day 2028 Saturdays.
		for (const calendar of [ALABAMA, LOUISIANA])
			expect(ours(calendar, 2027)).toEqual(expect.arrayContaining(['2027-07-05', '2027-12-24', '2027-12-31']));
		// 2028: Veterans Day is a Saturday; Ala. Code 1-3-8(a) moves every holiday (date-holidays has no such day).
		expect(ours(ALABAMA, 2028)).toContain('2028-11-10');
		expect(ours(LOUISIANA, 2028)).not.toContain('2028-11-10');
	});

	test("a Saturday New Year's Day is observed on the Friday before, in the year before", () => {
		// 2028-01-01 is a Saturday: 2027-12-31 is the federal holiday.
		const book = new HolidayBook();
		expect(book.holidayOn(US_FEDERAL, 2027, 12, 31)).toBe("New Year's Day (observed)");
		expect(book.holidayOn(US_FEDERAL, 2027, 12, 30)).toBeUndefined();
	});
});
