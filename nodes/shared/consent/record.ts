/**
 * A contact's consent record, as a row or a CRM keeps it (`consent_at`, `consent_source`,
 * `consent_wording`, `consent_revoked_at`, `current_contract`), read and checked against what the
 * law asks (rules.ts). Pure: no request, no n8n context, no clock but the `now` it is given.
 */
import type { IDataObject } from 'n8n-workflow';
import type { Purpose } from '../callPurposes';
import { PURPOSE_NAMES } from '../callPurposes';
import { saysYes } from '../doNotCall';
import { userTime } from '../time';
import { consentRulesFor, strictestRule } from './rules';
import type { ConsentLevel, ConsentRecordKept, ConsentRule } from './rules';

/** The document fields a consent record travels in, to Unpod and back in every task list. */
export const CONSENT_FIELDS = {
	at: 'consent_at',
	source: 'consent_source',
	wording: 'consent_wording',
	revokedAt: 'consent_revoked_at',
	currentContract: 'current_contract',
} as const;

export type ConsentField = keyof typeof CONSENT_FIELDS;

/** The values a record is read from, each as a row or an expression gives it. */
export type ConsentValues = Partial<Record<ConsentField, unknown>>;

export interface ConsentRecord {
	/** When the person consented (epoch ms). */
	at?: number;
	source?: string;
	wording?: string;
	/** When it was revoked (epoch ms), or true where a row only says that it was. */
	revokedAt?: number | true;
	currentContract: boolean;
}

const empty = (value: unknown) => value === undefined || value === null || String(value).trim() === '';
const NO = /^\s*(false|no|n|0)\s*$/i;
const text = (value: unknown) => (empty(value) ? undefined : String(value).trim());

/**
 * A date as a record holds it, epoch ms; undefined when it is none. A number, or a text of digits
 * alone, is an instant only as epoch ms: below 1e11 it is none (a sheet's serial date, 46082, would
 * read as a day of 1970; the text "1" as 2001).
 */
function dateOf(value: unknown): number | undefined {
	const digits = typeof value === 'string' && /^\s*\d+(?:\.\d+)?\s*$/.test(value) ? Number(value) : value;
	return typeof digits === 'number' && Math.abs(digits) < 1e11 ? undefined : userTime(digits);
}

/** A record read from its values; a date that is no date is an error naming its field. */
export function readConsent(values: ConsentValues): { record: ConsentRecord } | { field: string; message: string } {
	const at = empty(values.at) ? undefined : dateOf(values.at);
	if (!empty(values.at) && at === undefined)
		return {
			field: CONSENT_FIELDS.at,
			message: `consent_at "${String(values.at)}" is not a date and time (use ISO 8601, e.g. 2026-05-01T09:30:00Z)`,
		};
	let revokedAt: number | true | undefined;
	const revoked = values.revokedAt;
	if (!empty(revoked) && !(typeof revoked === 'string' && NO.test(revoked)) && revoked !== false) {
		revokedAt = saysYes(revoked) ? true : dateOf(revoked);
		if (revokedAt === undefined)
			return {
				field: CONSENT_FIELDS.revokedAt,
				message: `consent_revoked_at "${String(revoked)}" is neither a date and time nor yes`,
			};
	}
	const source = text(values.source);
	const wording = text(values.wording);
	return {
		record: {
			...(at !== undefined ? { at } : {}),
			...(source ? { source } : {}),
			...(wording ? { wording } : {}),
			...(revokedAt !== undefined ? { revokedAt } : {}),
			currentContract: saysYes(values.currentContract),
		},
	};
}

