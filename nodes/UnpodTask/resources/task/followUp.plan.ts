/**
 * Task > Follow Up, the decision: what an ended call asks for next (a callback at the time the
 * person gave, another try later, or nothing), and when, inside the calling window. Pure: no
 * request, no clock but the `now` it is given.
 */
import type { IDataObject } from 'n8n-workflow';
import { platformTime } from '../../../shared/time';

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

const flag = (value: unknown) => value === true || (typeof value === 'string' && /^(true|yes|1)$/i.test(value.trim()));

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
	attempt: number;
	document: IDataObject;
}

const obj = (value: unknown): IDataObject =>
	value && typeof value === 'object' && !Array.isArray(value) ? (value as IDataObject) : {};

/**
 * An ended call read from any shape the package puts out: a raw task (the push's document, Get
 * Many with Simplify off), or the flat Simplify shape (either trigger, Get Many, Call and Wait).
 */
export function readEndedCall(item: IDataObject): EndedCall {
	const raw = 'output' in item || 'input' in item;
	const input = obj(item.input);
	const output = obj(item.output);
	const post = obj(output.post_call_data);
	const profile = obj(post.profile_summary);
	const summary = obj(post.summary);
	const transcript = raw ? output.transcript : item.transcript;
	const contactSpoke = Array.isArray(transcript)
		? transcript.some((t) => obj(t).role === 'user' && String(obj(t).content ?? '').trim())
		: typeof transcript === 'string' && transcript
			? /^Contact: \S/m.test(transcript)
			: undefined;
	const document: IDataObject = raw
		? { ...input }
		: Object.fromEntries(
				Object.entries({
					name: item.contact_name,
					contact_number: item.contact_number,
					email: item.contact_email,
					company_name: item.contact_company,
					document_id: item.document_id,
				}).filter(([, v]) => v !== null && v !== undefined && v !== ''),
			);
	const attempt = Number(raw ? input.attempt : (item.attempt ?? input.attempt));
	return {
		taskId: String(item.task_id ?? ''),
		status: String(item.status ?? ''),
		callStatus: String((raw ? output.call_status : item.call_status) ?? ''),
		endReason: String((raw ? output.call_end_reason : item.call_end_reason) ?? ''),
		endedAt: platformTime(raw ? (output.end_time ?? item.modified) : (item.end_time ?? item.modified)),
		callbackRequested: flag(
			raw ? (profile.callback_requested ?? obj(post.follow_up).required) : item.callback_requested,
		),
		callbackTime: String((raw ? (profile.callback_time ?? summary.callback_datetime) : item.callback_time) ?? ''),
		contactSpoke,
		attempt: Number.isInteger(attempt) && attempt > 0 ? attempt : 1,
		document,
	};
}

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

export type FollowUpKind = 'callback' | 'retry' | 'none';

export interface Decision {
	follow_up: FollowUpKind;
	/** Why: `callback_requested`, `not_reached: busy`, `reached`, `max_calls`, `no_phone`... */
	reason: string;
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
