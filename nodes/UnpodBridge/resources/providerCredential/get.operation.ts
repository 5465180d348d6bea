/** Provider Credential > Get. */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { requestRouting, unwrapData } from '../../../shared/routing';
import { checkProviderCredential, CONFIGURATIONS_PATH, providerCredentialLocator } from './providerCredential.fields';

export const option: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	action: 'Get a provider credential',
	description: 'Get a telephony provider credential, without its auth token',
	routing: requestRouting({ method: 'GET', idempotent: true, check: checkProviderCredential, steps: [unwrapData] }),
};

export const description: INodeProperties[] = [
	providerCredentialLocator(
		{ resource: ['providerCredential'], operation: ['get'] },
		`=${CONFIGURATIONS_PATH}{{encodeURIComponent($value)}}/`,
	),
];
