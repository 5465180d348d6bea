import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecuteFunctions,
	IExecutePaginationFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IN8nHttpFullResponse,
	INode,
	INodeExecutionData,
	IPollFunctions,
	IWebhookFunctions,
	NodeApiError,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { asNodeError, assertUnpodSuccess, httpStatusOf, isEmptyBody } from './errors';
import { header } from './responseHeaders';
import { withRetries } from './retry';
import { withoutCarrierSecrets } from './secrets';
import { atOrigin, baseUrlProblem, downloadProblem, MAX_REDIRECTS, redirectTarget } from './addresses';
import type { WaitBudget } from './retry';

export const API_PREFIX = '/api/v2/platform';

/**
 * A request that hangs this long is given up: for a create it may have been carried out
 * (never resent), for a read it is retried.
 */
export const REQUEST_TIMEOUT_MS = 60_000;

/** The base address of every request, from the credential; a trailing slash is forgiven. */
export const BASE_URL_EXPRESSION = `={{$credentials.baseUrl.replace(/\\/+$/, "")}}${API_PREFIX}`;

export type UnpodContext = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions | IWebhookFunctions;

export interface UnpodRequest {
	method: IHttpRequestMethods;
	/** Relative to /api/v2/platform, with its trailing slash. */
	path: string;
	qs?: IDataObject;
	body?: IDataObject;
	/** Names what was asked for, for a 404 that does not name it. */
	subject?: string;
	itemIndex?: number;
	/** Wait out rate limits and retry transient failures within this budget; without it, fail at once. */
	budget?: WaitBudget;
}

/** Paths that Unpod's source and its 2026 docs spell differently. */
const SPELLINGS: Array<[string, string]> = [['/provider-configurations/', '/providers-configurations/']];

/** The other spelling of a path, if it has one: a 404 at one is tried once at the other. */
export function otherSpelling(path: string): string | undefined {
	for (const [a, b] of SPELLINGS) {
		if (path.includes(a)) return path.replace(a, b);
		if (path.includes(b)) return path.replace(b, a);
	}
	return undefined;
}

/** What a path that the backend does not serve answers: nothing was done there. */
const NOT_SERVED = [404, 405];

/**
 * Runs `send` at the first of `paths` and, while a path answers 404 or 405, at the next: the
 * answer and the path that served it. A failure of another kind is reported as it is; when no
 * path serves, the first path's failure.
 */
export async function sendToFirstServedPath<T>(
	node: INode,
	paths: string[],
	send: (path: string) => Promise<T>,
	itemIndex?: number,
): Promise<{ answer: T; path: string }> {
	let first: NodeApiError | NodeOperationError | undefined;
	for (const path of paths) {
		try {
			return { answer: await send(path), path };
		} catch (error) {
			const failure = asNodeError(node, error, itemIndex);
			first ??= failure;
			if (!NOT_SERVED.includes(httpStatusOf(failure))) throw failure;
		}
	}
	throw first ?? new NodeOperationError(node, 'No path to send the request to', { itemIndex });
}

/** Runs `send` at `path`, and at its other spelling where that one is not served. */
export async function atEitherSpelling<T>(node: INode, path: string, send: (path: string) => Promise<T>): Promise<T> {
	const other = otherSpelling(path);
	return (await sendToFirstServedPath(node, other ? [path, other] : [path], send)).answer;
}

/**
 * The credential's Base URL without its trailing slash, once it is one the API token may travel
 * to (addresses.ts); otherwise the node stops, naming why, before any request.
 */
function checkedBaseUrl(node: INode, raw: unknown): string {
	const baseUrl = String(raw ?? '')
		.trim()
		.replace(/\/+$/, '');
	const problem = baseUrlProblem(baseUrl);
	if (problem) throw new NodeOperationError(node, problem);
	return baseUrl;
}

/** The credential's Base URL, checked (checkedBaseUrl). */
export async function unpodBaseUrl(context: UnpodContext): Promise<string> {
	return checkedBaseUrl(context.getNode(), (await context.getCredentials('unpodApi')).baseUrl);
}

/**
 * Runs `send` at `url` and, while it fails with a redirect of a read that stays at `baseUrl`'s
 * origin, at the redirect's target: the credential is sent only there. Every request of the
 * package turns n8n's own following of redirects off (`disableFollowRedirect`), which would
 * send the token or the organization's headers to any host a redirect names.
 */
export async function followRedirectsAtHome<T>(
	node: INode,
	method: string,
	url: string,
	baseUrl: string,
	send: (url: string) => Promise<T>,
): Promise<T> {
	let target = url;
	for (let hop = 0; ; hop++) {
		try {
			return await send(target);
		} catch (error) {
			const location = (error as { context?: { location?: unknown } }).context?.location;
			const next = redirectTarget(location, target);
			const followed = next && hop < MAX_REDIRECTS && ['GET', 'HEAD'].includes(method) && atOrigin(next, baseUrl);
			if (!followed) throw asNodeError(node, error);
			target = next;
		}
	}
}

