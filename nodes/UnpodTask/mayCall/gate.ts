/**
 * Whether a contact may be called, asked the same way by every operation that places calls:
 * the checks before any request, in a fixed order (its number, its country, do-not-call, consent,
 * who calls), each contact stopped by the first that fails. Its alternate number is checked as its
 * number is, but for consent and calling hours, which are the person's. The law's hours and limits, then the
 * space's cap, come after, in the send step (timing.ts), where the space's recent calls are read.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { purposeOf } from '../../shared/callPurposes';
import type { Purpose } from '../../shared/callPurposes';
import { PhonePlaces } from '../../shared/callingHours/zones';
import { askedText, consentDocument, CONSENT_FIELDS } from '../../shared/consent/record';
import type { ConsentAsked, ConsentMissing } from '../../shared/consent/record';
import { disclosureRulesFor, ruleAsking } from '../../shared/disclosure/rules';
import { languageOf } from '../../shared/disclosure/openings';
import type { Caller, Language, OpeningSays } from '../../shared/disclosure/openings';
import type { DoNotCallList } from '../../shared/doNotCall';
import { BUSINESS_CONTACT, CALLING_ON_BEHALF_OF, callerOf, Openings } from './caller';
import { consentModeOf, consentRecordOf, consentVerdict, revocationOf } from './consent';
import { doNotCallListOf, doNotCallReason } from './doNotCall';
import { AllowedNumbers } from './numbers';
import type { NumberPlans } from '../../shared/allowedNumbers/numberPlans';
import { ItemParameters } from '../../shared/parameters';

/** The checks before any request, in the order they are made: an item names the first that stopped it. */
export const CHECK_ORDER = ['number', 'country', 'doNotCall', 'consent'] as const;
export type StoppedBy = (typeof CHECK_ORDER)[number];

/** A contact that may not be called: by which check, the sentence its item says, and the cause alone. */
export interface Stop {
	by: StoppedBy;
	/** `+14155550123 is on the do-not-call list (...); not called`: the row's label goes before it. */
	reason: string;
	/** The cause alone: `its Do Not Call says yes`; for consent, the problem and the law. */
	why: string;
	/** A consent the person withdrew: treated as an opt-out where Unpod still calls (Follow Up). */
	revoked?: boolean;
}

/** A value that must be fixed before anything is sent: a row's field, or a node's parameter. */
export interface Bad {
	field: string;
	message: string;
	description?: string;
}

/** A contact that may be called: its document as sent, who calls, in which language and saying what, and what its item says. */
export interface Go {
	document: IDataObject;
	caller: Caller;
	language: Language;
	opening: OpeningSays;
	says: IDataObject;
}

export type GateAnswer = { stop: Stop } | { bad: Bad } | { go: Go };

/** What an opening says beyond who calls, one object each: 100,000 rows share two. */
const COMMERCIAL_CALL: OpeningSays = { commercial: true };
const PLAIN_CALL: OpeningSays = {};

/** What `unpod_consent` says of a call placed. */
const CONSENT_OFF = 'off: not asked (Consent: Off); a revocation still stops a call';
const CONSENT_NOT_ASKED = 'not asked: no law of the table asks consent for these calls';

/** One gate for a run of a node: the run's do-not-call list, number plans and openings, read once. */
export class CallGate {
	private parameters: ItemParameters;
	private numbers: AllowedNumbers;
	private doNotCall: DoNotCallList;
	private places?: PhonePlaces;
	private openings = new Openings();
	/** One `says` object per distinct text: 100,000 items share a few. */
	private saying = new Map<string, IDataObject>();

	constructor(
		private context: IExecuteFunctions,
		readonly now = Date.now(),
		/** The calls' purpose where the operation fixes it (an approval's: informational); else The Calls Are. */
		private purpose?: Purpose,
	) {
		this.parameters = new ItemParameters(context);
		this.numbers = new AllowedNumbers(context, this.parameters);
		this.doNotCall = doNotCallListOf(context);
	}

