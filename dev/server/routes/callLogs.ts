/**
 * The call log. In shape `spec` (Unpod's OpenAPI 2.0.0) at `GET cdr/` only: Org-Handle and no
 * Product-ID, filters `call_type` and `call_status` (the spec's values; another is a 400), pages of
 * 20 by default with `count` and no `next`/`previous`, records without agent, space or
 * organization. In shapes `source` and `docs` at `GET call-logs/` only, as `fetch_call_logs` of
 * Unpod's source (15cd2ef) answers it: the time filters compare dates only, numbers match by
 * prefix, `call_id` is a substring of the id, `bridge` a substring of the bridge's name; `next`
 * and `previous` carry only the page.
 */
import { fail, pageParams } from '../http';
import type { CallLog } from '../types';
import type { Store } from '../store';
import type { Behaviour } from './context';
import { authenticate, platformOrg, Route } from './context';

const FORMAT = /^(\d{2})-(\d{2})-(\d{4}) (\d{2}):(\d{2}):(\d{2})$/;

/** Python's `strptime(value, "%d-%m-%Y %H:%M:%S").date()`, as `YYYY-MM-DD`. */
function dateOf(value: string): string {
	const match = FORMAT.exec(value);
	if (!match) throw new Error(`time data '${value}' does not match format '%d-%m-%Y %H:%M:%S'`);
	const [, d, m, y] = match;
	return `${y}-${m}-${d}`;
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The 2026 docs' `start_date` / `end_date`, `YYYY-MM-DD`. */
function dayOf(value: string): string {
	if (!DAY.test(value)) throw new Error(`time data '${value}' does not match format '%Y-%m-%d'`);
	return value;
}

/** Each shape reads only its own date filters: the source's times, or the docs' dates. */
function filterLogs(logs: CallLog[], store: Store, query: URLSearchParams, shapes: Behaviour['shapes']): CallLog[] {
	const q = (name: string) => query.get(name) || undefined;
	const docs = shapes === 'docs';
	const from = docs ? q('start_date') && dayOf(q('start_date')!) : q('start_time') && dateOf(q('start_time')!);
	const to = docs ? q('end_date') && dayOf(q('end_date')!) : q('end_time') && dateOf(q('end_time')!);
	const lower = (v: string | undefined) => v?.toLowerCase();
	return logs.filter((log) => {
		if (from && day(log.startMs) < from) return false;
		if (to && day(log.endMs) > to) return false;
		if (q('call_type') && log.call_type.toLowerCase() !== lower(q('call_type'))) return false;
		if (q('call_status') && log.call_status.toLowerCase() !== lower(q('call_status'))) return false;
		if (q('source_number') && !log.source_number.toLowerCase().startsWith(lower(q('source_number'))!)) return false;
		if (q('destination_number') && !log.destination_number.toLowerCase().startsWith(lower(q('destination_number'))!))
			return false;
		if (q('call_id') && !String(log.id).includes(q('call_id')!)) return false;
		if (q('call_duration') && (log.endMs - log.startMs) / 1000 > Number.parseInt(q('call_duration')!, 10)) return false;
		if (q('bridge')) {
			const bridge = [...store.bridges.values()].find((b) => b.id === log.bridge);
			if (!bridge || !bridge.name.toLowerCase().includes(lower(q('bridge'))!)) return false;
		}
		return true;
	});
}

/** A row as `CallLogSerializer` shows it: related records as `{id, name}`, duration in seconds. */
function row(store: Store, log: CallLog): Record<string, unknown> {
	const bridge = [...store.bridges.values()].find((b) => b.id === log.bridge);
	const agents = [...store.agents.keys()];
	const spaces = [...store.spaces.keys()];
	const org = store.orgs.get(log.org);
	const seconds = (log.endMs - log.startMs) / 1000;
	return {
		id: log.id,
		call_status: log.call_status,
		end_reason: log.end_reason,
		call_type: log.call_type,
		organization: org ? { id: org.org_id, name: org.name } : null,
		product_id: log.product_id,
		bridge: bridge ? { id: bridge.id, name: bridge.name } : null,
		agent: log.agent ? { id: agents.indexOf(log.agent) + 1, name: store.agents.get(log.agent)?.name ?? '' } : null,
		space: log.space ? { id: spaces.indexOf(log.space) + 1, name: store.spaces.get(log.space)?.name ?? '' } : null,
		creation_time: iso(Math.floor(log.createdUs / 1000)),
		start_time: iso(log.startMs),
		end_time: iso(log.endMs),
		call_duration: seconds > 0 ? seconds : 0,
		source_number: log.source_number,
		destination_number: log.destination_number,
	};
}

export const callLogRoutes: Route = (ctx) => {
	if (ctx.parts.length !== 1 || ctx.method !== 'GET') return undefined;
	const served = ctx.behaviour.shapes === 'spec' ? 'cdr' : 'call-logs';
	if (ctx.parts[0] !== served) return undefined;
	if (served === 'cdr') return cdr(ctx);
	authenticate(ctx);
	const handle = ctx.headers['org-handle'];
	const product = ctx.headers['product-id'];
	if (!handle) fail(400, { message: 'Organization handle is required in Org-Handle header' });
	if (!product) fail(400, { message: 'Product ID is required in Product-Id header' });
	let body: Record<string, unknown>;
	try {
		const page = Number.parseInt(ctx.query.get('page') ?? '1', 10);
		const pageSize = Number.parseInt(ctx.query.get('page_size') ?? '20', 10);
		if (Number.isNaN(page) || Number.isNaN(pageSize)) throw new Error('invalid literal for int() with base 10');
		const own = ctx.store.callLogs.filter((l) => l.org === String(handle) && l.product_id === String(product));
		const logs = filterLogs(own, ctx.store, ctx.query, ctx.behaviour.shapes).sort((a, b) => b.createdUs - a.createdUs);
		const skip = (page - 1) * pageSize;
		const base = `http://${String(ctx.headers.host)}/api/v2/platform/call-logs/`;
		body = {
			message: 'Call logs fetched successfully',
			status_code: 200,
			count: logs.length,
			data: logs.slice(Math.max(0, skip), skip + pageSize).map((l) => row(ctx.store, l)),
			next: skip + pageSize < logs.length ? `${base}?page=${page + 1}&page_size=${pageSize}` : null,
			previous: page > 1 ? `${base}?page=${page - 1}&page_size=${pageSize}` : null,
		};
	} catch (error) {
		return fail(400, {
			message: 'Failed to fetch call logs',
			error: `Failed to fetch call logs: ${(error as Error).message}`,
		});
	}
	return { status: 200, body };
};

/** The spec's `call_status` of a status the store logged (the post-call flow writes the task's outcome). */
const CDR_STATUS: Record<string, string> = {
	completed: 'completed',
	partially_completed: 'completed',
	not_connected: 'notConnected',
	notconnected: 'notConnected',
	failed: 'failed',
};
const cdrStatus = (log: CallLog) => CDR_STATUS[log.call_status.toLowerCase()] ?? 'failed';

/**
 * Which side a failure came from and its SIP cause. The spec shows only `null` and gives no
 * enumeration: these values (`callee` / `carrier`, a SIP status line) are this server's choice,
 * read off the end reason the call was logged with.
 */
function failureOf(log: CallLog): { failure_source: string | null; sip_cause: string | null } {
	if (cdrStatus(log) === 'completed') return { failure_source: null, sip_cause: null };
	const reason = log.end_reason.toLowerCase().replace(/[\s_]+/g, '-');
	if (reason.includes('busy')) return { failure_source: 'callee', sip_cause: '486 Busy Here' };
	if (reason.includes('no-answer')) return { failure_source: 'callee', sip_cause: '480 Temporarily Unavailable' };
	if (reason.includes('declin') || reason.includes('reject'))
		return { failure_source: 'callee', sip_cause: '603 Decline' };
	return { failure_source: 'carrier', sip_cause: '503 Service Unavailable' };
}

/** The spec's example writes `creation_time` and `start_time` to the second, `end_time` to the microsecond. */
const toSecond = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.000Z$/, 'Z');

