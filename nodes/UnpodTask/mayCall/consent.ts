/**
 * Consent, as every operation that places calls keeps it: its fields (the option, and the record
 * mapped like Do Not Call), a contact's record read from its item and its document, and what the
 * law asks of it (shared/consent/). Nothing here sends anything.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import type { Purpose } from '../../shared/callPurposes';
import { consentAsked, consentMissing, readConsent, CONSENT_FIELDS } from '../../shared/consent/record';
import type {
	ConsentAsked,
	ConsentField,
	ConsentMissing,
	ConsentMode,
	ConsentRecord,
	ConsentValues,
} from '../../shared/consent/record';

type Show = Record<string, Array<string | number | boolean>>;

/**
 * Each field of the record: its parameter, label, and what it says. `always`: shown with Consent
 * Off too, where a revocation (and a consent given again after it) still holds.
 */
const RECORD_FIELDS: Array<{
	field: ConsentField;
	name: string;
	displayName: string;
	description: string;
	always?: boolean;
}> = [
	{
		field: 'at',
		name: 'consentAt',
		always: true,
		displayName: 'Consent Given At',
		description:
			"When the person consented to these calls: a date and time (ISO 8601, e.g. 2026-05-01T09:30:00Z). By default the item's consent_at; in JSON Array mode, each contact's own.",
	},
	{
		field: 'source',
		name: 'consentSource',
		displayName: 'Consent Source',
		description:
			"How the consent was given: a form, a page, a recording, a CRM record. Kept with the call; the campaign page counts calls by it. By default the item's consent_source.",
	},
	{
		field: 'wording',
		name: 'consentWording',
		displayName: 'Consent Wording',
		description:
			"What the person agreed to, as the form or the recording says it. US sales calls (written consent) and Germany (documented consent) need it. By default the item's consent_wording.",
	},
	{
		field: 'revokedAt',
		name: 'consentRevokedAt',
		always: true,
		displayName: 'Consent Revoked At',
		description:
			"When the person withdrew their consent (a date and time, or yes): such a contact is never called, whatever the law asks and with Consent off too, unless consent was given again after it. By default the item's consent_revoked_at.",
	},
	{
		field: 'currentContract',
		name: 'currentContract',
		displayName: 'Current Contract',
		description:
			"Whether the person has a current contract with you and the call is about its subject (true, yes, 1): France's consent rule does not cover such calls. By default the item's current_contract.",
	},
];

const CONSENT_MODES: ConsentMode[] = ['whereLawAsks', 'always', 'off'];

/** The Consent option and the record's fields, for an operation shown by `show`. */
export function consentFields(show: Show): INodeProperties[] {
	const checked = { ...show, consent: ['whereLawAsks', 'always'] };
	return [
		{
			displayName: 'Consent',
			name: 'consent',
			type: 'options',
			options: [
				{
					name: 'Where the Law Asks',
					value: 'whereLawAsks',
					description:
						'Call a contact only with the consent the law of the place where the phone rings asks for these calls: express, or written (with its wording), dated before now, not revoked',
				},
				{
					name: 'Always',
					value: 'always',
					description: 'Call only contacts whose consent is on record, wherever the phone rings',
				},
				{
					name: 'Off',
					value: 'off',
					description:
						'Ask no consent; each item says so in unpod_consent. A revoked consent still stops a call. Only for your own or test numbers.',
				},
			],
			default: 'whereLawAsks',
			description:
				"Whether each contact's consent is checked before a call (docs/consent.md lists each law, what it asks, and its source)",
			hint: 'A contact without the consent asked comes out with unpod_created false, unpod_refused naming the law and what is missing, and unpod_refused_by consent',
			displayOptions: { show },
		},
		...RECORD_FIELDS.map(({ field, name, displayName, description, always }): INodeProperties => ({
			displayName,
			name,
			type: 'string',
			default: defaultOf(CONSENT_FIELDS[field]),
			description,
			displayOptions: { show: always ? show : checked },
		})),
	];
}

/** An item's Consent, checked: anything else is an error naming the option. */
export function consentModeOf(value: unknown): ConsentMode {
	if (!CONSENT_MODES.includes(value as ConsentMode))
		throw new Error(`Consent "${String(value)}" is not one of ${CONSENT_MODES.join(', ')}`);
	return value as ConsentMode;
}

/**
 * A contact's record, or the part of it `fields` name: its document's own fields (a JSON array's
 * documents, a stored task's input), each replaced by the node's mapped field where that is not
 * empty. A field left at its default reads the item's column; in JSON Array mode
 * (`documentOwnsRecord`), where each contact carries its own, it reads the document alone. A date
 * that is no date names its field.
 */
export function consentRecordOf(
	context: IExecuteFunctions,
	itemIndex: number,
	document: IDataObject,
	documentOwnsRecord: boolean,
	fields: readonly ConsentField[] = RECORD_FIELDS.map((f) => f.field),
): { record: ConsentRecord } | { field: string; message: string } {
	const values: ConsentValues = {};
	const set = context.getNode().parameters;
	for (const { field, name } of RECORD_FIELDS) {
		if (!fields.includes(field)) continue;
		const column = CONSENT_FIELDS[field];
		// A field left at its default, `{{ $json.<column> }}`, is the item's column: read as n8n would,
		// without an expression per row: five expressions a row are five evaluations per row, 100,000 rows each.
		const raw = set[name];
		const atDefault = raw === undefined || raw === defaultOf(column);
		const mapped = !atDefault
			? (context.getNodeParameter(name, itemIndex, '') as unknown)
			: documentOwnsRecord
				? undefined
				: context.getInputData()[itemIndex]?.json[column];
		values[field] = mapped === undefined || mapped === null || mapped === '' ? document[column] : mapped;
	}
	return readConsent(values);
}

/**
 * With Consent off, what still stops a call: a revocation (unless consent was given again after
 * it). A consent date that is no date is then left unread; a revocation that is none names its field.
 */
export function revocationOf(
	context: IExecuteFunctions,
	itemIndex: number,
	document: IDataObject,
	documentOwnsRecord: boolean,
	now: number,
): { bad: { field: string; message: string } } | { missing: ConsentMissing } | undefined {
	let read = consentRecordOf(context, itemIndex, document, documentOwnsRecord, ['revokedAt', 'at']);
	if ('field' in read && read.field !== CONSENT_FIELDS.revokedAt)
		read = consentRecordOf(context, itemIndex, document, documentOwnsRecord, ['revokedAt']);
	if ('field' in read) return { bad: read };
	const missing = consentMissing(read.record, undefined, 'sales', now);
	return missing ? { missing } : undefined;
}

/** A record field's default: the item's own column. */
const defaultOf = (column: string) => `={{ $json.${column} }}`;

/** What one contact's consent comes to: what was asked, and what is missing, if anything. */
export interface ConsentVerdict {
	asked?: ConsentAsked;
	missing?: ConsentMissing;
}

/** The verdict on `record` for a call of `purpose` to a number of `country`, at `now`. */
export function consentVerdict(
	mode: Exclude<ConsentMode, 'off'>,
	record: ConsentRecord,
	country: string | undefined,
	purpose: Purpose,
	now: number,
): ConsentVerdict {
	const asked = consentAsked(mode, country, purpose, record);
	const missing = consentMissing(record, asked, purpose, now);
	return { ...(asked ? { asked } : {}), ...(missing ? { missing } : {}) };
}
