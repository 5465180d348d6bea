/** Provider Credential > Update. */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { requestRouting, requireBodyField, unwrapData } from '../../../shared/routing';
import {
	carrierKeyFields,
	checkProviderCredential,
	CONFIGURATIONS_PATH,
	providerCredentialLocator,
} from './providerCredential.fields';

const show = { resource: ['providerCredential'], operation: ['update'] };

export const option: INodePropertyOptions = {
	name: 'Update',
	value: 'update',
	action: 'Update a provider credential',
	description: 'Rename a provider credential, turn it on or off, or replace its keys',
	routing: requestRouting({
		method: 'PATCH',
		idempotent: true,
		before: requireBodyField,
		check: checkProviderCredential,
		steps: [unwrapData],
	}),
};

export const description: INodeProperties[] = [
	providerCredentialLocator(show, `=${CONFIGURATIONS_PATH}{{encodeURIComponent($value)}}/`),
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show },
		options: [
			{
				displayName: 'Active',
				name: 'active',
				type: 'boolean',
				default: true,
				description: 'Whether bridges may connect this credential',
				routing: { send: { type: 'body', property: 'active' } },
			},
			...carrierKeyFields(),
			{
				displayName: 'Name',
				name: 'name',
				type: 'string',
				default: '',
				routing: { send: { type: 'body', property: 'name' } },
			},
		],
	},
];
