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

/** The rules that cover a number: the base rule, and each stricter one of its region. */
export function rulesFor(countryCode: string | undefined, region: string | undefined): HoursRule[] {
	return [
		BASE_RULE,
		...RULES.filter(
			(rule) => rule.countryCode === countryCode && region !== undefined && (rule.regions ?? []).includes(region),
		),
	];
}
