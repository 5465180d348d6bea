import type { INodeProperties } from 'n8n-workflow';
import { returnAllAndLimit } from '../../../shared/descriptions';
import { routingPaginator } from '../../../shared/pagination';
import { checkResponseNaming, output } from '../../../shared/routing';
import { simplifyIfAsked } from '../../../shared/tasks';
import { getTasksFields } from './getTasks';

export const agentOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['agent'] } },
	default: 'getAll',
	options: [
		{
			name: 'Get Many',
			value: 'getAll',
			action: 'Get many agents',
			description: 'List the published agents of the organization',
			routing: {
				request: { method: 'GET', url: '/agents/' },
				send: { paginate: true },
				operations: { pagination: routingPaginator() },
				output: output(),
			},
		},
		{
			name: 'Get Tasks',
			value: 'getTasks',
			action: 'Get the tasks of an agent',
			description: 'List the call tasks assigned to an agent, newest first, with their outcomes',
			routing: {
				request: { method: 'GET' },
				send: { paginate: true },
				operations: { pagination: routingPaginator({ key: 'task_id', transform: simplifyIfAsked }) },
				output: { postReceive: [checkResponseNaming('agent', 'agent')] },
			},
		},
	],
};

export const agentFields: INodeProperties[] = [
	...returnAllAndLimit({ resource: ['agent'], operation: ['getAll'] }),
	...getTasksFields,
];
