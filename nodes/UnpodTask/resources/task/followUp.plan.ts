/**
 * Task > Follow Up, the decision: what an ended call asks for next (a callback at the time the
 * person gave, another try later, or nothing), and when, inside the calling window. Pure: no
 * request, no clock but the `now` it is given.
 */
import type { IDataObject } from 'n8n-workflow';
import { saysYes } from '../../../shared/doNotCall';
import { isFinal } from '../../../shared/tasks';
import { platformTime } from '../../../shared/time';
import { contactColumns, simplifyTask, unpodCallsAgain } from '../../../shared/outcome';
import { objectOf } from '../../../shared/values';
import { HORIZON_DAYS } from '../../../shared/callingHours/window';
import type { ZoneClock, ZoneWindow } from '../../../shared/callingHours/window';
import type { Stop } from '../../mayCall/gate';

/**
 * Where and when the next call may start: one window per zone the callee's phone may ring in (the
 * law's hours and the user's at once), and the zone a callback time without one is read in.
 */
export interface CalleeWindows {
	windows: ZoneWindow[];
	zone: string;
	clock: ZoneClock;
}

/** The first instant at or after `ms` inside every window; undefined when none comes within the horizon. */
export const intoWindow = (ms: number, callee: CalleeWindows) => callee.clock.firstCommon(ms, callee.windows);

/**
 * A slot's start: `ms` rounded up to the next multiple of `slotMinutes` (UTC), at least a minute
 * after `now`, and inside the windows: a rounding that leaves them (18:50 becoming 19:00 with
 * calls until 19:00) goes on to their next opening.
 */
export function slotOf(ms: number, slotMinutes: number, now: number, callee: CalleeWindows): number | undefined {
	return callee.clock.slot(Math.max(ms, now + 60_000), slotMinutes, callee.windows);
}

/** Unpod's `call_status` / `call_end_reason` words for a call that reached no one. */
const NOT_REACHED = /no.?answer|not.?connected|busy|voicemail|drop(p)?ed|cancel|failed|missed|rejected|unreachable/i;

export interface EndedCall {
	taskId: string;
	status: string;
	callStatus: string;
	endReason: string;
	/** When the call ended (epoch ms), if known. */
	endedAt?: number;
	callbackRequested: boolean;
	callbackTime: string;
	/** Whether anyone but the agent spoke, when the transcript says. */
	contactSpoke?: boolean;
	/** Which call of the contact's chain this was, Unpod's own follow-ups and redials counted. */
	attempt: number;
	/** The contact's own fields, without the chain. */
	document: IDataObject;
	/** Unpod calls the contact again itself: its follow-up engine or its redial. */
	unpodCallsAgain?: 'follow_up' | 'redial';
	/** When Unpod said it calls again, if it did. */
	unpodAt?: string;
	/** Why the contact must not be called again (the person's reason, the row, the list), if it must not. */
	doNotCall?: string;
}

/** The document of a flat item: its `contact_fields`, else the contact keys it has. */
function flatDocument(flat: IDataObject): IDataObject {
	const fields = contactColumns(flat.contact_fields);
	if (Object.keys(fields).length) return fields;
	return Object.fromEntries(
		Object.entries({
			name: flat.contact_name,
			contact_number: flat.contact_number,
			email: flat.contact_email,
			company_name: flat.contact_company,
			document_id: flat.document_id,
		}).filter(([, v]) => v !== null && v !== undefined && v !== ''),
	);
}

/**
 * An ended call read from any shape the package puts out: a raw task (the push's document, Get
 * Many with Simplify off) is read through the flat outcome, so both shapes mean the same.
 */
