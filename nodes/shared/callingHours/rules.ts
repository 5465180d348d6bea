/**
 * The law of where the phone rings, as one table: for each place, the days and hours a call may
 * start (local), the holidays with no calls, how many calls a person may get over a number of
 * days, and which calls the rule covers. A rule applies to the numbers of its country and regions
 * (for +1 numbers, the state or province Google's data names for the area code). Add a row only
 * with the source you read; docs/calling-hours.md lists each with what was read.
 */
import { EVERY_PURPOSE } from '../callPurposes';
import type { Purpose } from '../callPurposes';
import { ALABAMA, AUSTRALIA, FRANCE, LOUISIANA, RHODE_ISLAND, SOUTH_AFRICA, US_FEDERAL, UTAH } from './holidays';
import type { HolidayCalendar } from './holidays';

/** At most `calls` calls to the same number within any `days` days. */
export interface CallLimit {
	calls: number;
	days: number;
}

export interface LawRule {
	/** Who it protects, as an item names it. */
	where: string;
	/** Country calling code and regions (states or provinces for +1) it covers; none: every number. */
	countryCode?: string;
	regions?: string[];
	/**
	 * The zone whose clock the hours are read on, where the law names one (Mississippi's "Central
	 * Standard Time", all year); none: the callee's own wall clock.
	 */
	zone?: string;
	/** How an item names that clock: `Central Standard Time`. */
	zoneName?: string;
	/** Days and hours calls may start, local: `{ 'Mon-Fri': '09:00-21:30', 'Sat-Sun': '10:00-18:00' }`. A day not named has no calls. */
	hours: Readonly<Record<string, string>>;
	holidays?: HolidayCalendar[];
	limits?: CallLimit[];
	/**
	 * The calls it covers, in the laws' categories (callPurposes.ts). A rule of automated calls
	 * whatever their subject covers every purpose: every call an AI agent places is automated.
	 */
	covers: readonly Purpose[];
	citation: string;
}

const EVERY_DAY = 'Mon-Sun';
const US = '1';
const THREE_A_DAY: CallLimit[] = [{ calls: 3, days: 1 }];
const SALES: readonly Purpose[] = ['sales'];
const SALES_AND_SURVEYS: readonly Purpose[] = ['sales', 'survey'];

/**
 * Every number, wherever it rings: the TCPA's hours, which the package keeps for every call as
 * its floor (an AI agent's voice is an artificial voice under the TCPA).
 */
export const BASE_RULE: LawRule = {
	where: 'everywhere',
	hours: { [EVERY_DAY]: '08:00-21:00' },
	covers: EVERY_PURPOSE,
	citation:
		"US TCPA, 47 CFR 64.1200(c)(1): no telephone solicitation before 8 a.m. or after 9 p.m. at the called party's location; FCC 24-17 (2024) makes AI-generated voices artificial voices under the TCPA. The package keeps these hours for every call, everywhere",
};

