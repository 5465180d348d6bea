/** What the provider-credential operations share: the picker, the provider picker, the carrier's keys. */
import type { INodeProperties } from 'n8n-workflow';
import { locator } from '../../../shared/descriptions';
import { checkResponseNaming } from '../../../shared/routing';

/** The source's spelling; the docs' (`providers-configurations`) is tried after a 404. */
export const CONFIGURATIONS_PATH = '/telephony/provider-configurations/';

export const checkProviderCredential = checkResponseNaming('providerCredential', 'provider credential');

/** Unpod's ids here are integers; anything else is sent as it was given, for Unpod to refuse. */
export const AS_INTEGER = '={{ /^\\d+$/.test(String($value).trim()) ? Number(String($value).trim()) : $value }}';

/** A provider credential from the organization's list, or by its ID. */
export function providerCredentialLocator(
	show: Record<string, string[]>,
	url?: string,
	routing?: INodeProperties['routing'],
): INodeProperties {
	return locator({
		displayName: 'Provider Credential',
		name: 'providerCredential',
		description: "The telephony provider credential (Twilio, Plivo...) from the organization's list",
		searchListMethod: 'searchProviderCredentials',
		idMode: { name: 'id', displayName: 'By ID', placeholder: 'Paste a provider credential ID, e.g. 101' },
		show,
		url,
		routing,
	});
}

/** The telephony provider (carrier) of a credential, from Unpod's catalogue. */
export function providerLocator(show: Record<string, string[]>, required: boolean): INodeProperties {
	const field = locator({
		displayName: 'Provider',
		name: 'provider',
		description: "The telephony carrier, from Unpod's catalogue",
		searchListMethod: 'searchProviders',
		idMode: { name: 'id', displayName: 'By ID', placeholder: 'Paste a provider ID, e.g. 1' },
		show,
		routing: { send: { type: 'body', property: 'provider', value: AS_INTEGER } },
	});
	return { ...field, required };
}

/** The carrier's API key and secret: typed in, sent to Unpod, never shown back (n8n masks them). */
export const carrierKeyFields = (): INodeProperties[] => [
	{
		displayName: 'API Key',
		name: 'apiKey',
		type: 'string',
		typeOptions: { password: true },
		default: '',
		description: "The carrier account's API key (Twilio: the Account SID)",
		routing: { send: { type: 'body', property: 'api_key' } },
	},
	{
		displayName: 'API Secret',
		name: 'apiSecret',
		type: 'string',
		typeOptions: { password: true },
		default: '',
		description: "The carrier account's API secret (Twilio: the Auth Token)",
		routing: { send: { type: 'body', property: 'api_secret' } },
	},
];
