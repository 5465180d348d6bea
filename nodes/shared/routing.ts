import type {
	IDataObject,
	IExecutePaginationFunctions,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INodeExecutionData,
	PostReceiveAction,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { assertUnpodSuccess } from './errors';
import { routingPaginator } from './pagination';
import type { ListQuery } from './pagination';
import { simplifyIfAsked, taskListQuery } from './tasks';
import type { TaskScope } from './tasks';

/** First postReceive step of every declarative operation: turns failures into NodeApiErrors. */
export async function checkResponse(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	assertUnpodSuccess(this.getNode(), response);
	return items;
}

/** The error check for an endpoint whose 401 may mean a refused scheme (`path` as the mapper knows it). */
export function checkResponseAt(path: string) {
	return async function (
		this: IExecuteSingleFunctions,
		items: INodeExecutionData[],
		response: IN8nHttpFullResponse,
	): Promise<INodeExecutionData[]> {
		assertUnpodSuccess(this.getNode(), response, undefined, undefined, path);
		return items;
	};
}

/** The error check for answers that may not name what was asked for (a bare "Agent not found"). */
export function checkResponseNaming(parameter: string, label: string) {
	return async function (
		this: IExecuteSingleFunctions,
		items: INodeExecutionData[],
		response: IN8nHttpFullResponse,
	): Promise<INodeExecutionData[]> {
		const value = this.getNodeParameter(parameter, undefined, { extractValue: true }) as string;
		assertUnpodSuccess(this.getNode(), response, `${label} "${value}"`);
		return items;
	};
}

/** Unwraps the envelope's `data`; a bare object is kept as it is, an empty answer is `{}`. */
export async function unwrapData(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return items.map((item) => {
		if (!item.json || typeof item.json !== 'object') return { json: {} };
		const data = (item.json as IDataObject).data;
		return { json: data && typeof data === 'object' && !Array.isArray(data) ? (data as IDataObject) : item.json };
	});
}

/** The output steps of an operation: the error check first, then `steps`. */
export function output(...steps: PostReceiveAction[]) {
	return { postReceive: [checkResponse, ...steps] };
}

/** Like `output`, with the error check `check`. */
export function outputCheckedBy(check: PostReceiveAction, ...steps: PostReceiveAction[]) {
	return { postReceive: [check, ...steps] };
}

/** preSend: refuses an update that would change nothing. */
export async function requireBodyField(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const body = (requestOptions.body ?? {}) as IDataObject;
	if (Object.keys(body).length === 0) {
		throw new NodeOperationError(this.getNode(), 'Choose at least one field to update', {
			description: 'Add a field under "Update Fields".',
			itemIndex: this.getItemIndex(),
		});
	}
	return requestOptions;
}

/**
 * Routing of a declarative list operation: every page through the one paginator, each
 * checked by `check` (the error mapper), rows shaped by `transform`, duplicates dropped by `key`.
 */
export function listRouting(options: {
	url?: string;
	key?: string;
	transform?: (this: IExecutePaginationFunctions, rows: IDataObject[]) => IDataObject[];
	check?: PostReceiveAction;
	query?: ListQuery;
	path?: (this: IExecutePaginationFunctions) => string;
}) {
	return {
		request: { method: 'GET' as const, ...(options.url ? { url: options.url } : {}) },
		send: { paginate: true },
		operations: {
			pagination: routingPaginator({
				key: options.key,
				transform: options.transform,
				query: options.query,
				url: options.path,
			}),
		},
		output: { postReceive: [options.check ?? checkResponse] },
	};
}

/**
 * A task list (of an agent or a space, named by `parameter`): the filters sent as the list
 * understands them and checked by the node, rows simplified when asked.
 */
export function taskListRouting(
	parameter: 'space' | 'agent',
	options: { filteredBy?: TaskScope; path?: (this: IExecutePaginationFunctions) => string } = {},
) {
	return listRouting({
		key: 'task_id',
		transform: simplifyIfAsked,
		check: checkResponseNaming(parameter, parameter),
		path: options.path,
		query(this: IExecutePaginationFunctions) {
			return taskListQuery(options.filteredBy ?? parameter, this.getNodeParameter('filters', {}) as IDataObject);
		},
	});
}
