import { NodeConnectionTypes } from 'n8n-workflow';
import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { searchAgents } from '../shared/listSearch/searchAgents';
import { searchSpaces } from '../shared/listSearch/searchSpaces';
import { taskFields, taskOperation, taskOperations } from './resources/task';
import { keepWaiting, RESUME_WEBHOOKS } from './waitForCalls/park';
import { router } from './router';

// Programmatic, not declarative: the routing engine sends one request per item, and
// Create must send many items in one request.
export class UnpodTask implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Unpod Task',
		name: 'unpodTask',
		icon: { light: 'file:../../icons/unpod.svg', dark: 'file:../../icons/unpod.dark.svg' },
		group: ['output'],
		version: 1,
		subtitle: '={{$parameter["operation"]}}',
		description: 'Place AI voice-agent calls by creating Unpod tasks, and read their outcomes',
		defaults: { name: 'Unpod Task' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'unpodApi', required: true }],
		// Only to resume an execution that Call and Wait for Approval, or Call and Wait until
		// Unpod reports, put to wait.
		webhooks: RESUME_WEBHOOKS,
		properties: [taskOperations, ...taskFields],
	};

	methods = {
		listSearch: { searchAgents, searchSpaces },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const waits = taskOperation(this.getNodeParameter('operation', 'create') as string)?.waits;
		if (!waits) return keepWaiting(this, 'This operation does not wait');
		return await waits.webhook.call(this);
	}
}
