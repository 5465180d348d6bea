import type { INodeProperties } from 'n8n-workflow';
import { agentLocator, returnAllAndLimit, simplifyField, taskFilters } from '../../../shared/descriptions';

const show = { resource: ['agent'], operation: ['getTasks'] };

export const getTasksFields: INodeProperties[] = [
	agentLocator(show, '=/agents/{{encodeURIComponent($value)}}/tasks/'),
	...returnAllAndLimit(show),
	taskFilters(show),
	simplifyField(show),
];
