import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import {
	agentLocator,
	returnAllAndLimit,
	simplifyField,
	spaceLocator,
	taskFilters,
} from '../../../shared/descriptions';
import { asNodeError } from '../../../shared/errors';
import { collectPages, requestedLimit, toPage } from '../../../shared/pagination';
import { cancelSignalOf, DEFAULT_MAX_WAIT_SECONDS, WaitBudget } from '../../../shared/retry';
import { simplifyTask, taskListPath, taskListQuery } from '../../../shared/tasks';
import { unpodApiRequest } from '../../../shared/transport';

const show = { resource: ['task'], operation: ['getAll'] };

export const getAllFields: INodeProperties[] = [
	{
		displayName: 'Tasks Of',
		name: 'tasksOf',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show },
		options: [
			{ name: 'Space', value: 'space' },
			{ name: 'Agent', value: 'agent' },
		],
		default: 'space',
	},
	spaceLocator({ ...show, tasksOf: ['space'] }),
	agentLocator({ ...show, tasksOf: ['agent'] }),
	...returnAllAndLimit(show),
	taskFilters(show),
	simplifyField(show),
];

async function getAllOf(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const scope = this.getNodeParameter('tasksOf', itemIndex) as 'space' | 'agent';
	const id = this.getNodeParameter(scope, itemIndex, '', { extractValue: true }) as string;
	const { qs, match } = taskListQuery(scope, this.getNodeParameter('filters', itemIndex, {}) as IDataObject);
	const limit = requestedLimit(
		this.getNodeParameter('returnAll', itemIndex, false) as boolean,
		this.getNodeParameter('limit', itemIndex, 50),
	);
	const budget = new WaitBudget(DEFAULT_MAX_WAIT_SECONDS * 1000, cancelSignalOf(this));
	const tasks = await collectPages(
		async (page, pageSize) =>
			toPage(
				await unpodApiRequest.call(this, {
					method: 'GET',
					path: taskListPath(scope, id),
					qs: { ...qs, page, page_size: pageSize },
					subject: `${scope} "${id}"`,
					itemIndex,
					budget,
				}),
			),
		limit,
		'task_id',
		match,
	);
	const simplify = this.getNodeParameter('simplify', itemIndex, true) as boolean;
	return tasks.map((task) => ({ json: simplify ? simplifyTask(task) : task, pairedItem: { item: itemIndex } }));
}

export async function executeGetAll(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const output: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < this.getInputData().length; itemIndex++) {
		try {
			output.push(...(await getAllOf.call(this, itemIndex)));
		} catch (error) {
			const failure = asNodeError(this.getNode(), error, itemIndex);
			if (!this.continueOnFail()) throw failure;
			output.push({ json: { error: failure.message }, error: failure, pairedItem: { item: itemIndex } });
		}
	}
	return output;
}
