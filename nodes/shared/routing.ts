import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecutePaginationFunctions,
	IExecuteSingleFunctions,
	IHttpRequestMethods,
	IN8nHttpFullResponse,
	INodeExecutionData,
	PostReceiveAction,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { asNodeError, assertUnpodSuccess } from './errors';
import { asItemResult } from './itemLoop';
import { routedRequest } from './transport';
import { CARRIER_SECRET_KEYS, withoutKeys } from './secrets';
import { WAIT_FIELDS } from './resume';
import { executionBudget, markMaybeDone } from './retry';
import { routingPaginator } from './pagination';
import type { ListQuery, ServedPaths } from './pagination';
import { simplifyTask } from './outcome';
import { taskListPath, taskListQuery } from './taskLists';
import type { TaskScope } from './taskLists';

/** What no declarative answer puts out: a carrier's secrets, n8n's wait fields. */
const HIDDEN_FIELDS = [...CARRIER_SECRET_KEYS, ...WAIT_FIELDS];

/** What every declarative answer becomes once checked: its items, without the hidden fields. */
const checkedItems = (items: INodeExecutionData[]) =>
	items.map((item) => ({ ...item, json: withoutKeys(item.json, HIDDEN_FIELDS) }));

/** First postReceive step of every declarative operation: turns failures into NodeApiErrors. */
export async function checkResponse(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	assertUnpodSuccess(this.getNode(), response);
	return checkedItems(items);
}

/** The error check for an endpoint whose 401 may mean a refused scheme (`path` as the mapper knows it). */
export function checkResponseAt(path: string) {
	return async function (
		this: IExecuteSingleFunctions,
		items: INodeExecutionData[],
		response: IN8nHttpFullResponse,
	): Promise<INodeExecutionData[]> {
		assertUnpodSuccess(this.getNode(), response, undefined, undefined, path);
		return checkedItems(items);
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
		return checkedItems(items);
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

/** Checks an update before it is sent: one that would change nothing is refused. */
export function requireBodyField(this: IExecuteSingleFunctions, request: { body?: unknown }): void {
	const body = (request.body ?? {}) as IDataObject;
	if (Object.keys(body).length === 0) {
		throw new NodeOperationError(this.getNode(), 'Choose at least one field to update', {
			description: 'Add a field under "Update Fields".',
			itemIndex: this.getItemIndex(),
		});
	}
}

/**
 * Routing of a declarative operation that sends one request per item. The request goes
 * through the paginate hook, the one place where the routing engine lets a node wrap its
 * request, so that it gets the package's retry policy (429 waited out, 5xx and lost
 * connections sent again) and its failed item. A request that is not `idempotent` (a create,
 * a connect) is never sent again after an answer that may mean it was carried out.
 */
export function requestRouting(options: {
	method: IHttpRequestMethods;
	url?: string;
	idempotent: boolean;
	/** The error check; `checkResponse` unless the answer needs naming what was asked for. */
	check?: PostReceiveAction;
	/** What shapes the answer, after the check. */
	steps?: PostReceiveAction[];
	/** Refuses a request before it is sent (the failure is the item's, like any other). */
	before?: (this: IExecuteSingleFunctions, request: { body?: unknown }) => void | Promise<void>;
}) {
	const { idempotent, before } = options;
	return {
		request: { method: options.method, ...(options.url ? { url: options.url } : {}) },
		send: { paginate: true },
		operations: {
			async pagination(
				this: IExecutePaginationFunctions,
				requestData: DeclarativeRestApiSettings.ResultOptions,
			): Promise<INodeExecutionData[]> {
				return await asItemResult(this, async () => {
					await before?.call(this, requestData.options);
					const itemIndex = this.getItemIndex();
					try {
						const budget = executionBudget(this);
						const items = await routedRequest(this, requestData, {}, budget, idempotent);
						return items.map((item) => ({ ...item, pairedItem: { item: itemIndex } }));
					} catch (error) {
						const failure = asNodeError(this.getNode(), error, itemIndex);
						if (!idempotent) markMaybeDone(error, failure, 'done this', 'Check in Unpod before running it again');
						throw failure;
					}
				});
			},
		},
		output: { postReceive: [options.check ?? checkResponse, ...(options.steps ?? [])] },
	};
}

/**
 * Routing of a declarative list operation: every page through the one paginator, each
 * checked by `check` (the error mapper), rows flattened by `simplify` when the node's Simplify is
 * on, duplicates dropped by `key`.
 */
export function listRouting(options: {
	url?: string;
	key?: string;
	simplify?: (row: IDataObject) => IDataObject;
	check?: PostReceiveAction;
	query?: ListQuery;
	path?: (this: IExecutePaginationFunctions) => string;
	/** False for a list the API sends whole (no pages). */
	paged?: boolean;
	/** Paths a deployment may serve instead of `url`, asked in order (see `routingPaginator`). */
	servedPaths?: (this: IExecutePaginationFunctions) => ServedPaths;
}) {
	return {
		request: { method: 'GET' as const, ...(options.url ? { url: options.url } : {}) },
		send: { paginate: true },
		operations: {
			pagination: routingPaginator({
				key: options.key,
				simplify: options.simplify,
				query: options.query,
				url: options.path,
				paged: options.paged,
				servedPaths: options.servedPaths,
			}),
		},
		output: { postReceive: [options.check ?? checkResponse] },
	};
}

/**
 * A task list (of an agent or a space, named by `parameter`, or with `path` a run's): its path
 * and filters from the one task-list reader, sent as the list understands them and checked by
 * the node, rows simplified when asked.
 */
export function taskListRouting(
	parameter: 'space' | 'agent',
	options: { filteredBy?: TaskScope; path?: (this: IExecutePaginationFunctions) => string } = {},
) {
	return listRouting({
		key: 'task_id',
		simplify: simplifyTask,
		check: checkResponseNaming(parameter, parameter),
		path:
			options.path ??
			function (this: IExecutePaginationFunctions) {
				const id = String(this.getNodeParameter(parameter, '', { extractValue: true }));
				return taskListPath({ scope: parameter, id });
			},
		query(this: IExecutePaginationFunctions) {
			return taskListQuery(options.filteredBy ?? parameter, this.getNodeParameter('filters', {}) as IDataObject);
		},
	});
}
