/** Fault injection and rate limiting for the local Unpod server, and how a fault answers. */
import type { ServerResponse } from 'http';
import { setTimeout as networkDelay } from 'timers/promises';
import { send } from './http';
import type { RecordedRequest } from './http';

export const FAULT_KINDS = [
	'status', // answer with `status` and `body`
	'rateLimit', // 429 with Retry-After
	'serverError', // 500 with a JSON body
	'html', // 502 with an HTML page, as a proxy would
	'malformed', // 200 with a truncated JSON body
	'slow', // wait `delayMs`, then answer normally
	'drop', // close the connection before the request is handled
	'dropAfter', // handle the request (state changes), then close the connection unanswered
	'redirect', // `status` (302) to `location`, the request's path and query kept
] as const;

export type FaultKind = (typeof FAULT_KINDS)[number];

/** Why a fault rule cannot be used, or undefined when it can. */
export function invalidFault(rule: { kind?: unknown; random?: { kinds?: unknown } }): string | undefined {
	const kinds = rule.random ? rule.random.kinds : [rule.kind];
	if (!Array.isArray(kinds) || kinds.length === 0) return 'random.kinds must list at least one fault kind';
	const unknown = kinds.filter((k) => !(FAULT_KINDS as readonly unknown[]).includes(k));
	return unknown.length
		? `Unknown fault kind ${unknown.map((k) => JSON.stringify(k)).join(', ')}; known: ${FAULT_KINDS.join(', ')}`
		: undefined;
}

export interface FaultRule {
	kind: FaultKind;
	method?: string;
	/** Matches the path (a substring, or a RegExp). */
	path?: string | RegExp;
	/** How many requests it hits; unlimited when absent. */
	times?: number;
	/** How many matching requests to let through before it starts. */
	after?: number;
	status?: number;
	body?: unknown;
	delayMs?: number;
	retryAfter?: number;
	/** Where a redirect leads: an origin (this server's own, another host's), the request's path and query added. */
	location?: string;
}

export interface RandomFaults {
	rate: number;
	kinds: FaultKind[];
	method?: string;
	path?: string | RegExp;
	seed?: number;
	delayMs?: number;
}

/** A small deterministic PRNG (mulberry32), so a soak run can be replayed. */
export function prng(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

function matches(rule: { method?: string; path?: string | RegExp }, method: string, path: string) {
	if (rule.method && rule.method.toUpperCase() !== method) return false;
	if (rule.path === undefined) return true;
	return typeof rule.path === 'string' ? path.includes(rule.path) : rule.path.test(path);
}

export class Faults {
	private rules: FaultRule[] = [];
	private random?: RandomFaults & { next: () => number };
	injected: Array<{ kind: FaultKind; method: string; path: string }> = [];

	add(rule: FaultRule): void {
		this.rules.push({ ...rule });
	}

	setRandom(random: RandomFaults | undefined): void {
		this.random = random ? { ...random, next: prng(random.seed ?? 1) } : undefined;
	}

	clear(): void {
		this.rules = [];
		this.random = undefined;
		this.injected = [];
	}

	/** The fault to apply to this request, if any; consumes one use of a counted rule. */
	take(method: string, path: string): FaultRule | undefined {
		for (const rule of this.rules) {
			if (!matches(rule, method, path)) continue;
			if (rule.after) {
				rule.after -= 1;
				continue;
			}
			if (rule.times !== undefined) {
				if (rule.times <= 0) continue;
				rule.times -= 1;
			}
			this.injected.push({ kind: rule.kind, method, path });
			return rule;
		}
		const random = this.random;
		if (random && matches(random, method, path) && random.next() < random.rate) {
			const kind = random.kinds[Math.floor(random.next() * random.kinds.length)];
			this.injected.push({ kind, method, path });
			return { kind, delayMs: random.delayMs };
		}
		return undefined;
	}
}

/** A token bucket per API token: `perMinute` requests a minute, bursts up to `burst`. */
export class RateLimiter {
	private buckets = new Map<string, { tokens: number; at: number }>();
	limited = 0;

	constructor(
		public perMinute = 0,
		public burst = perMinute,
	) {}

	configure(perMinute: number, burst = perMinute): void {
		this.perMinute = perMinute;
		this.burst = Math.max(1, burst);
		this.buckets.clear();
	}

	/** Returns the headers to send, and whether the request may go ahead. */
	check(key: string, now = Date.now()): { allowed: boolean; headers: Record<string, string> } {
		if (!this.perMinute) return { allowed: true, headers: {} };
		const perMs = this.perMinute / 60000;
		const bucket = this.buckets.get(key) ?? { tokens: this.burst, at: now };
		bucket.tokens = Math.min(this.burst, bucket.tokens + (now - bucket.at) * perMs);
		bucket.at = now;
		this.buckets.set(key, bucket);
		const allowed = bucket.tokens >= 1;
		if (allowed) bucket.tokens -= 1;
		else this.limited += 1;
		const untilFull = (this.burst - bucket.tokens) / perMs;
		const headers: Record<string, string> = {
			'X-RateLimit-Limit': String(this.perMinute),
			'X-RateLimit-Remaining': String(Math.floor(bucket.tokens)),
			'X-RateLimit-Reset': String(Math.ceil((now + untilFull) / 1000)),
		};
		if (!allowed) headers['Retry-After'] = String(Math.max(1, Math.ceil((1 - bucket.tokens) / perMs / 1000)));
		return { allowed, headers };
	}
}

/** Unpod's answer to a request over its rate limit. */
export const throttled = (retryAfter: string) => ({
	status_code: 429,
	message: 'Request was throttled.',
	errors: `Expected available in ${retryAfter} seconds.`,
});

/** Plays a fault on a request; returns true when the fault answered the request itself. */
export async function answerFault(
	fault: FaultRule,
	res: ServerResponse,
	record: RecordedRequest,
	headers: Record<string, string>,
): Promise<boolean> {
	switch (fault.kind) {
		case 'slow':
			// A slow network is wall-clock time, even where a test's clock runs the rest.
			await networkDelay(fault.delayMs ?? 2000);
			return false;
		case 'dropAfter':
			return false;
		case 'drop':
			record.status = 0;
			res.socket?.destroy();
			return true;
		case 'rateLimit': {
			record.status = 429;
			const retryAfter = String(fault.retryAfter ?? 1);
			send(res, 429, throttled(retryAfter), { ...headers, 'Retry-After': retryAfter });
			return true;
		}
		case 'serverError':
			record.status = 500;
			send(res, 500, { status_code: 500, message: 'Internal server error' });
			return true;
		case 'html':
			record.status = 502;
			res.writeHead(502, { 'Content-Type': 'text/html' });
			res.end('<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1><hr>nginx</body></html>');
			return true;
		case 'malformed':
			record.status = 200;
			res.writeHead(200, { 'Content-Type': 'application/json' });
			res.end('{"status_code": 200, "message": "OK", "data": [{"task_id": "T');
			return true;
		case 'redirect': {
			record.status = fault.status ?? 302;
			const query = new URLSearchParams(record.query).toString();
			const location = `${(fault.location ?? '').replace(/\/+$/, '')}${record.path}${query ? `?${query}` : ''}`;
			res.writeHead(record.status, { Location: location, 'Content-Length': 0 });
			res.end();
			return true;
		}
		case 'status':
			record.status = fault.status ?? 500;
			send(res, fault.status ?? 500, fault.body ?? {});
			return true;
	}
}
