/** Provider Credential > Update. */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { requestRouting, requireBodyField, unwrapData } from '../../../shared/routing';
import {
	accountFields,
	checkProviderCredential,
	CONFIGURATIONS_PATH,
	providerCredentialLocator,
} from './providerCredential.fields';

const show = { resource: ['providerCredential'], operation: ['update'] };

export const option: INodePropertyOptions = {
	name: 'Update',
	value: 'update',
	action: 'Update a provider credential',
	description: "Replace a provider credential's Account SID or auth token (to rotate the token, for example)",
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
		options: accountFields(),
	},
];
