import type { INodeProperties } from 'n8n-workflow';
import { output, unwrapData } from '../../../shared/routing';
import { bridgeLocator } from '../bridge/locator';

const operations = ['connectProvider', 'disconnectProvider'];

export const providerConnectionOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['providerConnection'] } },
	default: 'connectProvider',
	options: [
		{
			name: 'Connect',
			value: 'connectProvider',
			action: 'Connect a provider credential to a bridge',
			description: 'Connect a telephony provider credential to a bridge',
			routing: { request: { method: 'POST' }, output: output(unwrapData) },
		},
		{
			name: 'Disconnect',
			value: 'disconnectProvider',
			action: 'Disconnect a provider credential from a bridge',
			routing: { request: { method: 'POST' }, output: output(unwrapData) },
		},
	],
};

export const providerConnectionFields: INodeProperties[] = [
	bridgeLocator('providerConnection', 'connectProvider', 'connect-provider/'),
	bridgeLocator('providerConnection', 'disconnectProvider', 'disconnect-provider/'),
	{
		displayName: 'Provider Credential ID',
		name: 'providerCredentialId',
		type: 'number',
		required: true,
		default: 0,
		typeOptions: { minValue: 1, numberPrecision: 0 },
		description:
			'The ID of a telephony provider credential already assigned to this bridge. Connecting fails if the credential is inactive.',
		displayOptions: { show: { resource: ['providerConnection'], operation: operations } },
		routing: { send: { type: 'body', property: 'provider_credential_id' } },
	},
];
