/** Provider Credential > Create. */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { requestRouting, unwrapData } from '../../../shared/routing';
import { carrierKeyFields, CONFIGURATIONS_PATH, providerLocator } from './providerCredential.fields';

const show = { resource: ['providerCredential'], operation: ['create'] };

export const option: INodePropertyOptions = {
	name: 'Create',
	value: 'create',
	action: 'Create a provider credential',
	description: "Store a telephony carrier's keys in Unpod, for bridges to connect",
	routing: requestRouting({ method: 'POST', url: CONFIGURATIONS_PATH, idempotent: false, steps: [unwrapData] }),
};

export const description: INodeProperties[] = [
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Twilio Main',
		displayOptions: { show },
		routing: { send: { type: 'body', property: 'name' } },
	},
	providerLocator(show, true),
	...carrierKeyFields().map((field) => ({ ...field, required: true, displayOptions: { show } })),
];
