import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IN8nHttpFullResponse, INode, JsonObject } from 'n8n-workflow';
import { withoutCarrierSecrets } from './secrets';
import { header, retryAfterSeconds } from './responseHeaders';

/** What the mapper needs of a response: its status, body and headers. */
export interface UnpodResponse {
	statusCode: number;
	body: unknown;
	headers?: Record<string, unknown>;
}

export interface UnpodErrorDetails {
	httpCode: string;
	message: string;
	description: string;
	/** Seconds to wait before retrying, on 429. */
	retryAfter?: number;
	/** A 2xx that Unpod meant as a refusal (read, not lost): sending it again gets the same. */
	refused?: boolean;
	/** A redirect's `Location`, as sent: the transport follows it while it stays at the Base URL's origin. */
	location?: string;
}

function parsedDetail(text: string): string | undefined {
	if (!text.trimStart().startsWith('{')) return undefined;
	try {
		const parsed = JSON.parse(text) as IDataObject;
		const detail = parsed.detail ?? parsed.message;
		return typeof detail === 'string' ? detail : undefined;
	} catch {
		return undefined;
	}
}

/** Renders the API's `errors`: a string, or an object of field -> messages (nested for documents). */
export function formatApiErrors(errors: unknown, path = ''): string {
	if (errors === undefined || errors === null || errors === '') return '';
	if (typeof errors === 'string' && !path) {
		// Run lists pass Unpod's task service's answer on as text, often `{"detail": "..."}`.
		const inner = parsedDetail(errors);
		if (inner) return inner;
	}
	if (typeof errors !== 'object') return path ? `${path}: ${String(errors)}` : String(errors);
	if (Array.isArray(errors)) {
		if (errors.every((e) => typeof e !== 'object' || e === null)) {
			const text = errors.map(String).join(' ');
			return path ? `${path}: ${text}` : text;
		}
		return errors
			.map((e, i) => formatApiErrors(e, `${path}[${i}]`))
			.filter(Boolean)
			.join('; ');
	}
	return Object.entries(errors as IDataObject)
		.map(([field, value]) => formatApiErrors(value, path ? `${path}.${field}` : field))
		.filter(Boolean)
		.join('; ');
}

/**
 * Unpod's bridge views put a serializer's errors into `message` as Python prints them:
 * `{'name': [ErrorDetail(string='This field is required.', code='required')]}`. Returns
 * `name: This field is required.`, or undefined when the text is not such a dict.
 */
