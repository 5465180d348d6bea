import { NodeConnectionTypes } from 'n8n-workflow';
import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
import { REQUEST_DEFAULTS } from '../shared/transport';
import { searchBridgeNumbers } from './listSearch/searchBridgeNumbers';
import { searchBridges } from './listSearch/searchBridges';
import { searchProviderCredentials } from './listSearch/searchProviderCredentials';
import { searchProviders } from './listSearch/searchProviders';
import { searchAgents } from '../shared/listSearch/searchAgents';
import { bridgeFields, bridgeOperations } from './resources/bridge';
import { callLogFields, callLogOperations } from './resources/callLog';
import { numberFields, numberOperations } from './resources/number';
import { providerFields, providerOperations } from './resources/provider';
import { providerConnectionFields, providerConnectionOperations } from './resources/providerConnection';
import { providerCredentialFields, providerCredentialOperations } from './resources/providerCredential';

export class UnpodBridge implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Unpod Bridge',
		name: 'unpodBridge',
		icon: { light: 'file:../../icons/unpod.svg', dark: 'file:../../icons/unpod.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Manage Unpod telephony: bridges, numbers, provider credentials and connections, and the call log',
		defaults: { name: 'Unpod Bridge' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'unpodApi', required: true }],
		requestDefaults: REQUEST_DEFAULTS,
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Bridge', value: 'bridge' },
					{ name: 'Call Log', value: 'callLog' },
					{ name: 'Number', value: 'number' },
					{ name: 'Provider', value: 'provider' },
					{ name: 'Provider Connection', value: 'providerConnection' },
					{ name: 'Provider Credential', value: 'providerCredential' },
				],
				default: 'bridge',
			},
			bridgeOperations,
			...bridgeFields,
			callLogOperations,
			...callLogFields,
			numberOperations,
			...numberFields,
			providerOperations,
			...providerFields,
			providerConnectionOperations,
			...providerConnectionFields,
			providerCredentialOperations,
			...providerCredentialFields,
		],
	};

	methods = {
		listSearch: { searchAgents, searchBridges, searchBridgeNumbers, searchProviderCredentials, searchProviders },
	};
}
