/** Task > Get Many: the tasks of a space or an agent, with their outcomes. */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import {
	agentLocator,
	returnAllAndLimit,
	simplifyField,
	spaceLocator,
	taskFilters,
} from '../../../shared/descriptions';
import { requestedLimit } from '../../../shared/pagination';
import { executionBudget } from '../../../shared/retry';
import { taskOutput } from '../../../shared/outcome';
import { readTaskList, taskListQuery } from '../../../shared/taskLists';
import type { TaskOption } from './taskOption';

const show = { operation: ['getAll'] };

export const option: TaskOption = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many tasks',
	description: 'List the tasks of a space or of an agent, with their call outcomes',
	run: { perItem: execute },
};

export const description: INodeProperties[] = [
	{
		displayName: 'Calls Of',
		name: 'callsOf',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show },
		options: [
			{ name: 'Space', value: 'space' },
			{ name: 'Agent', value: 'agent' },
		],
		default: 'space',
	},
	spaceLocator({ ...show, callsOf: ['space'] }),
	agentLocator({ ...show, callsOf: ['agent'] }),
	...returnAllAndLimit(show),
	taskFilters(show),
	simplifyField(show),
];

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const scope = this.getNodeParameter('callsOf', itemIndex) as 'space' | 'agent';
	const id = this.getNodeParameter(scope, itemIndex, '', { extractValue: true }) as string;
	const { qs, match } = taskListQuery(scope, this.getNodeParameter('filters', itemIndex, {}) as IDataObject);
	const limit = requestedLimit(
		this.getNodeParameter('returnAll', itemIndex, false) as boolean,
		this.getNodeParameter('limit', itemIndex, 50),
	);
	const tasks = await readTaskList(
		this,
		{ scope, id },
		{ qs, itemIndex, budget: executionBudget(this), limit, key: 'task_id', match },
	);
	const simplify = this.getNodeParameter('simplify', itemIndex, true) as boolean;
	return tasks.map((task) => ({ json: taskOutput(task, simplify), pairedItem: { item: itemIndex } }));
}