/** Stricter rules, each with its source. */
export const RULES: LawRule[] = [
	{
		where: 'Florida',
		countryCode: US,
		regions: ['FL'],
		hours: { [EVERY_DAY]: '08:00-20:00' },
		limits: THREE_A_DAY,
		covers: SALES,
		citation:
			"Fla. Stat. 501.616(6) (2023): calls only from 8 a.m. to 8 p.m. in the called person's time zone, and at most 3 calls in 24 hours to the same person on the same subject",
	},
	{
		where: 'Oklahoma',
		countryCode: US,
		regions: ['OK'],
		hours: { [EVERY_DAY]: '08:00-20:00' },
		limits: THREE_A_DAY,
		covers: SALES,
		citation:
			'Oklahoma Telephone Solicitation Act of 2022 (15 O.S. 775C.1 and following): calls only from 8 a.m. to 8 p.m., at most 3 calls in 24 hours on the same subject; an Oklahoma area code is presumed to be an Oklahoma resident',
	},
	{
		where: 'Texas',
		countryCode: US,
		regions: ['TX'],
		hours: { 'Mon-Sat': '09:00-21:00', Sun: '12:00-21:00' },
		covers: SALES,
		citation:
			"Tex. Bus. & Com. Code 301.051: no telephone solicitation before 9 a.m. or after 9 p.m. on a weekday or Saturday, or before noon or after 9 p.m. on a Sunday, at the purchaser's location",
	},
	{
		where: 'Louisiana',
		countryCode: US,
		regions: ['LA'],
		hours: { 'Mon-Sat': '08:00-20:00' },
		holidays: [LOUISIANA],
		covers: SALES_AND_SURVEYS,
		citation:
			'La. R.S. 45:811: no call (by an automatic dialer or a live operator) to advertise or offer for sale, or to conduct polls or solicit information, before 8 a.m. or after 8 p.m., on a Sunday, or on a state holiday (La. R.S. 1:55)',
	},
	{
		where: 'Alabama',
		countryCode: US,
		regions: ['AL'],
		hours: { 'Mon-Sat': '08:00-20:00' },
		holidays: [ALABAMA],
		covers: SALES,
		citation:
			'Ala. Admin. Code r. 770-X-5-.17(1)(b): automated telephone solicitation only from 8 a.m. to 8 p.m., never on a Sunday or a state holiday (Ala. Code 1-3-8)',
	},
	{
		where: 'Utah',
		countryCode: US,
		regions: ['UT'],
		hours: { 'Mon-Sat': '08:00-21:00' },
		holidays: [UTAH],
		covers: SALES,
		citation:
			'Utah Code 13-25a-103(3): no telephone solicitation without prior express consent before 8 a.m. or after 9 p.m., on a Sunday, or on a legal holiday (Utah Code 63G-1-301)',
	},
	{
		where: 'Mississippi',
		countryCode: US,
		regions: ['MS'],
		// UTC-6 all year: in summer, 08:00 CST is 09:00 on Mississippi's clocks.
		zone: 'Etc/GMT+6',
		zoneName: 'Central Standard Time',
		hours: { 'Mon-Sat': '08:00-20:00' },
		covers: SALES,
		citation:
			'Miss. Code 77-3-723: telephone solicitation only from 8 a.m. to 8 p.m. Central Standard Time (read as UTC-6 all year, so 09:00 to 21:00 on summer clocks), never on a Sunday (its holiday ban went with the Public Service Commission rules repealed in 2023-24)',
	},
	{
		where: 'Rhode Island',
		countryCode: US,
		regions: ['RI'],
		hours: { 'Mon-Fri': '09:00-18:00', Sat: '10:00-17:00' },
		holidays: [RHODE_ISLAND, US_FEDERAL],
		covers: SALES,
		citation:
			'R.I. Gen. Laws 5-61-3.6: unsolicited telephonic sales calls only from 9 a.m. to 6 p.m. on weekdays and 10 a.m. to 5 p.m. on Saturdays, never on a Sunday or a state or federal holiday (R.I. Gen. Laws 25-1-1; 5 U.S.C. 6103)',
	},
	{
		where: 'Maryland',
		countryCode: US,
		regions: ['MD'],
		hours: { [EVERY_DAY]: '08:00-20:00' },
		limits: THREE_A_DAY,
		covers: SALES,
		citation:
			"Md. Com. Law 14-4502 (Stop the Spam Calls Act, 2023): telephone solicitation only from 8 a.m. to 8 p.m. in the called party's time zone, at most 3 calls in 24 hours on the same subject",
	},
	{
		where: 'Washington',
		countryCode: US,
		regions: ['WA'],
		hours: { [EVERY_DAY]: '08:00-20:00' },
		covers: SALES,
		citation:
			'RCW 19.158.040(2): a commercial telephone solicitor calls only from 8 a.m. to 8 p.m. at the location of the called person',
	},
	{
		where: 'Massachusetts',
		countryCode: US,
		regions: ['MA'],
		hours: { [EVERY_DAY]: '08:00-20:00' },
		covers: SALES,
		citation: '201 CMR 12.02(2): no unsolicited telephonic sales call before 8 a.m. or after 8 p.m.',
	},
	{
		where: 'Connecticut',
		countryCode: US,
		regions: ['CT'],
		hours: { [EVERY_DAY]: '09:00-20:00' },
		covers: SALES,
		citation:
			'Conn. Gen. Stat. 42-288a (Public Act 23-98): telephone solicitation only from 9 a.m. to 8 p.m.; a Connecticut area code is presumed a Connecticut resident',
	},
	{
		where: 'Canada',
		countryCode: US,
		// `Canada`: the area codes of no province (600, 622, 633), which ring somewhere in Canada.
		regions: ['AB', 'BC', 'British Colombia', 'MB', 'NB', 'NL', 'NS', 'NT', 'NU', 'ON', 'PE', 'QC', 'SK', 'YT', 'Canada'],
		hours: { 'Mon-Fri': '09:00-21:30', 'Sat-Sun': '10:00-18:00' },
		covers: SALES,
		citation:
			"CRTC Unsolicited Telecommunications Rules, Part III: telemarketing calls only from 9 a.m. to 9:30 p.m. on weekdays and 10 a.m. to 6 p.m. on weekends, the called consumer's time",
	},
	{
		where: 'France',
		countryCode: '33',
		hours: { 'Mon-Fri': '10:00-13:00, 14:00-20:00' },
		holidays: [FRANCE],
		limits: [{ calls: 4, days: 30 }],
		covers: SALES,
		citation:
			'Code de la consommation D223-9 (decree 2022-1313, in force 2023-03-01): canvassing calls only on weekdays from 10 a.m. to 1 p.m. and 2 p.m. to 8 p.m., never on a Saturday, Sunday or public holiday (Code du travail L3133-1), at most 4 calls to the same consumer in 30 days',
	},
	{
		where: 'Australia',
		countryCode: '61',
		hours: { 'Mon-Fri': '09:00-20:00', Sat: '09:00-17:00' },
		holidays: [AUSTRALIA],
		covers: SALES_AND_SURVEYS,
		citation:
			"Telecommunications (Telemarketing and Research Calls) Industry Standard 2017: telemarketing calls only from 9 a.m. to 8 p.m. on weekdays and 9 a.m. to 5 p.m. on Saturdays, never on a Sunday or a national public holiday, at the called person's location. The standard covers research calls too, with hours of their own the package has not read: it keeps the telemarketing window for them",
	},
	{
		where: 'South Africa',
		countryCode: '27',
		hours: { 'Mon-Fri': '08:00-20:00', Sat: '09:00-13:00' },
		holidays: [SOUTH_AFRICA],
		covers: SALES,
		citation:
			'Consumer Protection Act 68 of 2008, s 12, and its regulations (GN R293 of 2011), reg. 4: direct marketing calls only from 8 a.m. to 8 p.m. on weekdays and 9 a.m. to 1 p.m. on Saturdays, never on a Sunday or a public holiday (Public Holidays Act 36 of 1994)',
	},
];

