/** The fields both provider-connection operations send: the bridge's number and the provider credential. */
import type { INodeProperties } from 'n8n-workflow';
import { locator } from '../../../shared/descriptions';
import { AS_INTEGER, providerCredentialLocator } from '../providerCredential/providerCredential.fields';

export const connectionFields = (operation: string): INodeProperties[] => {
	const show = { resource: ['providerConnection'], operation: [operation] };
	return [
		locator({
			displayName: 'Number',
			name: 'number',
			description: "The bridge's phone number to connect or disconnect",
			searchListMethod: 'searchBridgeNumbers',
			idMode: {
				name: 'id',
				displayName: 'By ID',
				placeholder: 'Paste a number ID or the number, e.g. 5001 or +14155550100',
				hint: "The number_id of one of the bridge's numbers, or the number itself (Unpod Bridge > Get lists them)",
			},
			show,
		}),
		providerCredentialLocator(show, undefined, {
			send: { type: 'body', property: 'provider_credential_id', value: AS_INTEGER },
		}),
	];
};
