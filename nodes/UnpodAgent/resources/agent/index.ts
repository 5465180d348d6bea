import type { INodeProperties } from 'n8n-workflow';
import { returnAllAndLimit } from '../../../shared/descriptions';
import { listRouting, taskListRouting } from '../../../shared/routing';
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
			routing: listRouting({ url: '/agents/' }),
		},
		{
			name: 'Get Tasks',
			value: 'getTasks',
			action: 'Get the tasks of an agent',
			description: 'List the call tasks assigned to an agent, newest first, with their outcomes',
			routing: taskListRouting('agent'),
		},
	],
};

export const agentFields: INodeProperties[] = [
	...returnAllAndLimit({ resource: ['agent'], operation: ['getAll'] }),
	...getTasksFields,
];