export function readablePythonErrors(text: string): string | undefined {
	if (!/^\{.*ErrorDetail\(string=/s.test(text.trim())) return undefined;
	const fields: string[] = [];
	const field =
		/'([^']+)':\s*\[((?:\s*ErrorDetail\(string=(?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"),\s*code='[^']*'\),?)+)\s*\]/g;
	for (const [, name, details] of text.matchAll(field)) {
		const messages = [...details.matchAll(/string=(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")/g)].map((m) =>
			(m[1] ?? m[2]).replace(/\\(.)/g, '$1'),
		);
		fields.push(`${name}: ${messages.join(' ')}`);
	}
	return fields.length ? fields.join('; ') : undefined;
}

function apiText(body: unknown): { message: string; errors: string } {
	if (!body || typeof body !== 'object' || Array.isArray(body)) return { message: '', errors: '' };
	const b = body as IDataObject;
	const message = typeof b.message === 'string' ? b.message : typeof b.detail === 'string' ? b.detail : '';
	return { message: readablePythonErrors(message) ?? message, errors: formatApiErrors(b.errors) };
}

/** A 2xx with nothing in it (a 204): a success with nothing to say. */
export const isEmptyBody = (body: unknown) =>
	body === undefined || body === null || (typeof body === 'string' && body.trim() === '');

/** `{data: {detail: "..."}}`: how Unpod's bridge create says it found no organization, with HTTP 200. */
function detailOnly(body: unknown): string | undefined {
	const data = (body as IDataObject | undefined)?.data as IDataObject | undefined;
	if (!data || typeof data !== 'object' || Array.isArray(data)) return undefined;
	const keys = Object.keys(data);
	return keys.length === 1 && keys[0] === 'detail' && typeof data.detail === 'string' ? data.detail : undefined;
}

/** Endpoints that, in Unpod's source, accept only session (JWT) authentication. */
const JWT_ONLY_ENDPOINT = /^\/(spaces|organizations)\/([^/]+\/)?$/;

/** Organization reports (analytics, billing): a token may reach calls and not these. */
const REPORT_ENDPOINT = /^\/organisation\/(analytics|billing)\/$/;

const joined = (message: string, errors: string) => (errors && errors !== message ? `${message}: ${errors}` : message);

/**
 * The one place that decides whether an Unpod answer is a failure and how to say so.
 * Returns undefined for a usable success. `subject` names what was asked for
 * (for example `agent "sales-bot"`), for answers that do not name it themselves.
 */
export function describeUnpodError(
	response: UnpodResponse,
	subject?: string,
	/** The request's path under /api/v2/platform, when known: some answers depend on it. */
	path?: string,
): UnpodErrorDetails | undefined {
	const { statusCode, body, headers } = response;
	const httpCode = String(statusCode);
	const isObject = !!body && typeof body === 'object';
	const { message, errors } = apiText(body);

	if (statusCode >= 200 && statusCode < 300 && statusCode !== 206) {
		const detail = isObject ? detailOnly(body) : undefined;
		if (detail) {
			return {
				httpCode,
				message: `Unpod refused the request: ${detail}`,
				refused: true,
				description:
					'Unpod answered HTTP 200 with only a "detail" message and no record. Check the Organization Handle in the credential.',
			};
		}
		if (isObject || isEmptyBody(body)) return undefined;
		return {
			httpCode,
			message: 'Unpod sent an answer that is not valid JSON',
			description: `HTTP ${statusCode} with a body that could not be read as JSON${snippet(body)}. This is usually a passing fault; run the node again.`,
		};
	}

	if (statusCode >= 300 && statusCode < 400) {
		const location = header(headers, 'location');
		let to = 'another address';
		try {
			if (location && /^[a-z][a-z0-9+.-]*:/i.test(location)) to = new URL(location).origin;
		} catch {
			// A Location that is no URL: said as another address.
		}
		return {
			httpCode,
			message: `Unpod answered with a redirect (HTTP ${statusCode}) to ${to}, which was not followed`,
			description:
				"An API read's redirect is followed only within the origin (scheme, host and port) of the credential's Base URL, a recording's to a public host without the credential, at most 5 times each, so that the API token and the organization's headers go nowhere else. Check the Base URL in the credential.",
			location,
		};
	}
	if (statusCode === 206) {
		const text = joined(message || 'Unpod could not carry out the request', errors);
		return {
			httpCode,
			// "Invalid Space Token" and the like do not say which one.
			message: subject && !errors ? `${text}: ${subject}` : text,
			description: 'Unpod answered with HTTP 206, its code for a request it understood but could not carry out.',
		};
	}
	if (statusCode === 401 && path && JWT_ONLY_ENDPOINT.test(path)) {
		return {
			httpCode,
			message: `Unpod refused the API token on ${path} (HTTP 401)`,
			description: `Unpod said: ${message || 'unauthorized'}. If the Bridge, Task and Agent operations work with this credential, the token is right and this Unpod endpoint does not accept the "Token" authorization scheme (in some Unpod versions the spaces and organizations endpoints accept only a browser session). Pick the space by its token instead of from the list, or ask Unpod support to enable API tokens there.`,
		};
	}
	if ((statusCode === 401 || statusCode === 403) && path && REPORT_ENDPOINT.test(path)) {
		const what = path.includes('billing') ? 'billing' : 'analytics';
		return {
			httpCode,
			message: `Unpod did not let this API key read the organization's ${what} (HTTP ${statusCode})`,
			description: `Unpod said: ${message || (statusCode === 401 ? 'unauthorized' : 'forbidden')}. Check the API Token in the credential, and that its Organization Handle is an organization this token belongs to (Unpod's documents: 401 for a missing or wrong token, 403 for an organization it may not use). If the Task and Agent operations work with this credential, this key may not read the organization's ${what}: ask the organization's owner for one that may.`,
		};
	}
	if (statusCode === 401) {
		return {
			httpCode,
			message: 'Unpod did not accept the API token: it is missing or wrong',
			description: `Check the API Token in the Unpod API credential. Unpod said: ${message || 'unauthorized'}`,
		};
	}
	if (statusCode === 403) {
		return {
			httpCode,
			message: `Access denied by Unpod${message ? `: ${message}` : ''}`,
			description:
				'The token was accepted but may not use this resource. Check that the Organization Handle (Org-Handle header) is an organization this token belongs to, and that the Product ID (Product-ID header) is right.',
		};
	}
	if (statusCode === 429) {
		const wait = retryAfterSeconds(headers);
		return {
			httpCode,
			message: `Unpod rate limit reached${wait !== undefined ? `: retry after ${wait} seconds` : ''}`,
			description:
				'Your Unpod plan limits requests per minute. Wait and run again, or lower the number of requests (larger batches, fewer polls).',
			retryAfter: wait,
		};
	}
	if (statusCode === 404) {
		const text = joined(message || 'Not found', errors);
		return {
			httpCode,
			message: subject && !errors ? `${text}: ${subject}` : text,
			description: subject
				? `Unpod found no ${subject}. Check the value or pick it from the list.`
				: 'Unpod found nothing at this address.',
		};
	}
	if (statusCode >= 500 || !isObject) {
		return {
			httpCode,
			message: isObject
				? `Unpod server error (HTTP ${statusCode})${message ? `: ${message}` : ''}`
				: `Unpod answered HTTP ${statusCode} with a page that is not JSON`,
			description: isObject
				? 'The Unpod API failed. This is usually temporary: try again in a moment.'
				: `The answer was not from the Unpod API itself (a proxy or gateway page, for example)${snippet(body)}. Check the Base URL in the credential, or try again later.`,
		};
	}
	return {
		httpCode,
		message: joined(message || `Unpod rejected the request (HTTP ${statusCode})`, errors),
		description: `Unpod answered HTTP ${statusCode}.`,
	};
}

function snippet(body: unknown): string {
	if (typeof body !== 'string' || !body.trim()) return '';
	const text = body
		.replace(/<[^>]*>/g, ' ')
		.replace(/\s+/g, ' ')
		.trim();
	return text ? ` (it began: "${text.slice(0, 80)}")` : '';
}

export function unpodError(
	node: INode,
	response: UnpodResponse,
	details: UnpodErrorDetails,
	itemIndex?: number,
): NodeApiError {
	const body =
		response.body && typeof response.body === 'object'
			? withoutCarrierSecrets(response.body as JsonObject)
			: { body: String(response.body ?? '') };
	const error = new NodeApiError(node, body, {
		message: details.message,
		description: details.description,
		httpCode: details.httpCode,
		itemIndex,
	});
	// For the retry policy: how long Unpod asked to wait, and the plan's limit when it says.
	if (details.retryAfter !== undefined) error.context.retryAfter = details.retryAfter;
	if (details.refused) error.context.refused = true;
	if (details.location !== undefined) error.context.location = details.location;
	const limit = Number(header(response.headers, 'x-ratelimit-limit'));
	if (details.httpCode === '429' && limit > 0) error.context.rateLimitPerMinute = limit;
	return error;
}

/** Throws the mapped NodeApiError when the answer is a failure. */
export function assertUnpodSuccess(
	node: INode,
	response: UnpodResponse | IN8nHttpFullResponse,
	subject?: string,
	itemIndex?: number,
	path?: string,
): void {
	const details = describeUnpodError(response as UnpodResponse, subject, path);
	if (details) throw unpodError(node, response as UnpodResponse, details, itemIndex);
}

/** The HTTP status a failed request answered (the mapped error's `httpCode`), or NaN when none came. */
export function httpStatusOf(error: unknown): number {
	const code = (error as { httpCode?: unknown } | undefined)?.httpCode;
	return code === undefined || code === null || code === '' ? NaN : Number(code);
}

/** An error as n8n should show it: the package's own errors as they are, anything else wrapped. */
export function asNodeError(node: INode, error: unknown, itemIndex?: number): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(node, error as Error, { itemIndex });
}
