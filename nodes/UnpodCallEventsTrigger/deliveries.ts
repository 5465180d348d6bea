import type { IDataObject } from 'n8n-workflow';
import { taskOutput, transcriptText } from '../shared/outcome';
import { isObject, objectOf } from '../shared/values';
import { isFinal } from '../shared/tasks';
import type { FinalStatus } from '../shared/tasks';
import { isoTime } from '../shared/time';

/** Unpod's live call events (delivery B), as its voice service names them. */
export const LIVE_EVENTS = [
	{ name: 'Call Started', value: 'call_started', description: 'The call was put through' },
	{ name: 'Call Hung Up', value: 'call_hang_up', description: 'The call ended (before post-call analysis)' },
	{ name: 'Call Missed', value: 'call_missed', description: 'Nobody answered within 30 seconds' },
	{ name: 'Handover Initiated', value: 'handover_initiated', description: 'The agent handed the call to a person' },
	{ name: 'SMS Sent', value: 'sms_sent', description: 'The agent sent an SMS during the call' },
] as const;

/** The largest body taken as an Unpod delivery: a long call's transcript is tens of kB. */
export const MAX_BODY_BYTES = 5 * 1024 * 1024;

/**
 * What one request to the webhook URL carries.
 * - `ended`: delivery A, the whole task document of a task that reached a final status;
 * - `open`: delivery A of a task that is not final (not an ending: answered, not started);
 * - `live`: delivery B, `{event, status, data: {...}}`;
 * - `invalid`: not an Unpod delivery, with the reason to answer.
 */
export type Delivery =
	| { kind: 'ended'; selector: FinalStatus; event: string; taskId: string; key: string; body: IDataObject }
	| { kind: 'open'; taskId: string; status: string }
	| { kind: 'live'; selector: string; event: string; taskId: string; key: string; body: IDataObject }
	| { kind: 'invalid'; reason: string };

/** A non-blank string; Python's `str(None)` is no value either. */
const text = (value: unknown): string | undefined =>
	typeof value === 'string' && value.trim() && value.trim() !== 'None' ? value.trim() : undefined;

/** The body as JSON: the exact bytes when n8n kept them, else what n8n parsed. */
export function parseBody(raw: Buffer | string | undefined, parsed: unknown): { body?: unknown; reason?: string } {
	if (raw !== undefined && raw.length > MAX_BODY_BYTES) {
		return { reason: `The body is larger than ${MAX_BODY_BYTES / 1024 / 1024} MB` };
	}
	if (raw !== undefined && raw.length) {
		try {
			return { body: JSON.parse(raw.toString()) };
		} catch {
			return { reason: 'The body is not JSON' };
		}
	}
	const empty = parsed === undefined || parsed === '' || (isObject(parsed) && !Object.keys(parsed).length);
	return empty ? { reason: 'The body is empty' } : { body: parsed };
}

/** Reads a parsed body as one of Unpod's deliveries. */
export function readDelivery(body: unknown): Delivery {
	if (!isObject(body)) return { kind: 'invalid', reason: 'The body is not a JSON object' };
	if (body.event !== undefined) {
		const event = text(body.event);
		const data = isObject(body.data) ? body.data : undefined;
		const taskId = text(data?.task_id) ?? text(body.task_id);
		// An inbound call has no task in its events (Unpod's voice handler does not keep the one it
		// opens): its room, unique per call, names it.
		const call = taskId ?? text(data?.call_id) ?? text(data?.room);
		if (!event) return { kind: 'invalid', reason: 'The event name is empty' };
		if (!call) return { kind: 'invalid', reason: 'The event names no call (no task_id, call_id or room in data)' };
		// A new attempt of the same task starts, hangs up or is missed again, at another time.
		const at = text(data?.start_time) ?? text(data?.end_time) ?? '';
		return { kind: 'live', selector: event, event, taskId: taskId ?? '', key: `${call}:${event}:${at}`, body };
	}
	const taskId = text(body.task_id);
	if (!taskId) return { kind: 'invalid', reason: 'The body carries no task_id: it is not an Unpod task or call event' };
	const status = String(body.status ?? '');
	if (!isFinal(status)) return { kind: 'open', taskId, status };
	// One ending per task and status, whatever path sent it; a redial Unpod made (Enable Callback,
	// `input.redial_count`) ends the same task again, and that ending is a new one.
	const redials = Number(objectOf(body.input).redial_count);
	const key = `${taskId}:${status}${Number.isInteger(redials) && redials > 0 ? `:redial${redials}` : ''}`;
	return { kind: 'ended', selector: status, event: `call_${status}`, taskId, key, body };
}

/** A live event flat: the call's fields at the top, times in ISO UTC, the transcript as lines. */
export function simplifyLiveEvent(body: IDataObject): IDataObject {
	const { event, status, data, ...merged } = body;
	const d = isObject(data) ? data : {};
	const time = (value: unknown) => (text(value) ? isoTime(value) : null);
	return {
		event,
		// A handover merges its summary into the top level of the body.
		...merged,
		status: status ?? null,
		// An inbound call's events carry both empty.
		task_id: text(d.task_id) ?? null,
		call_id: text(d.call_id) ?? null,
		contact_number: d.contact_number ?? null,
		contact_name: d.contact_name ?? null,
		call_type: d.call_type ?? null,
		// The one name of an inbound call (unique per call).
		room: text(d.room) ?? null,
		start_time: time(d.start_time),
		end_time: time(d.end_time),
		transcript: Array.isArray(d.transcript) ? transcriptText(d.transcript) : (d.transcript ?? ''),
	};
}

/** The item a delivery becomes: the polling trigger's Simplify for an ending, plus `event`. */
export function deliveryItem(delivery: Extract<Delivery, { kind: 'ended' | 'live' }>, simplify: boolean): IDataObject {
	if (delivery.kind === 'live') return simplify ? simplifyLiveEvent(delivery.body) : delivery.body;
	return { event: delivery.event, ...taskOutput(delivery.body, simplify) };
}