export function readEndedCall(item: IDataObject): EndedCall {
	const raw = 'output' in item || 'input' in item;
	const flat = raw ? simplifyTask(item) : item;
	const transcript = typeof flat.transcript === 'string' ? flat.transcript : '';
	// A raw task's empty transcript says no one spoke; an empty flat one may only be missing.
	const rawTranscript = objectOf(item.output).transcript;
	const attempt = Number(flat.attempt);
	return {
		taskId: String(flat.task_id ?? ''),
		status: String(flat.status ?? ''),
		callStatus: String(flat.call_status ?? ''),
		endReason: String(flat.call_end_reason ?? ''),
		endedAt: platformTime(flat.end_time ?? flat.modified),
		callbackRequested: saysYes(flat.callback_requested ?? flat.unpod_follow_up),
		callbackTime: String(flat.callback_time ?? ''),
		contactSpoke: transcript || Array.isArray(rawTranscript) ? /^Contact: \S/m.test(transcript) : undefined,
		attempt: Number.isInteger(attempt) && attempt > 0 ? attempt : 1,
		document: raw ? contactColumns(item.input) : flatDocument(flat),
		unpodCallsAgain: unpodCallsAgain(flat),
		unpodAt: typeof flat.unpod_follow_up_at === 'string' ? flat.unpod_follow_up_at : undefined,
		doNotCall: saysYes(flat.do_not_call) ? optOutReason(flat.do_not_call_reason) : undefined,
	};
}

/** The person's own reason, as the call's analysis gave it, or that they asked. */
const optOutReason = (reason: unknown) =>
	typeof reason === 'string' && reason.trim() ? reason.trim() : 'asked on the call';

/** A callback time as the agent wrote it: with its own zone, or read in the callee's; else undefined. */
export function callbackInstant(text: string, timeZone: string, clock: ZoneClock): number | undefined {
	const value = text.trim();
	if (!value) return undefined;
	if (/(Z|[+-]\d{2}:?\d{2})$/i.test(value)) {
		const ms = Date.parse(value);
		return Number.isNaN(ms) ? undefined : ms;
	}
	const match = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{1,2}):(\d{2})/.exec(value);
	if (!match) return undefined;
	const [, y, mo, d, h, mi] = match.map(Number);
	return clock.instant(y, mo, d, h, mi, timeZone);
}

/** `unpod`: Unpod calls the contact again itself (its Enable Followup or Enable Callback), so this node does not. */
export type FollowUpKind = 'callback' | 'retry' | 'unpod' | 'none';

export interface Decision {
	follow_up: FollowUpKind;
	/**
	 * Why: `callback_requested`, `not_reached: busy`, `unpod_follow_up`, `unpod_redial`, `reached`,
	 * `max_calls`, `no_phone`, `not_ended`, `do_not_call`...
	 */
	reason: string;
	/** With `do_not_call`: Unpod calls the contact again itself all the same, and cannot be told not to. */
	unpodCallsAgain?: 'follow_up' | 'redial';
	/** When the next call is due (epoch ms), inside the window; not yet rounded to a slot. */
	at?: number;
	/** The attempt the next call would be. */
	attempt: number;
	/** Why the next call is not at the time asked: outside the callee's calling hours. */
	moved?: string;
	/** Unpod calls again itself at a time outside the callee's calling hours: what the item says. */
	outsideHours?: string;
}

export interface FollowUpSettings {
	window: CalleeWindows;
	retryAfterHours: number;
	maxCalls: number;
}

/** Why a call reached no one, if it did not: the task failed, or its status or end reason say so. */
export function notReachedReason(call: EndedCall): string | undefined {
	if (call.status === 'failed') return `not_reached: ${call.callStatus || call.endReason || 'failed'}`;
	for (const word of [call.callStatus, call.endReason])
		if (word && NOT_REACHED.test(word)) return `not_reached: ${word}`;
	if (call.contactSpoke === false) return 'not_reached: no one spoke';
	return undefined;
}

