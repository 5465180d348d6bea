/** Provider Credential > Create. */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { requestRouting, unwrapData } from '../../../shared/routing';
import {
	accountFields,
	checkProviderCredential,
	CONFIGURATIONS_PATH,
	providerLocator,
} from './providerCredential.fields';

const show = { resource: ['providerCredential'], operation: ['create'] };

export const option: INodePropertyOptions = {
	name: 'Create',
	value: 'create',
	action: 'Create a provider credential',
	description: "Store a telephony carrier account's SID and auth token in Unpod, for bridges to connect",
	routing: requestRouting({
		method: 'POST',
		url: CONFIGURATIONS_PATH,
		idempotent: false,
		check: checkProviderCredential,
		steps: [unwrapData],
	}),
};

export const description: INodeProperties[] = [
	providerLocator(show),
	...accountFields().map((field) => ({ ...field, required: true, displayOptions: { show } })),
];
