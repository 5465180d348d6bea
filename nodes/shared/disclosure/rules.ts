/**
 * What a call says of itself, as the law of the place where the phone rings asks it: that an AI
 * speaks, for which business, how to reach that business, that the call is recorded. One table, a
 * row per place, each with its source. The package's opening (openings.ts) says all four on every
 * call; the table says where a call may not go without the business named, or without a way to
 * reach it. Add a row only with the source you read; docs/consent.md lists each with what was read.
 */
import { EVERY_PURPOSE } from '../callPurposes';
import type { Purpose } from '../callPurposes';
import { EUROPEAN_UNION, FRANCE, holdsFor, UNITED_STATES } from '../lawPlaces';
import type { PlacedRule, SourceRead } from '../lawPlaces';

/** What a rule asks the call to say: an AI speaks, the business, how to reach it, that it is recorded, that it is commercial. */
export type Disclosure = 'ai' | 'business' | 'contact' | 'recorded' | 'commercial';

export interface DisclosureRule extends PlacedRule {
	where: string;
	says: readonly Disclosure[];
	article: string;
	citation: string;
	read: SourceRead;
}

export const DISCLOSURE_RULES: readonly DisclosureRule[] = [
	{
		where: 'the United States',
		countries: UNITED_STATES,
		covers: EVERY_PURPOSE,
		says: ['business', 'contact'],
		article: '47 CFR 64.1200(b)(1)-(2)',
		citation:
			'47 CFR 64.1200(b): every artificial or prerecorded voice message states clearly, at its beginning, the identity of the business responsible for the call (its registered name), and during or after the message a telephone number of that business',
		read: 'text',
	},
	{
		where: 'California',
		countries: ['US'],
		regions: ['CA'],
		covers: EVERY_PURPOSE,
		says: ['ai', 'business', 'contact'],
		article: 'Cal. Pub. Util. Code 2874',
		citation:
			"Cal. Pub. Util. Code 2874 (AB 2905, 2024): before an automatic dialing-announcing device plays its message, an unrecorded, natural-voice announcement states the nature of the call and the name, address and telephone number of the business, asks whether the person consents to hear the message, and says whether it uses an artificial voice (one generated or significantly altered using artificial intelligence). The opening says what an AI can say of this; the live announcement is not the package's to make (docs/consent.md)",
		read: 'text',
	},
	{
		where: 'Canada',
		countries: ['CA'],
		covers: EVERY_PURPOSE,
		says: ['business', 'contact'],
		article: 'CRTC Unsolicited Telecommunications Rules, Part IV',
		citation:
			'CRTC Unsolicited Telecommunications Rules, Part IV: a call by an automatic dialing-announcing device (a pre-recorded or synthesized voice) begins by identifying the person on whose behalf it is made, with a brief description of its purpose, and gives a telephone number and an address at which that person can be reached',
		read: 'summaries',
	},
	{
		where: 'the United Kingdom',
		countries: ['GB'],
		covers: ['sales'],
		says: ['business', 'contact'],
		article: 'PECR regulation 24',
		citation:
			'Privacy and Electronic Communications (EC Directive) Regulations 2003, reg. 24: a marketing call by an automated calling system gives the name of the caller and an address or a freephone number at which it can be reached',
		read: 'regulator summary',
	},
	{
		where: 'France',
		countries: FRANCE,
		covers: ['sales'],
		says: ['business', 'commercial'],
		article: 'Code de la consommation L221-16',
		citation:
			'Code de la consommation L221-16: at the start of a canvassing call the professional says clearly who calls, on whose behalf, and that the call is commercial',
		read: 'text',
	},
	{
		where: 'the European Union',
		countries: EUROPEAN_UNION,
		covers: EVERY_PURPOSE,
		says: ['ai'],
		article: 'EU AI Act, art. 50(1)',
		citation:
			'Regulation (EU) 2024/1689 (AI Act), art. 50(1), applicable from 2 August 2026 (art. 113): an AI system that interacts directly with people is made so that they are told they are interacting with an AI system',
		read: 'text',
	},
	{
		where: 'the US states where every party consents to a recording',
		countries: ['US'],
		regions: ['CA', 'FL', 'IL', 'MD', 'MA', 'PA', 'WA', 'MT', 'NH', 'CT'],
		covers: EVERY_PURPOSE,
		says: ['recorded'],
		article: 'state recording laws',
		citation:
			'California Penal Code 632, Maryland Cts. & Jud. Proc. 10-402, Washington RCW 9.73.030, Connecticut Gen. Stat. 52-570d (texts read); Florida Stat. 934.03, Illinois 720 ILCS 5/14-2, Massachusetts G.L. c. 272 s. 99, Pennsylvania 18 Pa.C.S. 5704, Montana MCA 45-8-213, New Hampshire RSA 570-A:2 (from summaries): every party consents before a call is recorded; Unpod records every call',
		read: 'summaries',
	},
];

/** The rules that cover a call of `purpose` to a number of `country` (and, for +1, `region`). */
export function disclosureRulesFor(
	country: string | undefined,
	region: string | undefined,
	purpose: Purpose,
): DisclosureRule[] {
	if (!country) return [];
	return DISCLOSURE_RULES.filter((rule) => holdsFor(rule, country, region, purpose));
}

/** The first rule of `rules` that asks the call to say `what`, if any. */
export const ruleAsking = (rules: readonly DisclosureRule[], what: Disclosure) =>
	rules.find((rule) => rule.says.includes(what));
