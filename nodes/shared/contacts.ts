import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { WAIT_FIELDS } from './resume';

type Show = NonNullable<INodeProperties['displayOptions']>['show'];

const PHONE_HINT = 'an optional + followed by 7 to 15 digits';

/**
 * A spreadsheet's phone number as the API takes it: formatting stripped, `00` read as `+`,
 * and with `defaultCountryCode` prefixed (a national leading 0 dropped) when the number has
 * no country code of its own. Returns undefined when it is not a phone number.
 */
export function normalizePhone(raw: unknown, defaultCountryCode = ''): string | undefined {
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
	const cc = defaultCountryCode.replace(/\D/g, '');
	if (!plus && cc) {
		if (digits.startsWith('0')) digits = cc + digits.replace(/^0+/, '');
		else if (!digits.startsWith(cc)) digits = cc + digits;
		plus = true;
	}
	if (digits.length < 7 || digits.length > 15) return undefined;
	return `${plus ? '+' : ''}${digits}`;
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
export function toContactDocument(contact: IDataObject, defaultCountryCode = ''): ContactResult {
	const name = contact.name === undefined || contact.name === null ? '' : String(contact.name).trim();
	if (!name) return { field: 'name', message: 'name is missing' };
	const rawNumber = contact.contact_number;
	if (rawNumber === undefined || rawNumber === null || String(rawNumber).trim() === '') {
		return { field: 'contact_number', message: 'contact_number is missing' };
	}
	const number = normalizePhone(rawNumber, defaultCountryCode);
	if (!number) {
		return {
			field: 'contact_number',
			message: `contact_number "${String(rawNumber)}" is not a phone number (expected ${PHONE_HINT})`,
		};
	}
	const document: IDataObject = { name, contact_number: number };
	for (const [key, value] of Object.entries(contact)) {
		if (key === 'name' || key === 'contact_number' || WAIT_FIELDS.includes(key)) continue;
		if (value === undefined || value === null || value === '') continue;
		if (key === 'labels') {
			const labels = labelsOf(value);
			if (labels.length) document.labels = labels;
		} else if (key === 'alternate_number') {
			const alt = normalizePhone(value, defaultCountryCode);
			if (!alt)
				return {
					field: 'alternate_number',
					message: `alternate_number "${String(value)}" is not a phone number (expected ${PHONE_HINT})`,
				};
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
			description: 'The number to call: an optional + and 7 to 15 digits',
			hint: 'Formatting such as (415) 555-0100 is removed. Drag the phone column of the input here.',
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
