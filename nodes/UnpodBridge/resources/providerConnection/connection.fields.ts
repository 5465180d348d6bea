/** The fields both provider-connection operations send: the bridge's number and the provider credential. */
import type { INodeProperties } from 'n8n-workflow';
import { locator } from '../../../shared/descriptions';

/** Unpod's ids here are integers; anything else is sent as it was given, for Unpod to refuse. */
const AS_INTEGER = '={{ /^\\d+$/.test(String($value).trim()) ? Number(String($value).trim()) : $value }}';

export const connectionFields = (operation: string): INodeProperties[] => {
	const show = { resource: ['providerConnection'], operation: [operation] };
	return [
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
			show,
			routing: { send: { type: 'body', property: 'number_id', value: AS_INTEGER } },
		}),
		locator({
			displayName: 'Provider Credential',
			name: 'providerCredential',
			description: "The telephony provider credential (Twilio, Plivo...) from the organization's list",
			searchListMethod: 'searchProviderCredentials',
			idMode: {
				name: 'id',
				displayName: 'By ID',
				placeholder: 'Paste a provider credential ID, e.g. 101',
				hint: 'Connecting fails if the credential is inactive',
			},
			show: { ...show, '@version': [{ _cnd: { gte: 2 } }] },
			routing: { send: { type: 'body', property: 'provider_credential_id', value: AS_INTEGER } },
		}),
		// Version 1 asked for the id as a number: workflows saved with it keep it.
		{
			displayName: 'Provider Credential ID',
			name: 'providerCredentialId',
			type: 'number',
			required: true,
			default: 0,
			typeOptions: { minValue: 1, numberPrecision: 0 },
			description:
				'The ID of a telephony provider credential already assigned to this bridge. Connecting fails if the credential is inactive.',
			displayOptions: { show: { ...show, '@version': [1] } },
			routing: { send: { type: 'body', property: 'provider_credential_id' } },
		},
	];
};
