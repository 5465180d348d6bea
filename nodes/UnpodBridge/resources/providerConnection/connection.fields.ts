/** The fields both provider-connection operations send: the bridge's number and the provider credential. */
import type { INodeProperties } from 'n8n-workflow';
import { locator } from '../../../shared/descriptions';

export const connectionFields = (operation: string): INodeProperties[] => [
	locator({
		displayName: 'Number',
		name: 'number',
		description: "The bridge's phone number to connect or disconnect (Unpod's number_id)",
		searchListMethod: 'searchBridgeNumbers',
		idMode: {
			name: 'id',
			displayName: 'By ID',
			placeholder: 'Paste a number ID, e.g. 5001',
			hint: 'The number_id of one of the numbers of the bridge (Unpod Bridge > Get lists them)',
		},
		show: { resource: ['providerConnection'], operation: [operation] },
		routing: {
			send: {
				type: 'body',
				property: 'number_id',
				// Unpod's number ids are integers; anything else is sent as it was given.
				value: '={{ /^\\d+$/.test(String($value).trim()) ? Number(String($value).trim()) : $value }}',
			},
		},
	}),
	{
		displayName: 'Provider Credential ID',
		name: 'providerCredentialId',
		type: 'number',
		required: true,
		default: 0,
		typeOptions: { minValue: 1, numberPrecision: 0 },
		description:
			'The ID of a telephony provider credential already assigned to this bridge. Connecting fails if the credential is inactive.',
		displayOptions: { show: { resource: ['providerConnection'], operation: [operation] } },
		routing: { send: { type: 'body', property: 'provider_credential_id' } },
	},
];
