import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { CALL_DIRECTIONS } from './callLogs';
import { TASK_STATUSES } from './tasks';

type Show = NonNullable<INodeProperties['displayOptions']>['show'];

/** The Options collection of an operation (or of a trigger, with `show` empty). */
export function optionsCollection(show: Show, options: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		...(show && Object.keys(show).length ? { displayOptions: { show } } : {}),
		options,
	};
}

/** The Filters collection of a list operation; what each filter means is decided where it is read. */
export function filtersCollection(show: Show, options: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: { show },
		options,
	};
}

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

export interface LocatorOptions {
	displayName: string;
	name: string;
	description: string;
	searchListMethod: string;
	/** The by-value mode: `token`, `handle`, `slug`. */
	idMode: { name: string; displayName: string; placeholder: string; hint?: string };
	show: Show;
	/** For declarative nodes: the request URL, with `$value` the picked id. */
	url?: string;
	/** For declarative nodes: the routing of the picked id, when it is not the URL. */
	routing?: INodeProperties['routing'];
}

/** A resource picked from a searchable list or given by its id; ids never hold spaces or slashes. */
export function locator(options: LocatorOptions): INodeProperties {
	const { idMode } = options;
	return {
		displayName: options.displayName,
		name: options.name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: options.description,
		displayOptions: { show: options.show },
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: options.searchListMethod, searchable: true },
			},
			{
				displayName: idMode.displayName,
				name: idMode.name,
				type: 'string',
				placeholder: idMode.placeholder,
				...(idMode.hint ? { hint: idMode.hint } : {}),
				validation: [
					{
						type: 'regex',
						properties: { regex: '^[^/\\s]+$', errorMessage: `A ${idMode.name} has no spaces or slashes` },
					},
				],
			},
		],
		...(options.url ? { routing: { request: { url: options.url } } } : {}),
		...(options.routing ? { routing: options.routing } : {}),
	};
}

/** A space, from the spaces list or by its token. */
export function spaceLocator(show: Show, url?: string): INodeProperties {
	return locator({
		displayName: 'Space',
		name: 'space',
		description: 'The space (a call list) to use',
		searchListMethod: 'searchSpaces',
		idMode: {
			name: 'token',
			displayName: 'By ID',
			placeholder: 'Paste a space token, e.g. outbound-leads-7f3a9c',
			hint: "The space token: in Unpod, open the space's Settings and copy Space Token",
		},
		show,
		url,
	});
}

/** An agent (pilot), from the agents list or by its handle. */
export function agentLocator(show: Show, url?: string): INodeProperties {
	return locator({
		displayName: 'Agent',
		name: 'agent',
		description: 'The AI agent (pilot) to use',
		searchListMethod: 'searchAgents',
		idMode: { name: 'handle', displayName: 'By ID', placeholder: 'Paste an agent handle, e.g. sales-assistant' },
		show,
		url,
	});
}

const SIMPLIFIED = {
	run: 'run_id, status, size (contacts sent), run_mode, created, modified',
	person:
		'document ID, name, profile status, summary, calls made and connected, response rate, last and next call in ISO 8601, preferred time, sentiment',
	task: "IDs, status, contact and its own fields, the call chain, call outcome, what the agent extracted, Unpod's own follow-up, duration in seconds, transcript as text",
	callLog:
		'ID, direction, status, end reason, failure source and SIP cause, numbers, times in ISO 8601, duration in seconds, bridge name and ID',
};

/** Simplify, on by default; `of` says what it flattens. */
export function simplifyField(show: Show, of: keyof typeof SIMPLIFIED = 'task'): INodeProperties {
	return {
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: true,
		displayOptions: { show },
		description: 'Whether to return flat fields a CRM or sheet can take instead of the raw record',
		hint: `Flat fields: ${SIMPLIFIED[of]}`,
	};
}

/** Inbound / outbound, or both: one choice, one default, wherever calls are listed or watched. */
export function directionField(show?: Show): INodeProperties {
	return {
		displayName: 'Direction',
		name: 'direction',
		type: 'options',
		options: [{ name: 'All', value: 'all', description: 'Inbound and outbound calls' }, ...CALL_DIRECTIONS],
		default: 'all',
		...(show && Object.keys(show).length ? { displayOptions: { show } } : {}),
	};
}

/** The time range of a list, From and To in every list; the descriptions say which time is compared. */
export function timeRange(fromWhat: string, toWhat: string): { from: INodeProperties; to: INodeProperties } {
	const hint = 'A date without a time zone is read as UTC, as Unpod stores dates';
	return {
		from: { displayName: 'From', name: 'from', type: 'dateTime', default: '', description: fromWhat, hint },
		to: { displayName: 'To', name: 'to', type: 'dateTime', default: '', description: toWhat, hint },
	};
}

/**
 * Filters of the task lists. Nothing here is routed: `taskListQuery` decides, per list,
 * what the server is asked and what the node checks itself.
 */
export function taskFilters(show: Show): INodeProperties {
	const created = timeRange('Tasks created at or after this time', 'Tasks created at or before this time');
	return filtersCollection(show, [
		{
			displayName: 'Call Outcome',
			name: 'outcome',
			type: 'string',
			default: '',
			placeholder: 'e.g. Interested, Callback',
			description: 'Comma-separated outcomes of the post-call summary, as your agent reports them',
		},
		directionField(),
		created.from,
		{
			displayName: 'Search',
			name: 'search',
			type: 'string',
			default: '',
			description: 'Matches the contact name or phone number (a pattern, case-insensitive)',
		},
		{
			displayName: 'Status',
			name: 'status',
			type: 'multiOptions',
			options: TASK_STATUSES,
			default: ['completed'],
			description: 'The task statuses to return, e.g. Completed and Failed for every ended call',
			hint: 'Checked by this node on what the list returns, so Limit counts matching tasks',
		},
		created.to,
	]);
}

/** Both triggers' Events: which endings (and, for the push, live events) start the workflow; every ending of a call by default. */
export function eventsField(
	options: INodePropertyOptions[],
	field: Pick<INodeProperties, 'description' | 'hint' | 'displayOptions'>,
): INodeProperties {
	return {
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		options,
		default: ['completed', 'failed', 'partially_completed'],
		required: true,
		...field,
	};
}
