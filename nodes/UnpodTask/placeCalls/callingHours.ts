/**
 * Calling hours for every operation that places calls: each item's settings (the fields are in
 * fields.ts), each row's callee read from its number, and the step of sending that holds or moves
 * a row whose callee's window is closed, before any create request. The law and the zones:
 * shared/callingHours/.
 */
import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { EVERY_DAY, hoursOf, isTimeZone } from '../../shared/callingHours/callee';
import type { Callee, CallingHours, HoursSettings, UserWindow } from '../../shared/callingHours/callee';
import type { ExistingTasks } from './existingTasks';
import type { Row } from './rows';

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const DAY_MS = 86_400_000;
/** Calls moved to the same quarter hour share a create request. */
export const SLOT_MINUTES = 15;

/** What a row keeps to: its callee, and what is done when the window is closed. */
export interface RowHours {
	book: CallingHours;
	callee: Callee;
	/** `schedule`: created for the next legal instant; `hold`: not created, the item says when. */
	outside: 'schedule' | 'hold';
	/** What the item says of it when it was moved (set by the send step). */
	note?: IDataObject;
}

/** The law's own window, as Calling Days and Hours default to: they narrow nothing. */
export const LAW_WINDOW: UserWindow = { days: EVERY_DAY, start: '08:00', end: '21:00' };

/** An item's Calling Days and Hours and fallback zone, checked; a bad one names the option. */
export function userWindowOf(
	context: IExecuteFunctions,
	itemIndex: number,
	defaults: UserWindow,
	options = context.getNodeParameter('options', itemIndex, {}) as IDataObject,
): { user: UserWindow; timeZone: string } {
	const days = Array.isArray(options.callingDays) ? options.callingDays.map(Number) : defaults.days;
	const user: UserWindow = {
		days,
		start: String(options.callingFrom ?? defaults.start),
		end: String(options.callingTo ?? defaults.end),
	};
	const timeZone = String(options.timeZone ?? '').trim();
	const bad = (what: string) =>
		new NodeOperationError(context.getNode(), `Item ${itemIndex + 1}: ${what}`, { itemIndex });
	if (!days.length) throw bad('Calling Days has no day');
	for (const hhmm of [user.start, user.end])
		if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(hhmm)) throw bad(`"${hhmm}" is not a time of day (HH:MM)`);
	if (user.start >= user.end) throw bad(`Calling Hours From (${user.start}) must come before To (${user.end})`);
	if (timeZone && !isTimeZone(timeZone))
		throw bad(`Time Zone "${timeZone}" is not a time zone (use an IANA name such as America/Chicago)`);
	return { user, timeZone };
}

/** The hours settings of an item, or undefined when Keep to Calling Hours is off. */
export function hoursSettingsOf(
	context: IExecuteFunctions,
	itemIndex: number,
	defaults: UserWindow,
): HoursSettings | undefined {
	if (!context.getNodeParameter('callingHours', itemIndex, true)) return undefined;
	const options = context.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const { user, timeZone } = userWindowOf(context, itemIndex, defaults, options);
	const max = Number(options.maxCallsPer24Hours ?? 0);
	if (!Number.isInteger(max) || max < 0)
		throw new NodeOperationError(context.getNode(), `Item ${itemIndex + 1}: Max Calls per 24 Hours must be 0 or more`, {
			itemIndex,
		});
	return { user, ...(timeZone ? { fallbackZone: timeZone } : {}), ...(max ? { maxCallsPer24Hours: max } : {}) };
}

/** A contact's own `timezone`, if it has one; a value that is no zone is an error naming the field. */
export function ownZoneOf(document: IDataObject): string | undefined | { field: string; message: string } {
	const value = document.timezone;
	if (value === undefined || value === null || String(value).trim() === '') return undefined;
	const zone = String(value).trim();
	return isTimeZone(zone)
		? zone
		: {
				field: 'timezone',
				message: `timezone "${zone}" is not a time zone (use an IANA name such as America/Chicago)`,
			};
}

/** When a row is to be called: its custom schedule's instant (UTC, as Unpod reads it), else undefined (now). */
function requestedInstant(body: IDataObject): number | undefined {
	const schedule = (body.schedule ?? {}) as IDataObject;
	if (schedule.type !== 'custom') return undefined;
	const at = Date.parse(`${String(schedule.calling_date)}T${String(schedule.calling_time)}Z`);
	return Number.isNaN(at) ? undefined : at;
}

/** Unpod's custom schedule for an instant, in UTC (its task service reads a time without a zone as UTC). */
export function scheduleAt(ms: number): IDataObject {
	const iso = new Date(ms).toISOString();
	return { type: 'custom', calling_date: iso.slice(0, 10), calling_time: iso.slice(11, 16) };
}

