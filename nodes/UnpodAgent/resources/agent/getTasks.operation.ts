/** Agent > Get Tasks. */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { agentLocator, returnAllAndLimit, simplifyField, taskFilters } from '../../../shared/descriptions';
import { taskListRouting } from '../../../shared/routing';

const show = { operation: ['getTasks'] };

export const option: INodePropertyOptions = {
	name: 'Get Tasks',
	value: 'getTasks',
	action: 'Get the tasks of an agent',
	description: 'List the call tasks assigned to an agent, newest first, with their outcomes',
	routing: taskListRouting('agent'),
};

export const description: INodeProperties[] = [
	agentLocator(show),
	...returnAllAndLimit(show),
	taskFilters(show),
	simplifyField(show),
];
