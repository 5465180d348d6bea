/**
 * What every vendor twin shares: the requests it was sent, the vendor's own 429 on demand, and
 * a reply type. Each twin answers only what the examples ask of that vendor, in the shapes its
 * API reference gives, and keeps its records in memory.
 */
import type { IncomingHttpHeaders } from 'http';
import type { Reply } from '../server/http';

export interface TwinRequest {
	method: string;
	path: string;
	query: URLSearchParams;
	headers: IncomingHttpHeaders;
	body: any;
	status?: number;
}

/** A twin answers as the local Unpod server does: a status, a JSON body (none: `undefined`), headers. */
export type TwinReply = Reply;

interface Fault {
	method: string;
	path: RegExp;
	times: number;
	/** 429 answers the vendor's rate-limit body with Retry-After; another status, the vendor's server error. */
	status: number;
	retryAfterSeconds: number;
}

export abstract class Twin {
	abstract readonly name: string;
	/** The hosts the vendor's API is reached at (the proxy hands their connections to this twin). */
	abstract readonly hosts: string[];
	readonly requests: TwinRequest[] = [];
	private faults: Fault[] = [];
	/** A counter for the ids this twin hands out. */
	private lastId = 0;

	/** The next `times` requests to `method path` answer the vendor's 429 and change nothing. */
	rateLimit(method: string, path: RegExp, times = 1, retryAfterSeconds = 1): void {
		this.faults.push({ method, path, times, status: 429, retryAfterSeconds });
	}

	/** The next `times` requests to `method path` answer `status` (a 5xx: the vendor is down) and change nothing. */
	failNext(method: string, path: RegExp, times = 1, status = 503): void {
		this.faults.push({ method, path, times, status, retryAfterSeconds: 0 });
	}

	/** Requests that reached a route (429s and refusals included), optionally of one method and path. */
	sent(method?: string, path?: RegExp): TwinRequest[] {
		return this.requests.filter((r) => (!method || r.method === method) && (!path || path.test(r.path)));
	}

	handle(request: TwinRequest): TwinReply {
		this.requests.push(request);
		const reply = this.answer(request);
		request.status = reply.status;
		return reply;
	}

	protected nextId(base = 1000): number {
		return base + ++this.lastId;
	}

	private answer(request: TwinRequest): TwinReply {
		if (!this.authorized(request)) return this.unauthorized();
		const fault = this.faults.find((f) => f.times > 0 && f.method === request.method && f.path.test(request.path));
		if (fault) {
			fault.times--;
			if (fault.status !== 429) return { status: fault.status, body: { message: 'Service Unavailable' } };
			return { ...this.tooMany(), headers: { 'Retry-After': String(fault.retryAfterSeconds) } };
		}
		return this.route(request) ?? { status: 404, body: { message: `No route ${request.method} ${request.path}` } };
	}

	protected abstract authorized(request: TwinRequest): boolean;
	protected abstract unauthorized(): TwinReply;
	protected abstract tooMany(): TwinReply;
	protected abstract route(request: TwinRequest): TwinReply | undefined;
}

/** Path parameters of `pattern` (`/crm/v3/objects/:type/:id`) in `path`, or undefined. */
export function match(pattern: string, path: string): Record<string, string> | undefined {
	const names: string[] = [];
	const regex = new RegExp(
		'^' +
			pattern.replace(/:([a-zA-Z]+)/g, (_, name) => {
				names.push(name);
				return '([^/]+)';
			}) +
			'/?$',
	);
	const found = regex.exec(path);
	if (!found) return undefined;
	return Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(found[i + 1])]));
}
