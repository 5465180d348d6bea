/**
 * One poll of the Unpod Trigger watching the call log, as a pure function of the stored state
 * and a page reader. Unpod writes one record when a call ends (inbound or outbound) and lists
 * them newest first; `cdr/` has no date filter, so the trigger keeps a cursor of what it has seen:
 *
 * - the highest id seen, and the newest time a record was logged (`creation_time`, else
 *   `end_time`) with the ids seen at that very time (Unpod writes whole seconds: several calls
 *   share one);
 * - a record is new when its id is above the highest seen, or it was logged after the newest
 *   time seen, or at that time under an id not seen at it. Either rule alone would do where ids
 *   follow the order of logging, as they do; together they also take a record with an id out of
 *   order or a time written late, when it sits on a page the poll reads. A record seen before has
 *   both an id and a time at or below the cursor's (while at most MAX_TIED_IDS share its second),
 *   and one found twice in a poll (records logged while it reads push rows onto the next page) is
 *   taken once: each record is emitted at most once, oldest first.
 * - not seen: a record whose id and time both fall behind the cursor (two transactions committing
 *   out of order), and one with a late time listed below the pages a poll reads or below what a
 *   catch-up took. Another path (`cdr/` <-> `call-logs/`) is learnt afresh: records logged since
 *   the last poll on the old one are not emitted.
 *
 * A poll reads newest first from page 1 and stops at the first page holding a record it has
 * seen, or at the list's end as its `count` says (a short page, only where there is none). Pages
 * are as large as page 1 was when it held fewer than asked and `count` says more: a deployment
 * may cap page_size. When `count` says more records came since the last poll than the poll may
 * read that way, it reads them from the oldest page up instead, by their place in the list counted
 * from its oldest end (`count - index`, which new records do not move), as far as the budget
 * goes; the next poll goes on from there. Activation only learns the cursor: what exists is
 * history, never emitted.
 */
import type { IDataObject } from 'n8n-workflow';
import { loggedAt } from '../shared/callLogs';
import { MAX_PAGE_SIZE } from '../shared/pagination';
import type { FetchPage, Page } from '../shared/pagination';
import type { FailureKind } from '../shared/retry';

/** Ids kept of the records logged at the newest time: far more than one second holds. */
export const MAX_TIED_IDS = 1000;

export interface CallLogCursor {
	/** The highest id seen (0: none). */
	id: number;
	/** The newest time a record seen was logged, epoch ms (0: none). */
	time: number;
	/** The ids seen logged at `time`. */
	atTime: number[];
}

export interface CallLogState {
	v: 2;
	/** What is watched (`callLog:<direction>`); another scope starts afresh. */
	scope: string;
	/** The list's `count` when it was last taken in up to its newest record; -1 before activation. */
	top: number;
	cursor: CallLogCursor;
	/** The path that served (`/cdr/` or `/call-logs/`): asked first; another one starts afresh. */
	path?: string;
	/** No request before this time (epoch ms), after a 429. */
	retryAt?: number;
}

export interface CallLogScanOptions {
	scope: string;
	now: number;
	/** Requests one poll may send. */
	budget: number;
	classify: (error: unknown) => { kind: FailureKind; waitMs?: number };
	/** The path that served the last read. */
	servedPath?: () => string | undefined;
}

export interface CallLogScanResult {
	state: CallLogState;
	/** New call log records, oldest first. */
	emitted: IDataObject[];
	requests: number;
	/** The poll did not run: a 429 asked to wait until `state.retryAt`. */
	skipped: boolean;
	stopped?: { kind: FailureKind; error: unknown; waitMs?: number };
	/** Records logged since the last poll that the budget did not reach and no later poll will (only where the list gives no `count`). */
	skippedPast?: boolean;
}

const EMPTY: CallLogCursor = { id: 0, time: 0, atTime: [] };

