/**
 * The law of where the phone rings, as one table: the hours a call may start and how many calls a
 * person may get in 24 hours. A rule applies to the numbers of its regions (for +1 numbers, a
 * state as Google's data names the area code). Add a rule only with its source.
 */

export interface HoursRule {
	/** Who it protects, as an item names it. */
	where: string;
	/** Country calling code and regions (two-letter states for +1) the rule covers; none: every number. */
	countryCode?: string;
	regions?: string[];
	/** `HH:MM` local: calls start from `start` and before `end`. */
	start: string;
	end: string;
	/** At most this many calls to the same number in 24 hours. */
	maxCallsPer24Hours?: number;
	citation: string;
}

/** Every number, wherever it rings. */
export const BASE_RULE: HoursRule = {
	where: 'everywhere',
	start: '08:00',
	end: '21:00',
	citation:
		"US TCPA, 47 CFR 64.1200(c)(1): no telephone solicitation before 8 a.m. or after 9 p.m. at the called party's location; FCC 24-17 (2024) makes AI-generated voices artificial voices under the TCPA",
};

/** Stricter rules, each with its source. */
export const RULES: HoursRule[] = [
	{
		where: 'Florida',
		countryCode: '1',
		regions: ['FL'],
		start: '08:00',
		end: '20:00',
		maxCallsPer24Hours: 3,
		citation:
			"Fla. Stat. 501.616(6) (2023): calls only from 8 a.m. to 8 p.m. in the called person's time zone, and at most 3 calls in 24 hours to the same person on the same subject",
	},
	{
		where: 'Oklahoma',
		countryCode: '1',
		regions: ['OK'],
		start: '08:00',
		end: '20:00',
		maxCallsPer24Hours: 3,
		citation:
			'Oklahoma Telephone Solicitation Act of 2022 (15 O.S. 775C.1 and following): calls only from 8 a.m. to 8 p.m., at most 3 calls in 24 hours on the same subject; an Oklahoma area code is presumed to be an Oklahoma resident',
	},
];

/**
 * Unpod's own engine, before it dials, holds a call outside 09:00-20:00 in the zone it reads from
 * the country code alone, and lets it go at 09:00 there the next day. Where that zone is not every
 * number's (every +1 number is New York to it, every +61 number Sydney), a call let go then may
 * ring at 06:00 in California: the package calls such numbers only inside that window too, so
 * that Unpod never holds one. Elsewhere its zone is the callee's own, and a held call goes at a
 * legal hour.
 */
export const UNPOD_ENGINE: Array<HoursRule & { zone: string }> = [
	{
		where: "Unpod's engine",
		countryCode: '1',
		zone: 'America/New_York',
		start: '09:00',
		end: '20:00',
		citation:
			'Unpod backend 5f97d21, apps/super/super_services/libs/core/timezone_utils.py (COUNTRY_TIMEZONE_MAP): every +1 number is read as America/New_York; outside 09:00-20:00 the task is held until 09:00 the next day there',
	},
	{
		where: "Unpod's engine",
		countryCode: '61',
		zone: 'Australia/Sydney',
		start: '09:00',
		end: '20:00',
		citation:
			'Unpod backend 5f97d21, apps/super/super_services/libs/core/timezone_utils.py (COUNTRY_TIMEZONE_MAP): every +61 number is read as Australia/Sydney; outside 09:00-20:00 the task is held until 09:00 the next day there',
	},
];

/** Unpod's engine's window for a number of `countryCode`, where its zone is not every number's. */
export const unpodEngineFor = (countryCode: string | undefined) =>
	UNPOD_ENGINE.filter((rule) => rule.countryCode === countryCode);

/** The rules that cover a number: the base rule, and each stricter one of its region. */
export function rulesFor(countryCode: string | undefined, region: string | undefined): HoursRule[] {
	return [
		BASE_RULE,
		...RULES.filter(
			(rule) => rule.countryCode === countryCode && region !== undefined && (rule.regions ?? []).includes(region),
		),
	];
}
