/** Space > Get Tasks. */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { returnAllAndLimit, simplifyField, spaceLocator, taskFilters } from '../../../shared/descriptions';
import { taskListRouting } from '../../../shared/routing';

const show = { resource: ['space'], operation: ['getTasks'] };

export const option: INodePropertyOptions = {
	name: 'Get Tasks',
	value: 'getTasks',
	action: 'Get the tasks of a space',
	description: 'List the call tasks of a space, newest first, with their outcomes',
	routing: taskListRouting('space'),
};

export const description: INodeProperties[] = [
	spaceLocator(show),
	...returnAllAndLimit(show),
	taskFilters(show),
	simplifyField(show),
];