/** The record as a task's document carries it: only what it holds, dates in ISO 8601. */
export function consentDocument(record: ConsentRecord): IDataObject {
	const iso = (ms: number) => new Date(ms).toISOString();
	return {
		...(record.at !== undefined ? { [CONSENT_FIELDS.at]: iso(record.at) } : {}),
		...(record.source ? { [CONSENT_FIELDS.source]: record.source } : {}),
		...(record.wording ? { [CONSENT_FIELDS.wording]: record.wording } : {}),
		...(record.revokedAt !== undefined
			? { [CONSENT_FIELDS.revokedAt]: record.revokedAt === true ? 'yes' : iso(record.revokedAt) }
			: {}),
		...(record.currentContract ? { [CONSENT_FIELDS.currentContract]: true } : {}),
	};
}

/** The node's Consent: where the law asks it, for every call, or not checked. */
export type ConsentMode = 'whereLawAsks' | 'always' | 'off';

/** What a call asks: a level and the rule (none for Consent: Always where no rule asks, or an unknown country). */
export interface ConsentAsked {
	level: ConsentLevel;
	/** Documented: the wording kept with the date, though the law does not ask it written. */
	keeps?: ConsentRecordKept;
	rule?: ConsentRule;
	/** Why, where no rule of the table asks. */
	why?: string;
}

/**
 * What a call of `purpose` to a number of `country` asks, under `mode`; undefined when nothing is
 * asked. A number whose country is not known asks express consent: its law cannot be told.
 */
export function consentAsked(
	mode: Exclude<ConsentMode, 'off'>,
	country: string | undefined,
	purpose: Purpose,
	record: Pick<ConsentRecord, 'currentContract'>,
): ConsentAsked | undefined {
	const rule = strictestRule(consentRulesFor(country, purpose, record));
	if (rule) return { level: rule.asks, ...(rule.keeps ? { keeps: rule.keeps } : {}), rule };
	if (mode === 'always') return { level: 'express', why: 'Consent: Always' };
	if (!country) return { level: 'express', why: "the number's country is not known" };
	return undefined;
}

/** What stops a call for want of consent: what is missing, and the law that asks it. */
export interface ConsentMissing {
	/** The field to fill or fix. */
	field: string;
	problem: string;
	/** The law or setting that asks it, as an item says it. */
	law: string;
}

const dateText = (ms: number) => new Date(ms).toISOString();

/** The law as an item names it: `the United States asks written consent for sales calls (47 CFR ...)`. */
export function askedText(asked: ConsentAsked, purpose: Purpose): string {
	if (asked.rule)
		return `the law of ${asked.rule.where} asks ${asked.level} consent${asked.keeps ? `, ${asked.keeps},` : ''} for ${PURPOSE_NAMES[purpose]} calls (${asked.rule.article})`;
	return `${asked.why} asks express consent`;
}

/**
 * Whether `record` allows a call at `now`: a revocation always stops it (a person who withdrew
 * consent is not called, asked or not); else what `asked` asks must be there, dated before now.
 * Undefined: the call may go.
 */
export function consentMissing(
	record: ConsentRecord,
	asked: ConsentAsked | undefined,
	purpose: Purpose,
	now: number,
): ConsentMissing | undefined {
	const law = asked ? askedText(asked, purpose) : 'a person who revoked consent is not called';
	const { revokedAt, at } = record;
	// A consent given again after it was revoked stands.
	if (revokedAt !== undefined && (revokedAt === true || at === undefined || revokedAt >= at))
		return {
			field: CONSENT_FIELDS.revokedAt,
			problem: `consent revoked${revokedAt === true ? '' : ` on ${dateText(revokedAt)}`}`,
			law,
		};
	if (!asked) return undefined;
	if (at === undefined) return { field: CONSENT_FIELDS.at, problem: 'no consent on record (consent_at is empty)', law };
	if (at > now) return { field: CONSENT_FIELDS.at, problem: `consent dated after now (${dateText(at)})`, law };
	if ((asked.level === 'written' || asked.keeps === 'documented') && !record.wording)
		return {
			field: CONSENT_FIELDS.wording,
			problem: 'no wording of what the person agreed to (consent_wording is empty)',
			law,
		};
	return undefined;
}
