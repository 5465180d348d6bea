/** Bridge > Create. */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { requestRouting, unwrapData } from '../../../shared/routing';
import { bridgeDescriptionField } from './bridge.fields';

/** The regions Unpod accepts for a bridge. */
export const BRIDGE_REGIONS = [
	{ name: 'Australia', value: 'AUS' },
	{ name: 'Europe', value: 'EU' },
	{ name: 'India', value: 'IN' },
	{ name: 'United Arab Emirates', value: 'UAE' },
	{ name: 'United States', value: 'US' },
];

const show = { resource: ['bridge'], operation: ['create'] };

export const option: INodePropertyOptions = {
	name: 'Create',
	value: 'create',
	action: 'Create a bridge',
	description: 'Create a telephony bridge',
	routing: requestRouting({ method: 'POST', url: '/telephony/bridges/', idempotent: false, steps: [unwrapData] }),
};

export const description: INodeProperties[] = [
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Sales Line',
		displayOptions: { show },
		routing: { send: { type: 'body', property: 'name' } },
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show },
		options: [
			bridgeDescriptionField,
			{
				displayName: 'Region',
				name: 'region',
				type: 'options',
				options: BRIDGE_REGIONS,
				default: 'IN',
				description: "Where the bridge's calls are handled. Unpod uses India when none is given.",
				routing: { send: { type: 'body', property: 'region' } },
			},
		],
	},
];
