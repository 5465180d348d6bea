import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { WAIT_FIELDS } from './resume';
import { NumberPlans } from './allowedNumbers/numberPlans';

type Show = NonNullable<INodeProperties['displayOptions']>['show'];

const PHONE_HINT = 'an optional + followed by 7 to 15 digits';

/**
 * A phone number as people write it, read: international (`+44 20 7946 0888`), or national
 * (`020 7946 0888`), which only a Default Country Code makes international.
 */
export type PhoneReading = { international: string } | { national: string };

/**
 * A spreadsheet's phone number read as the API takes it: formatting stripped, `00` read as `+`,
 * a trunk prefix after the country code read off as libphonenumber reads it (`+44 (0)20 ...`,
 * `+44 020 ...`: a UK number has no 0 after +44, an Italian one keeps it). A number without a
 * country code is read in `defaultCountryCode` (its trunk prefix by the same rule; a number that
 * is one in use only with the code already at its start, `442079460888`, is read so), else stays
 * national. Undefined when it is not a phone number.
 */
export function readPhone(raw: unknown, defaultCountryCode = '', plans = new NumberPlans()): PhoneReading | undefined {
	if (raw === null || raw === undefined) return undefined;
	let text = String(raw).trim();
	let plus = text.startsWith('+');
	if (plus) text = text.slice(1);
	let digits = text.replace(/[\s().\-/]/g, '');
	if (!/^\d+$/.test(digits)) return undefined;
	if (!plus && digits.startsWith('00')) {
		plus = true;
		digits = digits.slice(2);
	}
	if (plus) {
		const code = NumberPlans.callingCodeOf(digits);
		if (code) digits = code + plans.national(code, digits.slice(code.length));
	} else {
		const code = defaultCountryCode.replace(/\D/g, '');
		if (code) {
			const national = plans.national(code, digits);
			const withCode = digits.startsWith(code) ? plans.national(code, digits.slice(code.length)) : undefined;
			digits =
				!plans.inUse(code, national) && withCode !== undefined && plans.inUse(code, withCode)
					? code + withCode
					: code + national;
			plus = true;
		}
	}
	if (digits.length < 7 || digits.length > 15) return undefined;
	return plus ? { international: `+${digits}` } : { national: digits };
}

/**
 * A phone number as the lists compare it: international (`+442079460888`) however it was written,
 * or, without a country code and a Default Country Code, its digits alone. Undefined when it is
 * not a phone number.
 */
export function normalizePhone(raw: unknown, defaultCountryCode = '', plans = new NumberPlans()): string | undefined {
	const read = readPhone(raw, defaultCountryCode, plans);
	return read && ('international' in read ? read.international : read.national);
}

/** A contact's number field read, or why it may not be called: not a number, or a national number with no code to read it in. */
function contactNumber(
	field: string,
	raw: unknown,
	defaultCountryCode: string,
	plans: NumberPlans,
): string | { field: string; message: string } {
	const read = readPhone(raw, defaultCountryCode, plans);
	if (!read) return { field, message: `${field} "${String(raw)}" is not a phone number (expected ${PHONE_HINT})` };
	if ('national' in read)
		return {
			field,
			message: `${field} "${String(raw)}" has no country code and Options > Default Country Code is empty: write it with + and its country code, or set Default Country Code`,
		};
	return read.international;
}

function labelsOf(value: unknown): string[] {
	const list = Array.isArray(value) ? value : String(value).split(',');
	return list.map((l) => String(l).trim()).filter(Boolean);
}

export type ContactResult = { document: IDataObject } | { field: string; message: string };

/**
 * Checks one contact and shapes it as a document: name and a phone number required,
 * optional fields kept when not empty, unknown fields passed through (the API accepts them),
 * n8n's wait fields left out: a resume address is only ever put there by the waiting node.
 */
