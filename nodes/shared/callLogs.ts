/**
 * Unpod's call log: every call, inbound and outbound, one record when it ended. Unpod's OpenAPI
 * 2.0.0 serves it at `GET cdr/` (call detail records: filters `call_type` and `call_status`
 * only, no agent, space or organization in a record); older and self-hosted deployments at
 * `GET call-logs/` (its changelog maps v1 `call-logs/` to v2 `cdr/`). `cdr/` is asked first, and
 * `call-logs/` only where a deployment answers 404 or 405 there.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';
import type { ServedPaths } from './pagination';
import { isoTime, platformTime } from './time';
import { objectOf } from './values';

export const CDR_PATH = '/cdr/';
export const CALL_LOGS_PATH = '/call-logs/';

/** Where the call log is read, in the order asked: the spec's path, then the older one. */
export const CALL_LOG_PATHS = [CDR_PATH, CALL_LOGS_PATH];

/** The paths to ask, the one known to serve (`served`) first. */
export function callLogPaths(served?: unknown): string[] {
	return typeof served === 'string' && CALL_LOG_PATHS.includes(served)
		? [served, ...CALL_LOG_PATHS.filter((p) => p !== served)]
		: [...CALL_LOG_PATHS];
}

export const CALL_DIRECTIONS = [
	{ name: 'Inbound', value: 'inbound', description: 'Calls people made to an agent' },
	{ name: 'Outbound', value: 'outbound', description: 'Calls an agent made' },
];

/** The spec's `call_status` values (an unknown one is a 400 at `cdr/`). */
export const CALL_STATUSES = [
	{ name: 'Completed', value: 'completed', description: 'The call was answered and ended' },
	{ name: 'Failed', value: 'failed', description: 'The call failed (see failure_source and sip_cause)' },
	{ name: 'Not Connected', value: 'notConnected', description: 'Nobody answered, or the line was busy' },
];

/** Status, as a filter: All (nothing sent) or one of the spec's values. */
export function callStatusField(): INodeProperties {
	return {
		displayName: 'Status',
		name: 'status',
		type: 'options',
		options: [{ name: 'All', value: 'all', description: 'Calls of every status' }, ...CALL_STATUSES],
		default: 'all',
	};
}

/** Direction as Unpod's lists filter it: `call_type`, left out for All. */
export function callTypeQuery(direction: unknown): { call_type?: string } {
	const value = String(direction ?? '').trim();
	return value && value !== 'all' ? { call_type: value } : {};
}

/** The spec's `call_status` values in its own order, as an error lists them. */
const SPEC_STATUS_ORDER = ['completed', 'notConnected', 'failed'];

/**
 * Status as a filter, `undefined` for All. An expression can give any text, which `cdr/` would
 * refuse with a 400 and `call-logs/` would match against nothing: refused here, before a request.
 */
export function callStatusQuery(value: unknown): string | undefined {
	const status = String(value ?? '').trim();
	if (!status || status === 'all') return undefined;
	if (SPEC_STATUS_ORDER.includes(status)) return status;
	const allowed = SPEC_STATUS_ORDER.map((v) => `${CALL_STATUSES.find((s) => s.value === v)!.name} (${v})`);
	throw new Error(`Status "${status}" is not one of ${allowed.join(', ')}`);
}

/** The `filters` collection of Call Log > Get Many as the spec names them: `call_type`, `call_status`. */
export function callLogQuery(filters: IDataObject): { qs: IDataObject } {
	const qs: IDataObject = { ...callTypeQuery(filters.direction) };
	const status = callStatusQuery(filters.status);
	if (status) qs.call_status = status;
	return { qs };
}

/** When a record was logged (`creation_time`, else `end_time`), epoch ms: the order of the list. */
export const loggedAt = (row: IDataObject): number | undefined =>
	platformTime(row.creation_time) ?? platformTime(row.end_time);

/**
 * The flat fields a CRM or a sheet wants from a call log record, from the spec's fields only:
 * the same fields whichever path served. The older `call-logs/` rows' agent and space are not
 * among them (Simplify off keeps the whole row).
 */
export function simplifyCallLog(row: IDataObject): IDataObject {
	const bridge = objectOf(row.bridge);
	return {
		call_log_id: row.id ?? null,
		direction: row.call_type ?? null,
		status: row.call_status ?? null,
		end_reason: row.end_reason || null,
		failure_source: row.failure_source || null,
		sip_cause: row.sip_cause || null,
		source_number: row.source_number ?? null,
		destination_number: row.destination_number ?? null,
		start_time: isoTime(row.start_time ?? null),
		end_time: isoTime(row.end_time ?? null),
		duration: typeof row.call_duration === 'number' ? Math.round(row.call_duration) : (row.call_duration ?? null),
		bridge: bridge.name ?? null,
		bridge_id: bridge.id ?? null,
		logged: isoTime(row.creation_time ?? null),
	};
}

const SERVED = Symbol.for('n8n-nodes-unpod.callLogPath');

/**
 * The call log path that served in this execution: every later page, item and node of it asks it
 * first, so an older deployment costs one 404 an execution, not one a page. Kept under a symbol
 * on the execution's flow context, which n8n neither copies nor saves.
 */
export function executionCallLogPath(context: { getContext(type: 'flow'): object }): ServedPaths {
	const holder = context.getContext('flow') as { [SERVED]?: string };
	return {
		paths: () => callLogPaths(holder[SERVED]),
		served: (path) => Object.defineProperty(holder, SERVED, { value: path, configurable: true, enumerable: false }),
	};
}