/** What an ended call asks for next. `now` stands for the call's end when it does not say. */
export function decideFollowUp(call: EndedCall, settings: FollowUpSettings, now: number): Decision {
	const next = call.attempt + 1;
	// Never a next call for a person who said no, whatever else the call says.
	if (call.doNotCall !== undefined) {
		return { follow_up: 'none', reason: 'do_not_call', unpodCallsAgain: call.unpodCallsAgain, attempt: next };
	}
	// An open call (a list read while it rang, or Unpod's own scheduled follow-up) is not decided on.
	if (!isFinal(call.status)) return { follow_up: 'none', reason: 'not_ended', attempt: next };
	// Never a second caller: Unpod's own follow-up or redial is the next call.
	if (call.unpodCallsAgain) {
		const at = call.unpodAt ? platformTime(call.unpodAt) : undefined;
		const decision: Decision = { follow_up: 'unpod', reason: `unpod_${call.unpodCallsAgain}`, at, attempt: next };
		// Unpod's call is Unpod's to place: where it rings outside the window, the item says so.
		const { windows, zone, clock } = settings.window;
		if (at !== undefined && windows.length && intoWindow(at, settings.window) !== at)
			decision.outsideHours = `Unpod's own ${call.unpodCallsAgain === 'redial' ? 'redial' : 'follow-up'} rings at ${clock.wallClock(at, zone)} (${zone}), outside the callee's calling hours; Unpod cannot be told to move it`;
		return decision;
	}
	let reason = notReachedReason(call);
	// A call that reached the person closes the contact, whichever attempt it was.
	if (!reason && !call.callbackRequested) return { follow_up: 'none', reason: 'reached', attempt: next };
	if (!call.document.contact_number) return { follow_up: 'none', reason: 'no_phone', attempt: next };
	if (call.attempt >= settings.maxCalls) return { follow_up: 'none', reason: 'max_calls', attempt: next };
	const noHour = {
		follow_up: 'none',
		reason: `calling_hours: no legal hour within ${HORIZON_DAYS} days`,
		attempt: next,
	} as const;
	if (!reason) {
		const asked = callbackInstant(call.callbackTime, settings.window.zone, settings.window.clock);
		if (asked !== undefined) {
			const at = intoWindow(Math.max(asked, now), settings.window);
			if (at === undefined) return noHour;
			const moved =
				at > Math.max(asked, now) + 60_000
					? `The callback asked for ${new Date(asked).toISOString()} falls outside the callee's calling hours: moved to the next legal time`
					: undefined;
			return { follow_up: 'callback', reason: 'callback_requested', at, attempt: next, ...(moved ? { moved } : {}) };
		}
		reason = call.callbackTime
			? `not_reached: unreadable callback time "${call.callbackTime}"`
			: 'not_reached: callback without a time';
	}
	const delay = settings.retryAfterHours * 3_600_000 * 2 ** (call.attempt - 1);
	const at = intoWindow(Math.max((call.endedAt ?? now) + delay, now), settings.window);
	if (at === undefined) return noHour;
	return { follow_up: 'retry', reason, at, attempt: next };
}

/** Why Follow Up places no next call to a contact who withdrew consent; treated as an opt-out. */
export const CONSENT_REVOKED = 'consent_revoked';

/**
 * No next call to a contact the gate stopped (mayCall/gate.ts): a number or a country not allowed,
 * or consent missing, where one would be due. A consent withdrawn is an opt-out: no next call
 * whatever was decided, and Unpod's own next call, if any, is named (followUp.items.ts).
 */
export function stopped(decision: Decision, stop: Pick<Stop, 'by' | 'reason' | 'revoked'>): Decision {
	if (stop.revoked)
		return {
			follow_up: 'none',
			reason: CONSENT_REVOKED,
			attempt: decision.attempt,
			...(decision.follow_up === 'unpod' || decision.unpodCallsAgain
				? { unpodCallsAgain: decision.unpodCallsAgain ?? (decision.reason === 'unpod_redial' ? 'redial' : 'follow_up') }
				: {}),
		};
	if (decision.follow_up !== 'callback' && decision.follow_up !== 'retry') return decision;
	return {
		follow_up: 'none',
		reason: `${stop.by === 'consent' ? 'consent' : 'not_allowed'}: ${stop.reason}`,
		attempt: decision.attempt,
	};
}
