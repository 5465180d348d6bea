import type { INodeProperties } from 'n8n-workflow';
import { returnAllAndLimit, simplifyField, spaceLocator, taskFilters } from '../../../shared/descriptions';
import { routingPaginator } from '../../../shared/pagination';
import { checkResponseNaming, output, unwrapData } from '../../../shared/routing';
import { simplifyIfAsked } from '../../../shared/tasks';

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
			routing: { request: { method: 'GET' }, output: output(unwrapData) },
		},
		{
			name: 'Get Many',
			value: 'getAll',
			action: 'Get many spaces',
			description: 'List the spaces of the organization, newest first',
			routing: {
				request: { method: 'GET', url: '/spaces/' },
				send: { paginate: true },
				operations: { pagination: routingPaginator() },
				output: output(),
			},
		},
		{
			name: 'Get Tasks',
			value: 'getTasks',
			action: 'Get the tasks of a space',
			description: 'List the call tasks of a space, newest first, with their outcomes',
			routing: {
				request: { method: 'GET' },
				send: { paginate: true },
				operations: { pagination: routingPaginator({ key: 'task_id', transform: simplifyIfAsked }) },
				output: { postReceive: [checkResponseNaming('space', 'space')] },
			},
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
];
