import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';
import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { asNodeError } from '../shared/errors';
import { searchAgents } from '../shared/listSearch/searchAgents';
import { searchSpaces } from '../shared/listSearch/searchSpaces';
import { taskFields, taskOperations } from './resources/task';
import { executeCreate } from './resources/task/create.operation';
import { executeGetAll } from './resources/task/getAll';

// Programmatic, not declarative: the routing engine sends one request per item, and
// Create must send many items in one request.
export class UnpodTask implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Unpod Task',
		name: 'unpodTask',
		icon: { light: 'file:../../icons/unpod.svg', dark: 'file:../../icons/unpod.dark.svg' },
		group: ['output'],
		version: [1, 1.1],
		defaultVersion: 1.1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Place AI voice-agent calls by creating Unpod tasks, and read their outcomes',
		defaults: { name: 'Unpod Task' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'unpodApi', required: true }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [{ name: 'Task', value: 'task' }],
				default: 'task',
			},
			taskOperations,
			...taskFields,
		],
	};

	methods = {
		listSearch: { searchAgents, searchSpaces },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const operation = this.getNodeParameter('operation', 0) as string;
		if (operation === 'create') return [await executeCreate.call(this)];
		if (operation !== 'getAll') {
			throw new NodeOperationError(this.getNode(), `The operation "${operation}" is not supported`);
		}
		const output: INodeExecutionData[] = [];
		for (let itemIndex = 0; itemIndex < this.getInputData().length; itemIndex++) {
			try {
				output.push(...(await executeGetAll.call(this, itemIndex)));
			} catch (error) {
				if (!this.continueOnFail()) throw asNodeError(this.getNode(), error, itemIndex);
				output.push({
					json: { error: (error as Error).message },
					error: error as NodeOperationError,
					pairedItem: { item: itemIndex },
				});
			}
		}
		return [output];
	}
}