/**
 * Unpod's own engine, before it dials, holds a call outside 09:00-20:00 in the zone it reads from
 * the country code alone, and lets it go at 09:00 there the next day. Where that zone is not every
 * number's (every +1 number is New York to it, every +61 number Sydney), a call let go then may
 * ring at 06:00 in California: the package calls such numbers only inside that window too, so
 * that Unpod never holds one. Elsewhere its zone is the callee's own; the package sends no call
 * outside the callee's own window either, since a call Unpod held would go at 09:00, before
 * France's 10:00.
 */
export const UNPOD_ENGINE: Array<LawRule & { zone: string }> = [
	{
		where: "Unpod's engine",
		countryCode: US,
		zone: 'America/New_York',
		hours: { [EVERY_DAY]: '09:00-20:00' },
		covers: EVERY_PURPOSE,
		citation:
			'Unpod backend 5f97d21, apps/super/super_services/libs/core/timezone_utils.py (COUNTRY_TIMEZONE_MAP): every +1 number is read as America/New_York; outside 09:00-20:00 the task is held until 09:00 the next day there',
	},
	{
		where: "Unpod's engine",
		countryCode: '61',
		zone: 'Australia/Sydney',
		hours: { [EVERY_DAY]: '09:00-20:00' },
		covers: EVERY_PURPOSE,
		citation:
			'Unpod backend 5f97d21, apps/super/super_services/libs/core/timezone_utils.py (COUNTRY_TIMEZONE_MAP): every +61 number is read as Australia/Sydney; outside 09:00-20:00 the task is held until 09:00 the next day there',
	},
];

/** The longest period of any limit of the table, in days: how far the reads of recent tasks reach. */
export const LONGEST_LIMIT_DAYS = Math.max(1, ...RULES.flatMap((rule) => rule.limits ?? []).map((limit) => limit.days));

/** Unpod's engine's window for a number of `countryCode`, where its zone is not every number's. */
export const unpodEngineFor = (countryCode: string | undefined) =>
	UNPOD_ENGINE.filter((rule) => rule.countryCode === countryCode);

/**
 * The rules that cover a number's calls of `purpose`: the base rule, and each stricter one of its
 * country and region that covers that purpose.
 */
export function rulesFor(
	countryCode: string | undefined,
	region: string | undefined,
	purpose: Purpose = 'sales',
): LawRule[] {
	return [BASE_RULE, ...RULES].filter(
		(rule) =>
			rule.covers.includes(purpose) &&
			(rule.countryCode === undefined ||
				(rule.countryCode === countryCode &&
					(!rule.regions || (region !== undefined && rule.regions.includes(region))))),
	);
}
