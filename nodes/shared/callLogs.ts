/**
 * Unpod's call log (`GET call-logs/`): every call, inbound and outbound, one row when it ended.
 * What the list's filters mean in Unpod's source, and so what the node checks itself:
 * the time filters compare dates only (the node checks the times), `call_id` matches any id
 * containing it (the node wants the id itself), numbers match by prefix, `bridge` is a part
 * of the bridge's name.
 */
import type { IDataObject } from 'n8n-workflow';
import type { RowMatch } from './pagination';
import { isoTime, platformTime, userTime } from './time';

export const CALL_LOGS_PATH = '/call-logs/';

export const CALL_DIRECTIONS = [
	{ name: 'Inbound', value: 'inbound', description: 'Calls people made to an agent' },
	{ name: 'Outbound', value: 'outbound', description: 'Calls an agent made' },
];

/** Direction as Unpod's lists filter it: `call_type`, left out for All. */
export function callTypeQuery(direction: unknown): { call_type?: string } {
	const value = String(direction ?? '').trim();
	return value && value !== 'all' ? { call_type: value } : {};
}

const two = (n: number) => String(n).padStart(2, '0');

/** Epoch ms in the form Unpod's filters parse (`%d-%m-%Y %H:%M:%S`), in UTC as Unpod stores times. */
export function unpodDateTime(ms: number): string {
	const d = new Date(ms);
	return (
		`${two(d.getUTCDate())}-${two(d.getUTCMonth() + 1)}-${d.getUTCFullYear()} ` +
		`${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`
	);
}

/** Epoch ms as the day (`YYYY-MM-DD`, UTC) that Unpod's newer date filters take. */
export const unpodDate = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** The `filters` collection of Call Log > Get Many as what to send and what to check. */
export function callLogQuery(filters: IDataObject): { qs: IDataObject; match?: RowMatch } {
	const qs: IDataObject = {};
	const checks: RowMatch[] = [];
	const text = (name: string) => String(filters[name] ?? '').trim();

	// Unpod's source filtered on start_time / end_time (`%d-%m-%Y %H:%M:%S`), its 2026 docs on
	// start_date / end_date (`YYYY-MM-DD`): both are sent, and the node checks the times itself.
	const from = userTime(filters.from);
	const to = userTime(filters.to);
	if (from !== undefined) {
		qs.start_time = unpodDateTime(from);
		qs.start_date = unpodDate(from);
		checks.push((row) => (platformTime(row.start_time) ?? Infinity) >= from);
	}
	if (to !== undefined) {
		qs.end_time = unpodDateTime(to);
		qs.end_date = unpodDate(to);
		checks.push((row) => (platformTime(row.end_time) ?? -Infinity) <= to);
	}
	Object.assign(qs, callTypeQuery(filters.direction));
	if (text('status')) qs.call_status = text('status');
	if (text('sourceNumber')) qs.source_number = text('sourceNumber');
	if (text('destinationNumber')) qs.destination_number = text('destinationNumber');
	if (text('bridgeName')) qs.bridge = text('bridgeName');
	const callId = text('callId');
	if (callId) {
		qs.call_id = callId;
		checks.push((row) => String(row.id) === callId);
	}
	return { qs, match: checks.length ? (row) => checks.every((check) => check(row)) : undefined };
}

const nameOf = (value: unknown): IDataObject[string] =>
	value && typeof value === 'object' ? ((value as IDataObject).name ?? null) : ((value as IDataObject[string]) ?? null);

/** The flat fields a CRM or a sheet wants from a call log row. */
export function simplifyCallLog(row: IDataObject): IDataObject {
	return {
		call_log_id: row.id ?? null,
		direction: row.call_type ?? null,
		status: row.call_status ?? null,
		end_reason: row.end_reason || null,
		source_number: row.source_number ?? null,
		destination_number: row.destination_number ?? null,
		start_time: isoTime(row.start_time ?? null),
		end_time: isoTime(row.end_time ?? null),
		duration: typeof row.call_duration === 'number' ? Math.round(row.call_duration) : (row.call_duration ?? null),
		agent: nameOf(row.agent),
		space: nameOf(row.space),
		bridge: nameOf(row.bridge),
		logged: isoTime(row.creation_time ?? null),
	};
}
