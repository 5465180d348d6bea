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

/** Each field of the record: its parameter, label, and what it says. */
const RECORD_FIELDS: Array<{ field: ConsentField; name: string; displayName: string; description: string }> = [
	{
		field: 'at',
		name: 'consentAt',
		displayName: 'Consent Given At',
		description:
			"When the person consented to these calls: a date and time (ISO 8601, e.g. 2026-05-01T09:30:00Z). By default it reads the item's consent_at.",
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
			"What the person agreed to, as the form or the recording says it. Written consent (US sales calls, Germany) needs it. By default the item's consent_wording.",
	},
	{
		field: 'revokedAt',
		name: 'consentRevokedAt',
		displayName: 'Consent Revoked At',
		description:
			"When the person withdrew their consent (a date and time, or yes): such a contact is never called, whatever the law asks, unless consent was given again after it. By default the item's consent_revoked_at.",
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
					description: 'Do not check consent; each item says so in unpod_consent. Only for your own or test numbers.',
				},
			],
			default: 'whereLawAsks',
			description:
				"Whether each contact's consent is checked before a call (docs/consent.md lists each law, what it asks, and its source)",
			hint: 'A contact without the consent asked comes out with unpod_created false, unpod_refused naming the law and what is missing, and unpod_refused_by consent',
			displayOptions: { show },
		},
		...RECORD_FIELDS.map(({ field, name, displayName, description }): INodeProperties => ({
			displayName,
			name,
			type: 'string',
			default: defaultOf(CONSENT_FIELDS[field]),
			description,
			displayOptions: { show: checked },
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
 * A contact's record: its document's own fields (a JSON array's documents, a stored task's input),
 * each replaced by the item's mapped field where that is not empty. A date that is no date names
 * its field.
 */
export function consentRecordOf(
	context: IExecuteFunctions,
	itemIndex: number,
	document: IDataObject,
): { record: ConsentRecord } | { field: string; message: string } {
	const values: ConsentValues = {};
	const set = context.getNode().parameters;
	for (const { field, name } of RECORD_FIELDS) {
		const column = CONSENT_FIELDS[field];
		// A field left at its default, `{{ $json.<column> }}`, is the item's column: read as n8n would,
		// without an expression per row (five a row cost 100,000 rows half a minute: docs/figures.md).
		const raw = set[name];
		const mapped =
			raw === undefined || raw === defaultOf(column)
				? context.getInputData()[itemIndex]?.json[column]
				: (context.getNodeParameter(name, itemIndex, '') as unknown);
		values[field] = mapped === undefined || mapped === null || mapped === '' ? document[column] : mapped;
	}
	return readConsent(values);
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