export function readCallLogState(stored: unknown, scope: string): CallLogState | undefined {
	if (!stored || typeof stored !== 'object') return undefined;
	const s = stored as Partial<CallLogState>;
	if (s.v !== 2 || s.scope !== scope || typeof s.top !== 'number') return undefined;
	const c = (s.cursor ?? {}) as Partial<CallLogCursor>;
	const cursor: CallLogCursor = {
		id: typeof c.id === 'number' ? c.id : 0,
		time: typeof c.time === 'number' ? c.time : 0,
		atTime: Array.isArray(c.atTime) ? c.atTime.filter((id) => typeof id === 'number') : [],
	};
	return {
		v: 2,
		scope,
		top: s.top,
		cursor,
		...(typeof s.path === 'string' ? { path: s.path } : {}),
		...(s.retryAt ? { retryAt: s.retryAt } : {}),
	};
}

const idOf = (row: IDataObject): number => Number(row.id);

/** Whether a record is not behind the cursor (see the rules above). */
export function isNewRecord(cursor: CallLogCursor, row: IDataObject): boolean {
	const id = idOf(row);
	const known = Number.isFinite(id);
	if (known && id > cursor.id) return true;
	const time = loggedAt(row);
	if (time === undefined) return false;
	if (time > cursor.time) return true;
	return time === cursor.time && known && !cursor.atTime.includes(id);
}

/** The cursor moved past `rows`. */
export function advanceCursor(cursor: CallLogCursor, rows: IDataObject[]): CallLogCursor {
	const next = { ...cursor, atTime: [...cursor.atTime] };
	for (const row of rows) {
		const id = idOf(row);
		const known = Number.isFinite(id);
		if (known) next.id = Math.max(next.id, id);
		const time = loggedAt(row);
		if (time === undefined) continue;
		if (time > next.time) {
			next.time = time;
			next.atTime = known ? [id] : [];
		} else if (time === next.time && known && !next.atTime.includes(id)) next.atTime.push(id);
	}
	if (next.atTime.length > MAX_TIED_IDS) next.atTime = next.atTime.slice(-MAX_TIED_IDS);
	return next;
}

/**
 * Requests a poll needs to read newest first down to a record it has seen, when `fresh` records
 * came since and `top` existed before: the page holding the first old record, or the list's
 * last page when there was none.
 */
export function pagesNewestFirst(fresh: number, top: number, pageSize = MAX_PAGE_SIZE): number {
	return top > 0 ? Math.floor(Math.max(0, fresh) / pageSize) + 1 : Math.max(1, Math.ceil(fresh / pageSize));
}

/** The page holding place `rank` (counted from the list's oldest end) of a list of `count`. */
export const pageOfRank = (count: number, rank: number, pageSize = MAX_PAGE_SIZE): number =>
	Math.floor((count - rank) / pageSize) + 1;

/**
 * The size of the pages the list serves: what page 1 held when it held fewer than asked and its
 * `count` says there are more (a deployment capping page_size: the spec documents no maximum);
 * otherwise the size asked.
 */
export function servedPageSize(first: Page, asked = MAX_PAGE_SIZE): number {
	const held = first.data.length;
	return held > 0 && held < asked && first.count !== undefined && first.count > held ? held : asked;
}

/**
 * One poll within `budget` requests: page 1 (the newest records, and how long the list is),
 * then newest first until a record seen before, or, when more came than that reads, from the
 * oldest page up.
 */
