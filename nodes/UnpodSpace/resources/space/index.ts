import type { INodeProperties } from 'n8n-workflow';
import { returnAllAndLimit, simplifyField, spaceLocator, taskFilters } from '../../../shared/descriptions';
import { checkResponseAt, listRouting, outputCheckedBy, taskListRouting, unwrapData } from '../../../shared/routing';
import { getRunsRouting, getRunTasksRouting, runFields } from './runs';

const tasksShow = { resource: ['space'], operation: ['getTasks'] };

export const spaceOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['space'] } },
	default: 'getAll',
	options: [
		{
			name: 'Get',
			value: 'get',
			action: 'Get a space',
			routing: { request: { method: 'GET' }, output: outputCheckedBy(checkResponseAt('/spaces/{token}/'), unwrapData) },
		},
		{
			name: 'Get Many',
			value: 'getAll',
			action: 'Get many spaces',
			description: 'List the spaces of the organization, newest first',
			routing: listRouting({ url: '/spaces/', check: checkResponseAt('/spaces/') }),
		},
		{
			name: 'Get Tasks',
			value: 'getTasks',
			action: 'Get the tasks of a space',
			description: 'List the call tasks of a space, newest first, with their outcomes',
			routing: taskListRouting('space'),
		},
		{
			name: 'Get Run Tasks',
			value: 'getRunTasks',
			action: 'Get the tasks of a run',
			description: 'List the call tasks of one run, with their outcomes',
			routing: getRunTasksRouting,
		},
		{
			name: 'Get Runs',
			value: 'getRuns',
			action: 'Get the runs of a space',
			description: 'List the runs of a space, newest first: one run per create request (a batch of a bulk import)',
			routing: getRunsRouting,
		},
	],
};

export const spaceFields: INodeProperties[] = [
	spaceLocator({ resource: ['space'], operation: ['get'] }, '=/spaces/{{encodeURIComponent($value)}}/'),
	...returnAllAndLimit({ resource: ['space'], operation: ['getAll'] }),
	spaceLocator(tasksShow, '=/spaces/{{encodeURIComponent($value)}}/tasks/'),
	...returnAllAndLimit(tasksShow),
	taskFilters(tasksShow),
	simplifyField(tasksShow),
	...runFields,
];
