/**
 * When each row is called, for every operation that places calls: the step of sending that holds
 * or moves a row whose callee's window is closed, or whose limits of calls are full, before any
 * create request; a Call At already past; a call sent now that must ring before its window
 * closes; and the one time of the calls of a wait.
 */
import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import type { Callee, CalleeLimit, CallingHours } from '../../shared/callingHours/callee';
import { HORIZON_DAYS } from '../../shared/callingHours/window';
import { RollingWindow } from '../../shared/rollingWindow';
import { LONGEST_LIMIT_DAYS } from '../../shared/callingHours/rules';
import { DAY_MS, MINUTE_MS } from '../../shared/time';
import { groupOf } from './contactRow';
import type { Row, RowHours } from './contactRow';

/**
 * A space's calls as the send step read them (placeCalls/existingTasks.ts): when each number's
 * calls ring, and when all of them do.
 */
export interface SpaceCalls {
	callTimes(number: string, countryCode: string): number[];
	allCallTimes(): number[];
}

/** Calls moved to the same quarter hour share a create request. */
export const SLOT_MINUTES = 15;
/**
 * A call sent now rings after Unpod's queue and dialling: it goes now only while its window stays
 * open this much longer, else at the next opening.
 */
export const NOW_MARGIN_MINUTES = 15;
const MARGIN_MS = NOW_MARGIN_MINUTES * MINUTE_MS;

/**
 * The farthest the package moves a call past its time (now, or its Call At): the law's windows are
 * looked for this far past the end of the longest limit's period (France's 30 days). The reads of
 * recent tasks reach back this far and a period more (send.ts): a call moved then still counts
 * when it rings.
 */
export const SCHEDULE_HORIZON_DAYS = LONGEST_LIMIT_DAYS + HORIZON_DAYS;

const NO_ZONE =
	"the number's time zone is not known (give it with its country code, set the contact's timezone, or the node's Time Zone for Unknown Numbers)";

