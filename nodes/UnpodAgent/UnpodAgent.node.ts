import { NodeConnectionTypes } from 'n8n-workflow';
import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
import { searchAgents } from '../shared/listSearch/searchAgents';
import { REQUEST_DEFAULTS } from '../shared/transport';
import { agentFields, agentOperations } from './resources/agent';

export class UnpodAgent implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Unpod Agent',
		name: 'unpodAgent',
		icon: { light: 'file:../../icons/unpod.svg', dark: 'file:../../icons/unpod.dark.svg' },
		group: ['input'],
		version: 1,
		subtitle: '={{$parameter["operation"]}}',
		description: 'List Unpod AI agents (pilots), their runs and the call tasks assigned to them',
		defaults: { name: 'Unpod Agent' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'unpodApi', required: true }],
		requestDefaults: REQUEST_DEFAULTS,
		properties: [agentOperations, ...agentFields],
	};

	methods = {
		listSearch: { searchAgents },
	};
}
