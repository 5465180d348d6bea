import type { Purpose } from './callPurposes';

/**
 * The places the law tables name by their numbers' countries (ISO 3166, as libphonenumber reads a
 * number's country), and what was read of each rule's source: one list and one word for each.
 */

/** The United States and the territories where its federal rules hold, as libphonenumber names +1 numbers. */
export const UNITED_STATES: readonly string[] = ['US', 'PR', 'GU', 'VI', 'AS', 'MP'];

/** France and the overseas departments where its Code de la consommation holds. */
export const FRANCE: readonly string[] = ['FR', 'GP', 'MQ', 'GF', 'RE', 'YT'];

/** The member states of the European Union (France's overseas departments among them), where the AI Act holds. */
export const EUROPEAN_UNION: readonly string[] = [
	...'AT BE BG HR CY CZ DK EE FI DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE'.split(' '),
	...FRANCE,
];

/**
 * What was read of a rule's source: the text itself; a summary by the authority that enforces it;
 * or others' summaries (law firms, the trade press). docs/consent.md says it for each rule.
 */
export type SourceRead = 'text' | 'regulator summary' | 'summaries';

/** A rule of a law table: the numbers' countries it covers, for +1 their regions, and the calls. */
export interface PlacedRule {
	countries: readonly string[];
	/** For +1 numbers: the states or provinces it covers (the area code's, as Google's data names it); none: all. */
	regions?: readonly string[];
	covers: readonly Purpose[];
}

/** Whether `rule` holds for a call of `purpose` to a number of `country` (and, for +1, `region`). */
export const holdsFor = (rule: PlacedRule, country: string, region: string | undefined, purpose: Purpose) =>
	rule.countries.includes(country) &&
	rule.covers.includes(purpose) &&
	(!rule.regions || (region !== undefined && rule.regions.includes(region)));
