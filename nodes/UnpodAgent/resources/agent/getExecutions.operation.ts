/** Agent > Get Executions (Unpod's 2026 docs: one row per run of the agent's tasks). */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { agentLocator, returnAllAndLimit } from '../../../shared/descriptions';
import { checkResponseNaming, listRouting } from '../../../shared/routing';

const show = { operation: ['getExecutions'] };

export const option: INodePropertyOptions = {
	name: 'Get Executions',
	value: 'getExecutions',
	action: 'Get the executions of an agent',
	description: "List an agent's runs, newest first, with how many of their calls completed",
	// OpenAPI 2.0.0 sends the whole list, with no paging parameters.
	routing: listRouting({ key: 'run_id', check: checkResponseNaming('agent', 'agent'), paged: false }),
};

export const description: INodeProperties[] = [
	agentLocator(show, '=/agents/{{encodeURIComponent($value)}}/executions/'),
	...returnAllAndLimit(show),
];
