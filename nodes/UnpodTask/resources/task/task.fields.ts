/** Fields that Create and Call and Wait both show: the call's context, the duplicate guard, a number's country. */
import type { INodeProperties } from 'n8n-workflow';

type Show = Record<string, Array<string | number | boolean>>;

export const DEFAULT_LOOKBACK_HOURS = 24;

export function callContextField(show: Show): INodeProperties {
	return {
		displayName: 'Call Context',
		name: 'context',
		type: 'string',
		typeOptions: { rows: 3 },
		required: true,
		default: '',
		placeholder: 'e.g. Follow up on the pricing enquiry and offer a demo next week',
		description: 'What the agent should know for these calls (the objective of the run). Unpod requires it.',
		hint: 'The goal of the calls and anything the agent should say or ask, in a sentence or two',
		displayOptions: { show },
	};
}

export function skipExistingField(show: Show, byDefault: boolean): INodeProperties {
	const field: INodeProperties = {
		displayName: 'Skip Contacts Already Called',
		name: 'skipExisting',
		type: 'boolean',
		default: true,
		description:
			"Whether to first look up the space's tasks created recently (see Options > Lookback) and not send a contact that already has one: matched by Document ID when the row has one, else by phone number. Skipped rows come out with the existing task's ID and unpod_skipped. Costs one request per 100 recent tasks.",
		displayOptions: { show },
	};
	return byDefault ? field : { ...field, default: false };
}

export const lookbackOption: INodeProperties = {
	displayName: 'Lookback (Hours)',
	name: 'lookbackHours',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 720 },
	default: DEFAULT_LOOKBACK_HOURS,
	description: 'With Skip Contacts Already Called: how far back to look for tasks of the same contacts',
};

export const countryCodeOption: INodeProperties = {
	displayName: 'Default Country Code',
	name: 'defaultCountryCode',
	type: 'string',
	default: '',
	placeholder: 'e.g. +1',
	description:
		'Added to numbers without a country code (a leading 0 is dropped). Numbers that start with + or 00, or already with this code, are left as they are.',
};
