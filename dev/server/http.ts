/** HTTP plumbing of the local Unpod server: replies, errors, bodies, envelopes, pages. */
import type { IncomingMessage, ServerResponse } from 'http';

export interface Reply {
	status: number;
	/** `undefined` sends no body at all (a 204). */
	body: unknown;
	headers?: Record<string, string>;
}

export interface RecordedRequest {
	method: string;
	path: string;
	query: Record<string, string>;
	headers: Record<string, string>;
	body: unknown;
	status?: number;
	at: number;
}

/** A request's headers as one string each, as a test reads what reached a host. */
export function headersOf(req: IncomingMessage): Record<string, string> {
	return Object.fromEntries(
		Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)]),
	);
}

/** Thrown by a route to answer at once. */
export class HttpError extends Error {
	constructor(public reply: Reply) {
		super(`HTTP ${reply.status}`);
	}
}

export const fail = (status: number, body: unknown): never => {
	throw new HttpError({ status, body });
};

/** The envelope of Unpod's renderer: `{status_code, message, data}`. */
export function envelope(status: number, message: string, data: unknown, extra: Record<string, unknown> = {}) {
	return { status_code: status, message, data, ...extra };
}

/** A 206 business failure, as the task views send it: `{message, errors}`, no status code. */
export const businessFailure = (message: string, errors?: unknown): never =>
	fail(206, errors === undefined ? { message } : { message, errors });

/** A Django REST serializer's errors as Python prints them, the text Unpod puts in `message`. */
export function pythonErrors(errors: Record<string, string[]>): string {
	const fields = Object.entries(errors).map(
		([field, messages]) =>
			`'${field}': [${messages.map((m) => `ErrorDetail(string='${m}', code='${m.includes('required') ? 'required' : 'invalid'}')`).join(', ')}]`,
	);
	return `{${fields.join(', ')}}`;
}

export function pageParams(query: URLSearchParams, defaultSize: number): { page: number; pageSize: number } {
	const page = query.has('page') ? Number(query.get('page')) : 1;
	const pageSize = query.has('page_size') ? Number(query.get('page_size')) : defaultSize;
	if (!Number.isInteger(page) || page < 1 || !Number.isInteger(pageSize) || pageSize < 1) {
		fail(400, {
			status_code: 400,
			message: 'Invalid page parameters',
			errors: 'page and page_size must be positive integers',
		});
	}
	return { page, pageSize };
}

/** One page of a list, in the list envelope (`count` is the total). */
export function listReply<T>(
	all: T[],
	query: URLSearchParams,
	defaultSize: number,
	message: string,
	form = (x: T) => x as unknown,
) {
	const { page, pageSize } = pageParams(query, defaultSize);
	const data = all.slice((page - 1) * pageSize, page * pageSize).map(form);
	return { status: 200, body: { status_code: 200, message, count: all.length, data } };
}

export function parseJson(raw: string): unknown {
	if (!raw) return undefined;
	try {
		return JSON.parse(raw);
	} catch {
		return raw;
	}
}

export function readBody(req: IncomingMessage): Promise<string> {
	return new Promise((resolve) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
		req.on('error', () => resolve(''));
	});
}

export function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
	if (res.destroyed) return;
	if (body === undefined) {
		res.writeHead(status, headers);
		res.end();
		return;
	}
	const text = JSON.stringify(body);
	res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), ...headers });
	res.end(text);
}