/** The fields every item of a contact not called now carries: where the phone rings, and the time there. */
export function calleeFields(hours: RowHours, now: number): IDataObject {
	const { callee, book } = hours;
	return {
		unpod_callee_time_zones: callee.zones,
		unpod_callee_local_time: callee.zones.length ? book.localTime(now, callee) : null,
	};
}

/**
 * The window as a sentence: `08:00-20:00 local, Florida's law, 09:00-20:00 in America/New_York for
 * Unpod's engine`.
 */
function windowText(callee: Callee): string {
	const own = callee.windows.find((w) => callee.zones.includes(w.zone)) ?? callee.windows[0];
	const days = own.days.length === 7 ? '' : ` on ${own.days.map((d) => DAYS[d].slice(0, 3)).join(', ')}`;
	const laws = callee.rules.filter((r) => !('zone' in r)).map((r) => `${r.where}'s law`);
	const engine = callee.rules
		.filter((r): r is typeof r & { zone: string } => 'zone' in r)
		.map((r) => `${r.start}-${r.end} in ${r.zone} for ${r.where}`);
	return [`${hoursOf(own)}${days} local`, ...laws, ...engine].join(', ');
}

/**
 * The first instant at or after `at` with fewer than `max` calls to the number within 24 hours
 * either side, and how many there were at `at`.
 */
function afterLimit(at: number, calls: number[], max: number, next: (ms: number) => number | undefined) {
	const near = (ms: number) => calls.filter((t) => Math.abs(t - ms) < DAY_MS).sort((a, b) => a - b);
	const count = near(at).length;
	let when: number | undefined = at;
	for (let tries = 0; tries <= calls.length && when !== undefined; tries++) {
		const close = near(when);
		if (close.length < max) return { at: when, count };
		when = next(close[close.length - max] + DAY_MS);
	}
	return { at: undefined, count };
}

/**
 * The calling-hours step of sending, before any create request: a row whose callee's window is
 * open at its time (now, or its custom schedule) goes as it is (Auto becomes Now: Unpod's engine
 * reads every +1 number as New York); any other is moved to its next legal slot, or held. Returns
 * the held rows with what their items say. `existing` holds the space's recent tasks where a row
 * has a limit of calls in 24 hours.
 */
export function keepCallingHours<R extends Row>(
	rows: R[],
	now: number,
	existing?: Map<string, ExistingTasks>,
): Map<R, IDataObject> {
	const held = new Map<R, IDataObject>();
	// Rows moved to one slot from one request share the moved request and what their items say:
	// 100,000 rows hold a few of each.
	const moved = new Map<string, Map<unknown, { request: Row['request']; group: string; hours?: RowHours }>>();
	const share = (group: string, key: unknown, row: Row, move: () => IDataObject | undefined) => {
		const ofGroup = moved.get(group) ?? new Map();
		moved.set(group, ofGroup);
		let same = ofGroup.get(key);
		if (!same) {
			const note = move();
			same = { request: row.request, group: row.group, hours: note && row.hours && { ...row.hours, note } };
			ofGroup.set(key, same);
		}
		row.request = same.request;
		row.group = same.group;
		if (same.hours) row.hours = same.hours;
	};
	for (const row of rows) {
		const hours = row.hours;
		if (!hours) continue;
		const { book, callee } = hours;
		const requested = requestedInstant(row.request.body);
		const from = requested ?? now;
		const number = String(row.document.contact_number);
		const hold = (reason: string, next: number | undefined) =>
			held.set(row, {
				...calleeFields(hours, now),
				unpod_created: false,
				unpod_held: `${number}: ${reason}; not called`,
				unpod_next_allowed_at: next === undefined ? null : new Date(next).toISOString(),
			});
		if (!callee.zones.length) {
			hold(
				"the number's time zone is not known (give it with its country code, set the contact's timezone, or the node's Time Zone for Unknown Numbers)",
				undefined,
			);
			continue;
		}
		const legal = (ms: number) => book.firstLegal(ms, callee.windows);
		let at = legal(from);
		let limitNote = '';
		const max = callee.maxCallsPer24Hours;
		if (at !== undefined && max) {
			const calls = existing?.get(row.request.space)?.callTimes(number, row.countryCode) ?? [];
			const limited = afterLimit(at, calls, max, legal);
			if (limited.at !== at)
				limitNote = `${limited.count} calls to this number within 24 hours already (at most ${max}${callee.rules.some((r) => r.maxCallsPer24Hours === max) ? `, ${callee.rules.find((r) => r.maxCallsPer24Hours === max)!.where}'s law` : ''})`;
			at = limited.at;
		}
		if (at === undefined) {
			hold(
				limitNote ||
					`no hour of ${windowText(callee)} is legal in all of its time zones (${callee.zones.length}) within 8 days`,
				undefined,
			);
			continue;
		}
		if (at === from) {
			if ((row.request.body.schedule as IDataObject)?.type === 'auto')
				share(row.group, 'now', row, () => {
					setSchedule(row, { type: 'now' });
					return undefined;
				});
			continue;
		}
		const slot = book.slot(at, callee.windows, SLOT_MINUTES) ?? at;
		if (hours.outside === 'hold') {
			hold(limitNote || `outside its calling hours (${windowText(callee)})`, slot);
			continue;
		}
		// Keyed by the callee (its zones and so its note) and the slot: no string made per row.
		share(row.group, limitNote ? `${limitNote} ${slot} ${callee.zones.join()}` : hours, row, () => {
			setSchedule(row, scheduleAt(slot));
			// The zones, the time there and the new time say why; only a limit of calls says more. Every
			// word on 100,000 items is memory n8n holds several times over.
			return {
				...calleeFields(hours, now),
				scheduled_at: new Date(slot).toISOString(),
				...(limitNote
					? {
							unpod_rescheduled: `${limitNote[0].toUpperCase()}${limitNote.slice(1)}; scheduled for ${book.localTime(slot, callee)}`,
						}
					: {}),
			};
		});
	}
	return held;
}