/** A record as the spec's example shows it: a bridge as `{id, name}`, no agent, space or organization. */
function cdrRow(store: Store, log: CallLog): Record<string, unknown> {
	const bridge = [...store.bridges.values()].find((b) => b.id === log.bridge);
	const seconds = (log.endMs - log.startMs) / 1000;
	return {
		id: log.id,
		call_status: cdrStatus(log),
		end_reason: log.end_reason,
		call_type: log.call_type,
		bridge: bridge ? { id: bridge.id, name: bridge.name } : null,
		creation_time: toSecond(Math.floor(log.createdUs / 1000)),
		start_time: toSecond(log.startMs),
		end_time: iso(log.endMs),
		call_duration: seconds > 0 ? seconds : 0,
		source_number: log.source_number,
		destination_number: log.destination_number,
		...failureOf(log),
	};
}

const pageCaps = new WeakMap<Store, number>();

/**
 * Makes `cdr/` serve at most `max` records a page, whatever page_size asks, as a deployment may
 * (the spec documents no maximum); undefined serves what is asked again.
 */
export function capCdrPageSize(store: Store, max: number | undefined): void {
	if (max === undefined) pageCaps.delete(store);
	else pageCaps.set(store, max);
}

const CALL_TYPES = ['inbound', 'outbound'];
const CALL_STATUSES = ['completed', 'notConnected', 'failed'];

/** `GET cdr/` of the spec: the organization's records of every product, newest logged first. */
function cdr(ctx: Parameters<Route>[0]) {
	const org = platformOrg(ctx, authenticate(ctx));
	const bad = (message: string) => fail(400, { status_code: 400, message });
	const { page, pageSize: asked } = pageParams(ctx.query, 20);
	const pageSize = Math.min(asked, pageCaps.get(ctx.store) ?? asked);
	const callType = ctx.query.get('call_type');
	const callStatus = ctx.query.get('call_status');
	if (callType && !CALL_TYPES.includes(callType))
		bad(`Invalid call_type '${callType}': one of ${CALL_TYPES.join(', ')}`);
	if (callStatus && !CALL_STATUSES.includes(callStatus))
		bad(`Invalid call_status '${callStatus}': one of ${CALL_STATUSES.join(', ')}`);
	const logs = ctx.store.callLogs
		.filter((l) => l.org === org.domain_handle)
		.filter((l) => !callType || l.call_type === callType)
		.filter((l) => !callStatus || cdrStatus(l) === callStatus)
		.sort((a, b) => b.createdUs - a.createdUs || b.id - a.id);
	const skip = (page - 1) * pageSize;
	return {
		status: 200,
		body: {
			count: logs.length,
			status_code: 200,
			message: 'Call logs fetched successfully',
			data: logs.slice(skip, skip + pageSize).map((l) => cdrRow(ctx.store, l)),
		},
	};
}
