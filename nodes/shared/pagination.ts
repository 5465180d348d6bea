import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecutePaginationFunctions,
	INodeExecutionData,
} from 'n8n-workflow';
import { asItemResult } from './itemLoop';
import { executionBudget } from './retry';
import { routedRequest, sendToFirstServedPath } from './transport';

/** The largest page size the platform is known to serve. */
export const MAX_PAGE_SIZE = 100;

export interface Page {
	/** The total number of items in the list (not the page length), when the API says. */
	count?: number;
	data: IDataObject[];
}

export type FetchPage = (page: number, pageSize: number) => Promise<Page>;

/** Which rows of a list to keep, for filters the node applies itself. */
export type RowMatch = (row: IDataObject) => boolean;

/**
 * The one paginator of the package. Walks `page`/`page_size` pages until `count` items
 * were seen, a page comes back empty (or short, when the API gives no count), or
 * `limit` items were collected; it never asks for more than `limit` needs. Items seen
 * twice (a list that shifted while it was read) are kept once when `key` names their id.
 * With `match`, only matching rows are kept and count towards `limit`, so it reads full
 * pages until `limit` rows matched or the list ends.
 */
export async function collectPages(
	fetchPage: FetchPage,
	limit?: number,
	key?: string,
	match?: RowMatch,
): Promise<IDataObject[]> {
	const pageSize = limit === undefined || match ? MAX_PAGE_SIZE : Math.max(1, Math.min(MAX_PAGE_SIZE, limit));
	const items: IDataObject[] = [];
	const seen = new Set<unknown>();
	let received = 0;
	for (let page = 1; ; page++) {
		const { count, data } = await fetchPage(page, pageSize);
		received += data.length;
		for (const item of data) {
			if (key) {
				if (seen.has(item[key])) continue;
				seen.add(item[key]);
			}
			if (match && !match(item)) continue;
			items.push(item);
		}
		if (limit !== undefined && items.length >= limit) return items.slice(0, limit);
		if (data.length === 0) break;
		if (typeof count === 'number' ? received >= count : data.length < pageSize) break;
	}
	return items;
}

/** Reads an envelope `{count, data}` or `{count, results}` (or a bare array) into a page. */
export function toPage(body: IDataObject | IDataObject[]): Page {
	if (Array.isArray(body)) return { data: body };
	const list = Array.isArray(body.data) ? body.data : body.results;
	const data = Array.isArray(list) ? (list as IDataObject[]) : [];
	return { count: typeof body.count === 'number' ? body.count : undefined, data };
}

/** Return All / Limit as the node's parameters say; undefined means all. */
export function requestedLimit(returnAll: boolean, limit: unknown): number | undefined {
	return returnAll ? undefined : Math.max(1, Number(limit) || 1);
}

/** A list's paths in the order to ask them, and where to say which one served. */
export interface ServedPaths {
	paths(): string[];
	served(path: string): void;
}

/** The query a declarative list sends, and the rows it keeps, from the node's parameters. */
export type ListQuery = (this: IExecutePaginationFunctions) => { qs: IDataObject; match?: RowMatch };

/**
 * The paginator for declarative operations: each page goes through the routing engine
 * (and so through the error check of every request), waiting out rate limits and retrying
 * transient failures; `query` adds query parameters and a row filter; `simplify` flattens each
 * row when the node's Simplify parameter is on.
 */
export function routingPaginator(
	options: {
		key?: string;
		simplify?: (row: IDataObject) => IDataObject;
		query?: ListQuery;
		/** The list's path, when it is built from several parameters (checked there). */
		url?: (this: IExecutePaginationFunctions) => string;
		/** False for a list the API sends whole: one request, cut to Limit here. */
		paged?: boolean;
		/**
		 * The list's paths in the order to ask them, where a deployment may serve only another
		 * (a 404 or 405 at one: the next); the one that served is reported, to be asked first after.
		 */
		servedPaths?: (this: IExecutePaginationFunctions) => ServedPaths;
	} = {},
) {
	return async function paginate(
		this: IExecutePaginationFunctions,
		requestData: DeclarativeRestApiSettings.ResultOptions,
	): Promise<INodeExecutionData[]> {
		return await asItemResult(this, async () => {
			const limit = requestedLimit(
				this.getNodeParameter('returnAll', false) as boolean,
				this.getNodeParameter('limit', 50),
			);
			const budget = executionBudget(this);
			const { qs, match } = options.query ? options.query.call(this) : { qs: {}, match: undefined };
			const url = options.url ? options.url.call(this) : requestData.options.url;
			const served = options.servedPaths?.call(this);
			const paged = options.paged !== false;
			const rows = await collectPages(
				async (page, pageSize) => {
					if (!paged && page > 1) return { data: [] };
					const ask = async (path: string) =>
						await routedRequest(
							this,
							requestData,
							{
								url: path,
								qs: { ...requestData.options.qs, ...qs, ...(paged ? { page, page_size: pageSize } : {}) },
							},
							budget,
							true,
						);
					let items: INodeExecutionData[];
					if (served) {
						const first = await sendToFirstServedPath(this.getNode(), served.paths(), ask, this.getItemIndex());
						served.served(first.path);
						items = first.answer;
					} else items = await ask(String(url ?? ''));
					return toPage((items[0]?.json ?? {}) as IDataObject);
				},
				limit,
				options.key,
				match,
			);
			const { simplify } = options;
			const shaped = simplify && this.getNodeParameter('simplify', true) ? rows.map(simplify) : rows;
			return shaped.map((json) => ({ json, pairedItem: { item: this.getItemIndex() } }));
		});
	};
}
