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

export interface CallingWindow {
	/** Days calls may be placed on, 0 Sunday to 6 Saturday. */
	days: number[];
	/** `HH:MM`, the first minute calls may start and the minute they must have started by. */
	start: string;
	end: string;
	/** An IANA zone, e.g. `Europe/Berlin`. */
	timeZone: string;
}

export const DEFAULT_WINDOW: Omit<CallingWindow, 'timeZone'> = { days: [1, 2, 3, 4, 5], start: '09:00', end: '19:00' };

interface ZonedParts {
	year: number;
	month: number;
	day: number;
	hour: number;
	minute: number;
	weekday: number;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** The wall-clock date and time of `ms` in `timeZone`. */
export function zonedParts(ms: number, timeZone: string): ZonedParts {
	const parts = new Intl.DateTimeFormat('en-US', {
		timeZone,
		hourCycle: 'h23',
		year: 'numeric',
		month: 'numeric',
		day: 'numeric',
		hour: 'numeric',
		minute: 'numeric',
		weekday: 'short',
	}).formatToParts(new Date(ms));
	const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
	return {
		year: Number(get('year')),
		month: Number(get('month')),
		day: Number(get('day')),
		hour: Number(get('hour')) % 24,
		minute: Number(get('minute')),
		weekday: WEEKDAYS.indexOf(get('weekday')),
	};
}

/** The instant (epoch ms) at which the wall clock in `timeZone` reads this date and time. */
export function fromZoned(year: number, month: number, day: number, hour: number, minute: number, timeZone: string) {
	const wanted = Date.UTC(year, month - 1, day, hour, minute);
	let guess = wanted;
	// Two corrections settle any zone offset, daylight-saving changes included.
	for (let i = 0; i < 2; i++) {
		const p = zonedParts(guess, timeZone);
		guess += wanted - Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute);
	}
	return guess;
}

const minutesOf = (hhmm: string) => {
	const [h, m] = hhmm.split(':').map(Number);
	return h * 60 + m;
};

/** The first instant at or after `ms` that lies inside the calling window. */
export function intoWindow(ms: number, window: CallingWindow): number {
	const start = minutesOf(window.start);
	const end = minutesOf(window.end);
	let at = ms;
	for (let day = 0; day < 8; day++) {
		const p = zonedParts(at, window.timeZone);
		const minute = p.hour * 60 + p.minute;
		if (window.days.includes(p.weekday)) {
			if (minute >= start && minute < end) return at;
			if (minute < start) return fromZoned(p.year, p.month, p.day, Math.floor(start / 60), start % 60, window.timeZone);
		}
		// The next day's start: noon of the next day, read back, keeps clear of daylight-saving gaps.
		const next = zonedParts(fromZoned(p.year, p.month, p.day, 12, 0, window.timeZone) + 86_400_000, window.timeZone);
		at = fromZoned(next.year, next.month, next.day, Math.floor(start / 60), start % 60, window.timeZone);
		if (window.days.includes(next.weekday)) return at;
	}
	throw new Error('The calling window has no day to call on');
}

/**
 * A slot's start: `ms` rounded up to the next multiple of `slotMinutes` (UTC), at least a minute
 * after `now`, and inside the calling window: a rounding that leaves it (18:50 becoming 19:00 with
 * calls until 19:00) goes on to the window's next opening.
 */
export function slotOf(ms: number, slotMinutes: number, now: number, window: CallingWindow): number {
	const size = slotMinutes * 60_000;
	const round = (at: number) => Math.ceil(Math.max(at, now + 60_000) / size) * size;
	let slot = round(ms);
	for (let tries = 0; tries < 3 && intoWindow(slot, window) !== slot; tries++) slot = round(intoWindow(slot, window));
	return slot;
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
	const fields = objectOf(flat.contact_fields);
	if (Object.keys(fields).length) return { ...fields };
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

/** A callback time as the agent wrote it: with its own zone, or read in the window's zone; else undefined. */
export function callbackInstant(text: string, timeZone: string): number | undefined {
	const value = text.trim();
	if (!value) return undefined;
	if (/(Z|[+-]\d{2}:?\d{2})$/i.test(value)) {
		const ms = Date.parse(value);
		return Number.isNaN(ms) ? undefined : ms;
	}
	const match = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{1,2}):(\d{2})/.exec(value);
	if (!match) return undefined;
	const [, y, mo, d, h, mi] = match.map(Number);
	return fromZoned(y, mo, d, h, mi, timeZone);
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
}

export interface FollowUpSettings {
	window: CallingWindow;
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
		return { follow_up: 'unpod', reason: `unpod_${call.unpodCallsAgain}`, at, attempt: next };
	}
	let reason = notReachedReason(call);
	// A call that reached the person closes the contact, whichever attempt it was.
	if (!reason && !call.callbackRequested) return { follow_up: 'none', reason: 'reached', attempt: next };
	if (!call.document.contact_number) return { follow_up: 'none', reason: 'no_phone', attempt: next };
	if (call.attempt >= settings.maxCalls) return { follow_up: 'none', reason: 'max_calls', attempt: next };
	if (!reason) {
		const at = callbackInstant(call.callbackTime, settings.window.timeZone);
		if (at !== undefined) {
			return {
				follow_up: 'callback',
				reason: 'callback_requested',
				at: intoWindow(Math.max(at, now), settings.window),
				attempt: next,
			};
		}
		reason = call.callbackTime
			? `not_reached: unreadable callback time "${call.callbackTime}"`
			: 'not_reached: callback without a time';
	}
	const delay = settings.retryAfterHours * 3_600_000 * 2 ** (call.attempt - 1);
	const at = intoWindow(Math.max((call.endedAt ?? now) + delay, now), settings.window);
	return { follow_up: 'retry', reason, at, attempt: next };
}