export function toContactDocument(
	contact: IDataObject,
	defaultCountryCode = '',
	plans = new NumberPlans(),
): ContactResult {
	const name = contact.name === undefined || contact.name === null ? '' : String(contact.name).trim();
	if (!name) return { field: 'name', message: 'name is missing' };
	const rawNumber = contact.contact_number;
	if (rawNumber === undefined || rawNumber === null || String(rawNumber).trim() === '') {
		return { field: 'contact_number', message: 'contact_number is missing' };
	}
	const number = contactNumber('contact_number', rawNumber, defaultCountryCode, plans);
	if (typeof number !== 'string') return number;
	const document: IDataObject = { name, contact_number: number };
	for (const [key, value] of Object.entries(contact)) {
		if (key === 'name' || key === 'contact_number' || WAIT_FIELDS.includes(key)) continue;
		if (value === undefined || value === null || value === '') continue;
		if (key === 'labels') {
			const labels = labelsOf(value);
			if (labels.length) document.labels = labels;
		} else if (key === 'alternate_number') {
			const alt = contactNumber('alternate_number', value, defaultCountryCode, plans);
			if (typeof alt !== 'string') return alt;
			document.alternate_number = alt;
		} else {
			document[key] = typeof value === 'object' ? value : String(value);
		}
	}
	return { document };
}

/** The one description of a contact document, mapped from each input item. */
export function contactFields(show: Show): INodeProperties[] {
	return [
		{
			displayName: 'Name',
			name: 'contactName',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. {{ $json.name }}',
			description: 'The name of the person to call',
			hint: 'Drag the name column of the input here, or type a name',
			displayOptions: { show },
		},
		{
			displayName: 'Phone Number',
			name: 'contactNumber',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. {{ $json.phone }}',
			description:
				'The number to call, with its country code (+44 20 7946 0888), or without one when Options > Default Country Code is set',
			hint: 'Written as people write it: spaces, dashes, (415) 555-0100, 00 for +, a (0) after the country code. Drag the phone column of the input here.',
			displayOptions: { show },
		},
		{
			displayName: 'Additional Contact Fields',
			name: 'contactFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			hint: "Kept in the task's input with the name and number, where the agent and Unpod's task lists read them",
			displayOptions: { show },
			options: [
				{
					displayName: 'About',
					name: 'about',
					type: 'string',
					default: '',
					description: 'A few words about the contact, e.g. what they asked about',
				},
				{
					displayName: 'Address',
					name: 'address',
					type: 'string',
					default: '',
					description: "The contact's postal address",
				},
				{
					displayName: 'Alternate Number',
					name: 'alternate_number',
					type: 'string',
					default: '',
					description:
						'Another phone number of the contact, checked like the main one. Unpod keeps it; the call goes to Contact Number.',
				},
				{
					displayName: 'Company Name',
					name: 'company_name',
					type: 'string',
					default: '',
					description: "The contact's company",
				},
				{
					displayName: 'Context',
					name: 'context',
					type: 'string',
					default: '',
					description: 'What the agent should know about this contact',
				},
				{
					displayName: 'Description',
					name: 'description',
					type: 'string',
					default: '',
					description: 'Free text about the contact or the reason for the call',
				},
				{
					displayName: 'Document ID',
					name: 'document_id',
					type: 'string',
					default: '',
					description:
						'Your own ID for this contact (for example the CRM record ID); Unpod keeps it as the task reference',
				},
				{ displayName: 'Email', name: 'email', type: 'string', placeholder: 'name@email.com', default: '' },
				{
					displayName: 'Labels',
					name: 'labels',
					type: 'string',
					default: '',
					description: 'Comma-separated labels, or an array from an expression',
				},
				{
					displayName: 'Occupation',
					name: 'occupation',
					type: 'string',
					default: '',
					description: "The contact's job, e.g. Finance Manager",
				},
				{
					displayName: 'Time Zone',
					name: 'timezone',
					type: 'string',
					default: '',
					placeholder: 'e.g. America/Chicago',
					description:
						"Where the contact lives, as an IANA time zone: their calling hours are read in it instead of the zones of their number's prefix",
				},
				{
					displayName: 'Title',
					name: 'title',
					type: 'string',
					default: '',
					description: "The contact's title, such as Dr or CTO",
				},
			],
		},
	];
}

/** The contact an item's Contact fields describe (name, number and the extra fields), not yet checked. */
export function contactOfItem(context: IExecuteFunctions, itemIndex: number): IDataObject {
	return {
		...(context.getNodeParameter('contactFields', itemIndex, {}) as IDataObject),
		name: context.getNodeParameter('contactName', itemIndex, '') as string,
		contact_number: context.getNodeParameter('contactNumber', itemIndex, '') as string,
	};
}
