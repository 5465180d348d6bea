import type { INodeProperties } from 'n8n-workflow';

type Show = NonNullable<INodeProperties['displayOptions']>['show'];

/** Return All / Limit for a list operation; the paginator reads both. */
export function returnAllAndLimit(show: Show): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			displayOptions: { show },
			default: false,
			description: 'Whether to return all results or only up to a given limit',
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			displayOptions: { show: { ...show, returnAll: [false] } },
			typeOptions: { minValue: 1 },
			default: 50,
			description: 'Max number of results to return',
		},
	];
}

/** A space, from the spaces list or by its token. `url` makes a declarative node address it. */
export function spaceLocator(show: Show, url?: string, name = 'space'): INodeProperties {
	return {
		displayName: 'Space',
		name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: 'The space (a call list) to use',
		displayOptions: { show },
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: 'searchSpaces', searchable: true },
			},
			{
				displayName: 'By Token',
				name: 'token',
				type: 'string',
				placeholder: 'e.g. outbound-leads-7f3a9c',
				hint: 'The token of the space, as in its URL in Unpod',
				validation: [
					{ type: 'regex', properties: { regex: '^[^/\\s]+$', errorMessage: 'A token has no spaces or slashes' } },
				],
			},
		],
		...(url ? { routing: { request: { url } } } : {}),
	};
}

/** An agent (pilot), from the agents list or by its handle. */
export function agentLocator(show: Show, url?: string, name = 'agent', displayName = 'Agent'): INodeProperties {
	return {
		displayName,
		name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: 'The AI agent (pilot) to use',
		displayOptions: { show },
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: 'searchAgents', searchable: true },
			},
			{
				displayName: 'By Handle',
				name: 'handle',
				type: 'string',
				placeholder: 'e.g. sales-assistant',
				validation: [
					{ type: 'regex', properties: { regex: '^[^/\\s]+$', errorMessage: 'A handle has no spaces or slashes' } },
				],
			},
		],
		...(url ? { routing: { request: { url } } } : {}),
	};
}

export function simplifyField(show: Show): INodeProperties {
	return {
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: true,
		displayOptions: { show },
		description:
			'Whether to return flat fields a CRM or sheet can take (ids, status, contact, call outcome, transcript as text) instead of the raw task',
	};
}

/** Filters of the task lists. The routing serves declarative nodes; `taskFilterQuery` serves the others. */
export function taskFilters(show: Show): INodeProperties {
	return {
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: { show },
		options: [
			{
				displayName: 'Call Type',
				name: 'callType',
				type: 'options',
				options: [
					{ name: 'Inbound', value: 'inbound' },
					{ name: 'Outbound', value: 'outbound' },
				],
				default: 'outbound',
				routing: { send: { type: 'query', property: 'call_type' } },
			},
			{
				displayName: 'Created After',
				name: 'createdAfter',
				type: 'dateTime',
				default: '',
				routing: {
					send: { type: 'query', property: 'from_ts', value: '={{ Math.floor(new Date($value).getTime() / 1000) }}' },
				},
			},
			{
				displayName: 'Created Before',
				name: 'createdBefore',
				type: 'dateTime',
				default: '',
				routing: {
					send: { type: 'query', property: 'to_ts', value: '={{ Math.floor(new Date($value).getTime() / 1000) }}' },
				},
			},
			{
				displayName: 'Search',
				name: 'search',
				type: 'string',
				default: '',
				description: 'Matches the contact name, number or email',
				routing: { send: { type: 'query', property: 'search' } },
			},
			{
				displayName: 'Status',
				name: 'status',
				type: 'options',
				options: [
					{ name: 'Completed', value: 'completed' },
					{ name: 'Failed', value: 'failed' },
					{ name: 'Pending', value: 'pending' },
				],
				default: 'completed',
				routing: { send: { type: 'query', property: 'status' } },
			},
		],
	};
}
