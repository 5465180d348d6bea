/** What the provider-credential operations share: the picker, the provider picker, the carrier's account fields, the check. */
import type { IExecuteSingleFunctions, IN8nHttpFullResponse, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { locator } from '../../../shared/descriptions';
import { checkResponse, checkResponseNaming } from '../../../shared/routing';
import { CARRIER_SECRET_KEYS, withoutKeys, withoutSecretText } from '../../../shared/secrets';

/**
 * OpenAPI 2.0.0's spelling (16c4309); the February source's (`provider-configurations`) is tried
 * after a 404 (transport's SPELLINGS).
 */
export const CONFIGURATIONS_PATH = '/telephony/providers-configurations/';

/** Unpod's ids here are integers; anything else is sent as it was given, for Unpod to refuse. */
export const AS_INTEGER = '={{ /^\\d+$/.test(String($value).trim()) ? Number(String($value).trim()) : $value }}';

/** The auth token this item sends, if any (Create's field, or Update's). */
function sentToken(context: IExecuteSingleFunctions): string[] {
	const operation = context.getNodeParameter('operation', '') as string;
	const token =
		operation === 'create'
			? context.getNodeParameter('authToken', '')
			: operation === 'update'
				? (context.getNodeParameter('updateFields.authToken', '') as string)
				: '';
	return typeof token === 'string' && token.trim() ? [token, token.trim()] : [];
}

/**
 * What a credential's answer may carry of the carrier's secrets: the keys every answer drops
 * (CARRIER_SECRET_KEYS), and names a deployment might give the token that no source shows.
 */
const TOKEN_KEYS = [...CARRIER_SECRET_KEYS, 'authToken', 'secret', 'password'];

const namingCheck = checkResponseNaming('providerCredential', 'provider credential');

/**
 * The error check of every provider-credential operation. The answer is read with the auth token
 * this item sent blanked out first, so that an answer echoing it (a refusal quoting the token)
 * puts it in no error message, description or item; a success's items lose every secret key.
 */
export async function checkProviderCredential(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	const secrets = sentToken(this);
	const operation = this.getNodeParameter('operation', '') as string;
	// Get Many and Create name no credential: a failure there is the request's, not one credential's.
	const check = operation === 'getAll' || operation === 'create' ? checkResponse : namingCheck;
	const checked = await check.call(this, withoutSecretText(items, secrets), withoutSecretText(response, secrets));
	return checked.map((item) => ({ ...item, json: withoutKeys(item.json, TOKEN_KEYS) }));
}

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

/** The telephony provider (carrier) of a new credential: its slug, from Unpod's catalogue or typed. */
export function providerLocator(show: Record<string, string[]>): INodeProperties {
	const field = locator({
		displayName: 'Provider',
		name: 'provider',
		description: "The telephony carrier, from Unpod's catalogue",
		searchListMethod: 'searchProviders',
		idMode: {
			name: 'slug',
			displayName: 'By Slug',
			placeholder: 'e.g. twilio',
			hint: "The carrier's slug in Unpod's catalogue (Unpod Bridge > Provider > Get Many lists them)",
		},
		show,
		routing: { send: { type: 'body', property: 'provider', value: '={{ String($value).trim() }}' } },
	});
	return { ...field, required: true };
}

/** The carrier account's SID and auth token: typed in, sent to Unpod; the token is never shown back. */
export const accountFields = (): INodeProperties[] => [
	{
		displayName: 'Account SID',
		name: 'accountSid',
		type: 'string',
		default: '',
		placeholder: 'e.g. ACxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
		description: "The carrier account's identifier (Twilio: the Account SID; Plivo: the Auth ID)",
		routing: { send: { type: 'body', property: 'account_sid', value: '={{ String($value).trim() }}' } },
	},
	{
		displayName: 'Auth Token',
		name: 'authToken',
		type: 'string',
		typeOptions: { password: true },
		default: '',
		description: "The carrier account's auth token. Unpod keeps it and never shows it again.",
		routing: { send: { type: 'body', property: 'auth_token' } },
	},
];