	/**
	 * The contact `document` of item `itemIndex` (read and checked as a contact): the first check
	 * that stops it, a value to fix, or its call as it goes. `documentOwnsRecord`: the document is
	 * one of a JSON array's, whose own consent fields are its record.
	 */
	check(itemIndex: number, given: IDataObject, documentOwnsRecord = false): GateAnswer {
		const { context } = this;
		// A number Unpod stored (Follow Up) is read as a row's is: `+44 (0)20 ...` is `+4420...`.
		const document = this.normalized(given);
		const number = String(document.contact_number ?? '');
		const options = this.parameters.get<IDataObject>('options', itemIndex, {});
		const facts = this.numbers.facts(number);
		const allowed = this.numbers.rulesOf(itemIndex);
		const notAllowed = this.numbers.refusal(number, allowed, facts);
		if (notAllowed) return { stop: { ...notAllowed, why: notAllowed.reason } };
		// Unpod keeps the alternate number and may dial it: a contact whose alternate may not be called is not sent at all.
		const alternate = document.alternate_number === undefined ? undefined : String(document.alternate_number);
		const alternateNotAllowed = alternate && this.numbers.refusal(alternate, allowed, undefined, 'alternate_number');
		if (alternateNotAllowed) return { stop: { ...alternateNotAllowed, why: alternateNotAllowed.reason } };
		const optedOut = this.optOutOf(itemIndex, document);
		if (optedOut)
			return {
				stop: {
					by: 'doNotCall',
					reason: `${number} is on the do-not-call list (${optedOut}); not called`,
					why: optedOut,
				},
			};
		if (alternate && this.doNotCall.has(alternate))
			return {
				stop: {
					by: 'doNotCall',
					reason: `alternate_number ${alternate} is on the do-not-call list (Do-Not-Call Numbers); not called`,
					why: 'Do-Not-Call Numbers (alternate_number)',
				},
			};
		const purpose = this.purpose ?? purposeOf(options.callsAre);
		const mode = consentModeOf(this.parameters.get('consent', itemIndex, 'whereLawAsks'));
		let sent = document;
		let consent = CONSENT_OFF;
		if (mode === 'off') {
			// No consent asked; a revocation is an opt-out, and still stops the call.
			const revoked = this.revocationOf(itemIndex, document, documentOwnsRecord);
			if (revoked && 'bad' in revoked) return revoked;
			if (revoked) return { stop: consentStop(number, revoked.missing) };
		} else {
			const read = consentRecordOf(context, itemIndex, document, documentOwnsRecord);
			if ('field' in read) return { bad: read };
			const { asked, missing } = consentVerdict(mode, read.record, facts.country, purpose, this.now);
			if (missing) return { stop: consentStop(number, missing) };
			sent = { ...document, ...consentDocument(read.record) };
			consent = asked ? consentMet(asked, purpose) : CONSENT_NOT_ASKED;
		}
		const region = facts.country === 'US' || facts.country === 'CA' ? this.placesOf().of(number)?.region : undefined;
		const caller = callerOf(this.parameters, itemIndex, options);
		const rules = disclosureRulesFor(facts.country, region, purpose);
		const toName = !caller.business && ruleAsking(rules, 'business');
		if (toName)
			return {
				bad: {
					field: CALLING_ON_BEHALF_OF,
					message: `Calling On Behalf Of is empty, and the law of ${toName.where} asks a call to say who calls (${toName.article})`,
					description: 'Set Calling On Behalf Of to the name your business is registered under.',
				},
			};
		const toReach = !caller.contact && ruleAsking(rules, 'contact');
		if (toReach)
			return {
				bad: {
					field: BUSINESS_CONTACT,
					message: `Business Contact is empty, and the law of ${toReach.where} asks a call to say how to reach the business (${toReach.article})`,
					description: 'Set Business Contact to a telephone number (and an address) of your business.',
				},
			};
		const { language = languageOf(facts.country, region), ...who } = caller;
		const opening = ruleAsking(rules, 'commercial') ? COMMERCIAL_CALL : PLAIN_CALL;
		return { go: { document: sent, caller: who, language, opening, says: this.says(consent) } };
	}

	/** The context of a call that goes: the opening, then `callContext`; one string for every equal call. */
	contextOf(go: Go, callContext: string): string {
		return this.openings.contextOf(go.language, go.caller, go.opening, callContext);
	}

	/** Why the contact must not be called as an opt-out (its Do Not Call, its `do_not_call`, the list), if it must not. */
	optOutOf(itemIndex: number, document: IDataObject): string | undefined {
		return doNotCallReason(this.context, itemIndex, this.normalized(document), this.doNotCall);
	}

	/** The run's number plans, for reading the rows' numbers with the regular expressions the gate compiled. */
	get plans(): NumberPlans {
		return this.numbers.plans;
	}

	/** `document` with its numbers international however they were written; itself when they already are. */
	private normalized(document: IDataObject): IDataObject {
		let out = document;
		for (const field of ['contact_number', 'alternate_number']) {
			const value = document[field];
			if (typeof value !== 'string' && typeof value !== 'number') continue;
			const number = this.numbers.normalized(String(value));
			if (number !== value) out = { ...out, [field]: number };
		}
		return out;
	}

	/** A revoked consent (not given again after), a revocation that is no date, or undefined. */
	revocationOf(
		itemIndex: number,
		document: IDataObject,
		documentOwnsRecord = false,
	): { bad: Bad } | { missing: ConsentMissing } | undefined {
		return revocationOf(this.context, itemIndex, document, documentOwnsRecord, this.now);
	}

	private placesOf(): PhonePlaces {
		this.places ??= new PhonePlaces();
		return this.places;
	}

	private says(consent: string): IDataObject {
		let says = this.saying.get(consent);
		if (!says) this.saying.set(consent, (says = { unpod_consent: consent }));
		return says;
	}
}

/** A contact stopped for want of consent: what is missing, and the law that asks it. */
function consentStop(number: string, missing: ConsentMissing): Stop {
	const why = `${missing.problem}; ${missing.law}`;
	return {
		by: 'consent',
		reason: `${number}: ${why}; not called`,
		why,
		...(missing.field === CONSENT_FIELDS.revokedAt ? { revoked: true } : {}),
	};
}

/** `on record: the law of the United States asks written consent for ... (47 CFR ...)`. */
const consentMet = (asked: ConsentAsked, purpose: Purpose) => `on record: ${askedText(asked, purpose)}`;