/** When a row is to be called: its custom schedule's instant (UTC, as Unpod reads it), else undefined (now). */
export function requestedInstant(body: IDataObject): number | undefined {
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

/** A row's schedule changed: it shares a request only with rows of the same schedule. */
export function setSchedule(row: Pick<Row, 'request' | 'group'>, schedule: IDataObject): void {
	row.request = { ...row.request, body: { ...row.request.body, schedule } };
	row.group = groupOf(row.request);
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
 * The first instant at or after `from` that a call may start and that lets it ring before the
 * window closes: a time whose window stays open for the margin. A call sent now waits in Unpod's
 * queue, and a scheduled one (a Call At of 19:59 in Paris) goes when Unpod's scheduler comes to it.
 */
export function firstCallable(book: CallingHours, callee: Callee, from: number): number | undefined {
	let at = book.firstLegal(from, callee.windows);
	for (let tries = 0; tries < 4 && at !== undefined; tries++) {
		const later = book.firstLegal(at + MARGIN_MS, callee.windows);
		if (later === at + MARGIN_MS) return at;
		at = later === undefined ? undefined : book.firstLegal(later, callee.windows);
	}
	return at;
}

/**
 * The first instant at or after `at` (and callable) with room under every limit: no period of a
 * limit's length holds more than its calls, counting `calls` (the space's, and this run's earlier
 * rows'). Says which limit moved it, and the calls it counted.
 */
function underLimits(at: number, calls: number[], limits: CalleeLimit[], next: (ms: number) => number | undefined) {
	const windows = limits.map((limit) => ({ limit, window: new RollingWindow(calls, limit.days * DAY_MS) }));
	let when: number | undefined = at;
	let moved: Counted | undefined;
	for (let tries = 0; tries <= (calls.length + 1) * limits.length + 1 && when !== undefined; tries++) {
		const full = windows
			.map(({ limit, window }) => ({ limit, window, period: window.full(when!, limit.calls) }))
			.find(({ period }) => period);
		if (!full) return { at: when, moved };
		moved ??= { limit: full.limit, calls: full.window.between(full.period!.from, full.period!.to) };
		when = next(full.window.firstFit(when, full.limit.calls));
	}
	return { at: undefined, moved };
}

/** A limit that moved a call, and the calls it counted. */
interface Counted {
	limit: CalleeLimit;
	calls: number[];
}

/** The calls a limit or the cap counted, on the callee's clock: `Mon 2026-12-07 10:05, Tue ... (Europe/Paris)`. */
export function countedText(times: number[], book: CallingHours, callee: Pick<Callee, 'zones'>): string {
	const zone = callee.zones[0];
	if (!zone) return times.map((t) => new Date(t).toISOString()).join(', ');
	const shown = times.slice(0, 5).map((t) => book.clock.wallClock(t, zone));
	return `${shown.join(', ')}${times.length > 5 ? `, and ${times.length - 5} more` : ''} (${zone})`;
}

/**
 * Why a time is closed, in words, at the callee's time: the first window that leaves it out, or
 * that closes within the margin, named; else the window as a whole.
 */
function closedText(book: CallingHours, callee: Callee, at: number): string {
	const local = book.localTime(at, callee);
	const closed = book.closedBy(callee, at);
	if (closed) return `outside its calling hours at ${local} (${closed})`;
	const soon = book.closedBy(callee, at + MARGIN_MS) ?? book.windowText(callee);
	return `its calling hours end within ${NOW_MARGIN_MINUTES} minutes of ${local} (${soon})`;
}

const limitText = ({ limit, calls }: Counted, hours: RowHours) =>
	`${calls.length} calls to this number in ${limit.days === 1 ? '24 hours' : `${limit.days} days`} already (at most ${limit.calls}, ${limit.where === 'Max Calls per 24 Hours' ? 'Max Calls per 24 Hours' : `${limit.where}'s law`}): ${countedText(calls, hours.book, hours.callee)}`;

/**
 * The calls counted for the limits: the space's tasks to a number, and the rows of this send
 * accepted before (each row's own, so that a row moved again is counted once).
 */
export class CallTally {
	private thisRun = new Map<string, number[]>();
	private ofRow = new Map<Row, { key: string; at: number }>();

	constructor(private existing?: Map<string, SpaceCalls>) {}

	of(row: Row, number: string): number[] {
		const space = this.existing?.get(row.request.space)?.callTimes(number, row.countryCode) ?? [];
		return [...space, ...(this.thisRun.get(`${row.request.space} ${number}`) ?? [])];
	}

	add(row: Row, number: string, at: number): void {
		const key = `${row.request.space} ${number}`;
		this.thisRun.set(key, [...(this.thisRun.get(key) ?? []), at]);
		this.ofRow.set(row, { key, at });
	}

	/** Forgets the call a row was counted for, if any. */
	drop(row: Row): void {
		const counted = this.ofRow.get(row);
		if (!counted) return;
		const times = this.thisRun.get(counted.key)!;
		times.splice(times.indexOf(counted.at), 1);
		this.ofRow.delete(row);
	}
}

/**
 * The calling-hours step of sending, before any create request: a row whose callee may be called
 * at its time (now, or its custom schedule) goes as it is (Auto becomes Now: Unpod's engine reads
 * every +1 number as New York); any other is moved to its next legal slot, or held. A Call At
 * already past is never sent as such. Returns the held rows with what their items say.
 * `tally` counts the space's recent tasks (read where a row has a limit of calls) and the rows of
 * this send accepted so far; a row the cap holds is not counted, so a later row of the same number
 * is not moved for a call that was never placed.
 */
export function keepCallingHours<R extends Row>(
	rows: R[],
	now: number,
	tally = new CallTally(),
	/** The space's cap, asked of each row the hours let go, in order: true when it holds the row. */
	heldByCap?: (row: R) => boolean,
): Map<R, IDataObject> {
	const held = new Map<R, IDataObject>();
	// Rows moved to one slot from one request share the moved request and what their items say:
	// 100,000 rows hold a few of each.
	const moved = new Map<string, Map<unknown, { request: Row['request']; group: string; hours?: RowHours }>>();
	const share = (key: unknown, row: Row, move: () => IDataObject | undefined) => {
		const ofGroup = moved.get(row.group) ?? new Map();
		moved.set(row.group, ofGroup);
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
	const decide = (row: R): void => {
		const requested = requestedInstant(row.request.body);
		const past =
			requested !== undefined && requested < now ? `Call At ${new Date(requested).toISOString()} had passed` : '';
		const hours = row.hours;
		if (!hours) {
			if (past) {
				share('past', row, () => void setSchedule(row, { type: 'now' }));
				row.note = { unpod_rescheduled: `${past}; called now` };
			}
			return;
		}
		const { book, callee } = hours;
		const from = past || requested === undefined ? now : requested;
		const number = String(row.document.contact_number);
		const hold = (reason: string, next: number | undefined) =>
			held.set(row, {
				...calleeFields(hours, now),
				unpod_created: false,
				unpod_held: `${row.where}: ${number}: ${reason}; not called${next === undefined ? '' : `; it may be called from ${book.localTime(next, callee)}`}`,
				unpod_next_allowed_at: next === undefined ? null : new Date(next).toISOString(),
			});
		// A row decided again (a batch checked after a wait) is counted anew, not twice.
		tally.drop(row);
		if (!callee.zones.length) {
			hold(NO_ZONE, undefined);
			return;
		}
		let at = firstCallable(book, callee, from);
		let limitNote = '';
		if (at !== undefined && callee.limits.length) {
			const limited = underLimits(at, tally.of(row, number), callee.limits, (ms) => firstCallable(book, callee, ms));
			if (limited.moved) limitNote = limitText(limited.moved, hours);
			at = limited.at;
		}
		if (at === undefined || at - from > SCHEDULE_HORIZON_DAYS * DAY_MS) {
			hold(
				limitNote ||
					`no hour of ${book.windowText(callee)} in all of its time zones (${callee.zones.length}) within ${HORIZON_DAYS} days`,
				undefined,
			);
			return;
		}
		const slot = at === from ? at : (book.slot(at, callee.windows, SLOT_MINUTES) ?? at);
		// Why it was moved, in words: the limit, or the first window closed at its time.
		const closed = () => limitNote || closedText(book, callee, from);
		if (slot !== from && hours.outside === 'hold') {
			hold(closed(), slot);
			return;
		}
		if (callee.limits.length) tally.add(row, number, slot);
		if (slot === from && !past) {
			if ((row.request.body.schedule as IDataObject)?.type === 'auto')
				share('now', row, () => {
					setSchedule(row, { type: 'now' });
					return undefined;
				});
			return;
		}
		// Keyed by the callee (its zones and so its note) and the slot: no string made per row.
		share(limitNote || past ? `${limitNote}${past} ${slot} ${callee.zones.join()}` : hours, row, () => {
			setSchedule(row, slot === now ? { type: 'now' } : scheduleAt(slot));
			// One note for every row of the key: every word on 100,000 items is memory n8n holds
			// several times over.
			const why = [past, slot === from ? '' : closed()].filter(Boolean).join('; ');
			return {
				...calleeFields(hours, now),
				scheduled_at: new Date(slot).toISOString(),
				unpod_rescheduled: `${why ? `${why[0].toUpperCase()}${why.slice(1)}; s` : 'S'}cheduled for ${book.localTime(slot, callee)}`,
			};
		});
	};
	for (const row of rows) {
		decide(row);
		// Held by the cap: not called, so its number's limits do not count it.
		if (!held.has(row) && heldByCap?.(row)) tally.drop(row);
	}
	return held;
}

/**
 * Before a batch sent now, after a wait for the rate limit or a retry: each of its rows still
 * callable now, with the margin, or moved (or held) as keepCallingHours would, counted by the
 * send's own `tally` in place of the call it was first counted for. Returns the held.
 */
export function recheckNow<R extends Row>(rows: R[], now: number, tally: CallTally): Map<R, IDataObject> {
	const late = rows.filter((row) => {
		const hours = row.hours;
		if (!hours || (row.request.body.schedule as IDataObject)?.type !== 'now') return false;
		return firstCallable(hours.book, hours.callee, now) !== now;
	});
	return late.length ? keepCallingHours(late, now, tally) : new Map();
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
			`Item ${unknown.itemIndex + 1}: ${String(unknown.document.contact_number)}: ${NO_ZONE}`,
			unknown.itemIndex,
		);
	const { book } = timed[0].hours!;
	const together = { ...timed[0].hours!.callee, windows: timed.flatMap((row) => row.hours!.callee.windows) };
	const at = firstCallable(book, together, now);
	if (at === now) return undefined;
	const slot = at === undefined ? undefined : book.slot(at, together.windows, SLOT_MINUTES);
	const first = timed[0];
	const local = book.localTime(now, first.hours!.callee);
	if (slot === undefined)
		throw refuse(
			`No hour within ${HORIZON_DAYS} days is legal for every callee of this run at once (${local} for item ${first.itemIndex + 1})`,
			first.itemIndex,
		);
	if (slot > latest)
		throw refuse(
			`Outside calling hours: the first time legal for every callee is ${new Date(slot).toISOString()} (${book.localTime(slot, first.hours!.callee)} for item ${first.itemIndex + 1}), after Limit Wait Time`,
			first.itemIndex,
		);
	return slot;
}
