/**
 * Consent, as the law of the place where the phone rings asks it: one table, a row per place and
 * purpose, each with what it asks (express consent, or written: a wording and a time), its
 * exceptions, how long the proof is kept where the text says, and the source read. A rule covers
 * the numbers of its countries, as libphonenumber reads a number's country. Add a row only with the
 * source you read; docs/consent.md lists each with what was read.
 */
import type { Purpose } from '../callPurposes';
import { FRANCE, holdsFor, UNITED_STATES } from '../lawPlaces';
import type { PlacedRule, SourceRead } from '../lawPlaces';

/**
 * What a rule asks before a call: `express` (a consent the person gave, dated, not revoked);
 * `written` (the same, and what the person agreed to, in words: `consent_wording`).
 */
export type ConsentLevel = 'express' | 'written';

/**
 * What a rule asks of the record beside its level: `documented`, its wording kept with its date
 * (Germany's UWG 7a: the consent documented when given), without the law asking it be written.
 */
export type ConsentRecordKept = 'documented';

/** A call in the course of a current contract, about its subject (the row's Current Contract says so). */
export type ConsentException = 'currentContract';

export interface ConsentRule extends PlacedRule {
	/** The place, as an item names it. */
	where: string;
	asks: ConsentLevel;
	/** What the record must hold beside the level: its wording, for a consent documented. */
	keeps?: ConsentRecordKept;
	except?: readonly ConsentException[];
	/** How long the proof of consent is kept, where the text says. */
	keepProof?: string;
	/** The article an item names. */
	article: string;
	citation: string;
	/** What was read of the source (docs/consent.md). */
	read: SourceRead;
}

export const CONSENT_RULES: readonly ConsentRule[] = [
	{
		where: 'the United States',
		countries: UNITED_STATES,
		covers: ['survey', 'informational'],
		asks: 'express',
		article: '47 CFR 64.1200(a)(1)(iii)',
		citation:
			"47 CFR 64.1200(a)(1)(iii): no call with an artificial or prerecorded voice to a wireless number without the called party's prior express consent, but for emergency purposes; FCC 24-17 (2024): AI-generated voices are artificial voices. A US number's digits do not tell a mobile from a landline, so every number is read as a mobile",
		read: 'text',
	},
	{
		where: 'the United States',
		countries: UNITED_STATES,
		covers: ['sales'],
		asks: 'written',
		article: '47 CFR 64.1200(a)(2)-(3), (f)(9)',
		citation:
			"47 CFR 64.1200(a)(2) and (a)(3): a call that advertises or is telemarketing, with an artificial or prerecorded voice, needs the called party's prior express written consent: an agreement the person signed (an electronic signature counts) naming the number, which says it authorizes such calls and is not a condition of purchase (64.1200(f)(9))",
		read: 'text',
	},
	{
		where: 'Canada',
		countries: ['CA'],
		covers: ['sales'],
		asks: 'express',
		article: 'CRTC Unsolicited Telecommunications Rules, Part IV',
		citation:
			'CRTC Unsolicited Telecommunications Rules, Part IV: an automatic dialing-announcing device (equipment that conveys a pre-recorded or synthesized voice message) is not used to solicit without the express consent of the person called; Part I defines the device',
		read: 'summaries',
	},
	{
		where: 'France',
		countries: FRANCE,
		covers: ['sales'],
		asks: 'express',
		except: ['currentContract'],
		article: 'Code de la consommation L223-1',
		citation:
			'Code de la consommation L223-1, as rewritten by loi n° 2025-594 of 30 June 2025, art. 13 (from 11 August 2026): no telephone canvassing of a consumer who has not consented beforehand, by a free, specific, informed and unambiguous act; the professional proves the consent; except a call in the course of a current contract, about its subject',
		read: 'text',
	},
	{
		where: 'the United Kingdom',
		countries: ['GB'],
		covers: ['sales'],
		asks: 'express',
		article: 'PECR regulation 19',
		citation:
			'Privacy and Electronic Communications (EC Directive) Regulations 2003, reg. 19: direct marketing by an automated calling system (one that transmits sounds which are not live speech) only with the prior consent of the subscriber',
		read: 'regulator summary',
	},
	{
		where: 'Germany',
		countries: ['DE'],
		covers: ['sales'],
		asks: 'express',
		keeps: 'documented',
		keepProof: '5 years from the consent, and again from each call made with it (UWG 7a(2))',
		article: 'UWG 7(2), 7a',
		citation:
			'UWG 7(2) Nr. 1 and 2: advertising by telephone to a consumer, or with an automatic calling machine to anyone, without prior express consent is an unreasonable nuisance; UWG 7a: the consent is documented in an appropriate form when it is given, and the proof kept 5 years from then and from each use (the package asks for its wording and its time)',
		read: 'text',
	},
];

/** How strict a rule is: written, then express kept documented, then express. The strictest holds. */
const strictness = (rule: ConsentRule) => (rule.asks === 'written' ? 3 : rule.keeps === 'documented' ? 2 : 1);

/**
 * The rules that cover a call of `purpose` to a number of `country`, but those whose exception
 * the row's own facts meet.
 */
export function consentRulesFor(
	country: string | undefined,
	purpose: Purpose,
	facts: { currentContract: boolean },
): ConsentRule[] {
	if (!country) return [];
	return CONSENT_RULES.filter(
		(rule) =>
			holdsFor(rule, country, undefined, purpose) &&
			!(facts.currentContract && rule.except?.includes('currentContract')),
	);
}

/** The strictest of `rules` (the first of the strictest), which the call must meet; undefined: none asks. */
export function strictestRule(rules: readonly ConsentRule[]): ConsentRule | undefined {
	return rules.reduce<ConsentRule | undefined>(
		(strictest, rule) => (!strictest || strictness(rule) > strictness(strictest) ? rule : strictest),
		undefined,
	);
}