/** Sends one request with the credential and returns the parsed body, or throws the mapped error. */
export async function unpodApiRequest(this: UnpodContext, request: UnpodRequest): Promise<IDataObject> {
	const baseUrl = await unpodBaseUrl(this);
	const sendTo = async (path: string) => {
		const first = `${baseUrl}${API_PREFIX}${path}`;
		const sendOnce = async (url: string) => {
			const options: IHttpRequestOptions = {
				method: request.method,
				url,
				// A redirect's target carries its own query.
				qs: url === first ? request.qs : undefined,
				body: request.body,
				json: true,
				returnFullResponse: true,
				ignoreHttpStatusErrors: true,
				disableFollowRedirect: true,
				timeout: REQUEST_TIMEOUT_MS,
			};
			const response = (await this.helpers.httpRequestWithAuthentication.call(
				this,
				'unpodApi',
				options,
			)) as IN8nHttpFullResponse;
			assertUnpodSuccess(this.getNode(), response, request.subject, request.itemIndex, path);
			// A 204 (or any empty 2xx) has nothing to read.
			return isEmptyBody(response.body) ? {} : withoutCarrierSecrets(response.body as IDataObject);
		};
		const send = async () => await followRedirectsAtHome(this.getNode(), request.method, first, baseUrl, sendOnce);
		if (!request.budget) return await send();
		return await withRetries(this.getNode(), send, request.budget, request.method === 'GET');
	};
	return await atEitherSpelling(this.getNode(), request.path, sendTo);
}

/**
 * One request of a declarative operation through n8n's routing engine, sent as
 * `unpodApiRequest` sends the others: at either spelling of its path, redirects followed only at
 * home, and retried within `budget` (a write only when `idempotent`). `options` replaces the
 * request's URL or query.
 */
export async function routedRequest(
	context: IExecutePaginationFunctions,
	requestData: DeclarativeRestApiSettings.ResultOptions,
	options: { url?: string; qs?: IDataObject },
	budget: WaitBudget,
	idempotent: boolean,
): Promise<INodeExecutionData[]> {
	const node = context.getNode();
	// The routing engine has resolved the credential's Base URL into baseURL (REQUEST_DEFAULTS):
	// no second read of the credential per request.
	const apiBase = String(requestData.options.baseURL ?? '').replace(/\/+$/, '');
	const baseUrl = checkedBaseUrl(node, apiBase.endsWith(API_PREFIX) ? apiBase.slice(0, -API_PREFIX.length) : apiBase);
	const method = String(requestData.options.method ?? 'GET').toUpperCase();
	const sendOnce = async (url: string, qs = options.qs ?? requestData.options.qs) =>
		await context.makeRoutingRequest({ ...requestData, options: { ...requestData.options, ...options, url, qs } });
	const send = (path: string) => async () => {
		// Where the routing engine would send `path`: the baseURL joined to it, as axios joins them.
		const url = /^https?:/i.test(path) ? path : `${apiBase}/${path.replace(/^\/+/, '')}`;
		// A redirect's target carries its own query.
		return await followRedirectsAtHome(node, method, url, baseUrl, async (target) =>
			target === url ? await sendOnce(path) : await sendOnce(target, {}),
		);
	};
	const path = String(options.url ?? requestData.options.url ?? '');
	return await atEitherSpelling(node, path, async (url) => await withRetries(node, send(url), budget, idempotent));
}

/** A file body as n8n's HTTP helper hands it over with `encoding: 'stream'`. */
export interface FileStream {
	pause(): unknown;
	resume(): unknown;
	on(event: 'data', listener: (chunk: { length: number }) => void): unknown;
	on(event: 'newListener', listener: (event: string | symbol) => void): unknown;
	destroy(error?: Error): unknown;
}

/**
 * Starts downloading a file (a call recording) as a stream. The credential's headers go only
 * to Unpod's own origin: a recording anywhere else (a storage host, plain http), or a redirect
 * there, gets a plain request, and every address on the way is checked (`downloadProblem`)
 * before it is asked. Transient failures are retried within `budget`.
 */
export async function downloadFile(
	this: IExecuteFunctions,
	url: string,
	itemIndex: number,
	budget: WaitBudget,
): Promise<{ body: FileStream; headers: IDataObject }> {
	const baseUrl = await unpodBaseUrl(this);
	const refuse = (target: string) => {
		const problem = downloadProblem(target, baseUrl);
		if (problem) throw new NodeOperationError(this.getNode(), problem, { itemIndex });
	};
	refuse(url);
	const send = async () => {
		let target = url;
		// Once a hop has left Unpod's origin, no later hop gets the credential, even one coming back.
		let atHome = atOrigin(target, baseUrl);
		for (let hop = 0; ; hop++) {
			const options: IHttpRequestOptions = {
				method: 'GET',
				url: target,
				encoding: 'stream',
				returnFullResponse: true,
				ignoreHttpStatusErrors: true,
				disableFollowRedirect: true,
				timeout: REQUEST_TIMEOUT_MS,
			};
			const response = (
				atHome
					? await this.helpers.httpRequestWithAuthentication.call(this, 'unpodApi', options)
					: await this.helpers.httpRequest(options)
			) as IN8nHttpFullResponse;
			if (response.statusCode >= 300) (response.body as FileStream).destroy();
			const next =
				response.statusCode >= 300 && response.statusCode < 400 && hop < MAX_REDIRECTS
					? redirectTarget(header(response.headers, 'location'), target)
					: undefined;
			if (!next) {
				if (response.statusCode >= 300)
					assertUnpodSuccess(this.getNode(), { ...response, body: {} }, `recording ${url}`, itemIndex);
				return { body: response.body as FileStream, headers: response.headers as IDataObject };
			}
			refuse(next);
			atHome = atHome && atOrigin(next, baseUrl);
			target = next;
		}
	};
	return await withRetries(this.getNode(), send, budget, true);
}

/** requestDefaults of the declarative nodes. */
export const REQUEST_DEFAULTS = {
	baseURL: BASE_URL_EXPRESSION,
	headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
	json: true,
	// Every answer goes through the package's error mapper (206 is a failure too).
	ignoreHttpStatusErrors: true,
	// Redirects are followed by routedRequest, and only at the Base URL's origin.
	disableFollowRedirect: true,
	timeout: REQUEST_TIMEOUT_MS,
};