export async function scanCallLogs(
	stored: unknown,
	fetchPage: FetchPage,
	options: CallLogScanOptions,
): Promise<CallLogScanResult> {
	const known = readCallLogState(stored, options.scope);
	if (known?.retryAt && known.retryAt > options.now) {
		return { state: known, emitted: [], requests: 0, skipped: true };
	}
	let requests = 0;
	let stopped: CallLogScanResult['stopped'];
	const read = async (page: number): Promise<Page | undefined> => {
		requests++;
		try {
			return await fetchPage(page, MAX_PAGE_SIZE);
		} catch (error) {
			const { kind, waitMs } = options.classify(error);
			stopped = { kind, error, waitMs };
			return undefined;
		}
	};
	const state: CallLogState = known
		? { ...known, cursor: { ...known.cursor, atTime: [...known.cursor.atTime] } }
		: { v: 2, scope: options.scope, top: -1, cursor: EMPTY };
	delete state.retryAt;
	const finish = (emitted: IDataObject[], skippedPast?: boolean): CallLogScanResult => {
		if (stopped?.kind === 'rateLimited') state.retryAt = options.now + Math.max(1000, stopped.waitMs ?? 60_000);
		return { state, emitted, requests, skipped: false, stopped, ...(skippedPast ? { skippedPast } : {}) };
	};

	const first = await read(1);
	if (!first) return finish([]);
	const path = options.servedPath?.();
	const moved = path !== undefined && known?.path !== undefined && known.path !== path;
	if (path !== undefined) state.path = path;
	const count = first.count;
	// A top of -1 is an activation whose first read failed: it starts again. On another path
	// the ids may be another table's: the trigger learns it afresh.
	if (!known || known.top < 0 || moved) {
		state.top = count ?? first.data.length;
		state.cursor = advanceCursor(EMPTY, first.data);
		return finish([]);
	}

	const size = servedPageSize(first);
	if (count !== undefined && pagesNewestFirst(count - state.top, state.top, size) > options.budget) {
		return finish(await catchUp(state, first, read, options.budget - 1, size));
	}

	// Newest first, down to a record seen before. The cursor stays put until the poll ends, so
	// records logged while it reads push rows of one page onto the next: those are taken once.
	const fresh: IDataObject[] = [];
	const takenIds = new Set<number>();
	let page: Page = first;
	for (let n = 1; ;) {
		const found = page.data.filter((row) => isNewRecord(state.cursor, row));
		for (const row of found) {
			const id = idOf(row);
			if (Number.isFinite(id)) {
				if (takenIds.has(id)) continue;
				takenIds.add(id);
			}
			fresh.push(row);
		}
		const listed = page.count ?? count;
		// `count` says where the list ends; a short page only where there is none.
		const end = page.data.length === 0 || (listed !== undefined ? n * size >= listed : page.data.length < size);
		if (found.length < page.data.length || end) break;
		if (requests >= options.budget) {
			// Only where `count` misled: the older records of this burst are not read.
			state.top = count ?? state.top;
			return finish(taken(state, fresh), true);
		}
		const next = await read(++n);
		// Records found go out with the ones older than them: none yet, the next poll reads them again.
		if (!next) return finish([]);
		page = next;
	}
	state.top = count ?? state.top;
	return finish(taken(state, fresh));
}

/** Records found newest first, as emitted: oldest first, the cursor past them. */
function taken(state: CallLogState, newestFirst: IDataObject[]): IDataObject[] {
	const rows = [...newestFirst].reverse();
	state.cursor = advanceCursor(state.cursor, rows);
	return rows;
}

/**
 * More records came than a poll reads newest first: they are read from the oldest page up, each
 * page found from the latest `count` and the place the trigger has taken in (`top`), with up to
 * `budget` requests; page 1, read first, closes the catch-up when nothing came in meanwhile.
 */
async function catchUp(
	state: CallLogState,
	first: Page,
	read: (page: number) => Promise<Page | undefined>,
	budget: number,
	size: number,
): Promise<IDataObject[]> {
	const emitted: IDataObject[] = [];
	let count = first.count!;
	const take = (data: IDataObject[], page: number, listed: number) => {
		const highest = listed - (page - 1) * size;
		const rows = data
			.map((row, i) => ({ row, rank: highest - i }))
			.filter(({ row, rank }) => rank > state.top && isNewRecord(state.cursor, row))
			.map(({ row }) => row)
			.reverse();
		emitted.push(...rows);
		state.cursor = advanceCursor(state.cursor, rows);
		state.top = Math.max(state.top, highest);
	};
	for (let left = budget; left > 0; left--) {
		const page = pageOfRank(count, state.top + 1, size);
		if (page <= 1) break;
		const result = await read(page);
		if (!result) return emitted;
		const listed = result.count ?? count;
		const lowest = listed - (page - 1) * size - (result.data.length - 1);
		// Records logged since the page was chosen moved it past the place wanted: ask again.
		if (lowest > state.top + 1 && listed !== count) {
			count = listed;
			continue;
		}
		take(result.data, page, listed);
		count = listed;
	}
	if (pageOfRank(count, state.top + 1, size) <= 1 && count === first.count) take(first.data, 1, count);
	return emitted;
}