/** A row's schedule changed: it shares a request only with rows of the same schedule. */
export function setSchedule(row: Pick<Row, 'request' | 'group'>, schedule: IDataObject): void {
	row.request = { ...row.request, body: { ...row.request.body, schedule } };
	row.group = JSON.stringify([row.request.space, row.request.body]);
}

/**
 * The calls of one wait go in one request, so at one time: the first slot legal for every
 * callee at once. Returns undefined when they may be called now; throws, naming the rows and
 * sending nothing, when some number's zone is unknown or no common slot comes before `latest`.
 */
export function commonSlot(
	context: IExecuteFunctions,
	rows: Row[],
	now: number,
	latest: number,
	what: string,
): number | undefined {
	const timed = rows.filter((row) => row.hours);
	if (!timed.length) return undefined;
	const refuse = (message: string, itemIndex: number) =>
		new NodeOperationError(context.getNode(), `${message}. Nothing was sent.`, {
			itemIndex,
			description: `${what} places its calls in one request, at one time legal for every callee (Keep to Calling Hours).`,
		});
	const unknown = timed.find((row) => !row.hours!.callee.zones.length);
	if (unknown)
		throw refuse(
			`Item ${unknown.itemIndex + 1}: the time zone of ${String(unknown.document.contact_number)} is not known (give it with its country code, set the contact's timezone, or the node's Time Zone for Unknown Numbers)`,
			unknown.itemIndex,
		);
	const { book } = timed[0].hours!;
	const windows = timed.flatMap((row) => row.hours!.callee.windows);
	const at = book.firstLegal(now, windows);
	if (at === now) return undefined;
	const slot = at === undefined ? undefined : book.slot(at, windows, SLOT_MINUTES);
	const first = timed[0];
	const local = book.localTime(now, first.hours!.callee);
	if (slot === undefined)
		throw refuse(
			`No hour within 8 days is legal for every callee of this run at once (${local} for item ${first.itemIndex + 1})`,
			first.itemIndex,
		);
	if (slot > latest)
		throw refuse(
			`Outside calling hours: the first time legal for every callee is ${new Date(slot).toISOString()} (${book.localTime(slot, first.hours!.callee)} for item ${first.itemIndex + 1}), after Limit Wait Time`,
			first.itemIndex,
		);
	return slot;
}

/** Each row's callee, read with one book for the run. */
export function rowHours(
	book: CallingHours,
	settings: HoursSettings | undefined,
	document: IDataObject,
	ownZone: string | undefined,
	outside: RowHours['outside'],
	now: number,
	/** Rows of one callee share one RowHours: 100,000 rows, a few hundred objects. */
	shared?: Map<Callee, Partial<Record<RowHours['outside'], RowHours>>>,
): RowHours | undefined {
	if (!settings) return undefined;
	const callee = book.calleeOf(String(document.contact_number), ownZone, settings, now);
	const byOutside = shared?.get(callee) ?? {};
	const hours = byOutside[outside] ?? { book, callee, outside };
	byOutside[outside] = hours;
	shared?.set(callee, byOutside);
	return hours;
}
