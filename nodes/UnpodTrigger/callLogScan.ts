/**
 * One poll of the Unpod Trigger watching the call log, as a pure function of the stored state
 * and a page reader. Unpod writes one call log row when a call ends (inbound or outbound) and
 * lists them newest first; ids only grow. A row is emitted once: when its id is above the
 * highest id known at activation and it was not emitted before. What existed at activation
 * is history, never emitted.
 *
 * The state is bounded: the count of rows taken in (`top`), an id `floor`, and the ids
 * emitted above it, at most RECENT_IDS of them.
 */
import type { IDataObject } from 'n8n-workflow';
import { MAX_PAGE_SIZE } from '../shared/pagination';
import type { FetchPage, Page } from '../shared/pagination';
import type { FailureKind } from '../shared/retry';

/** Emitted ids kept to tell a row seen again (the list shifted) from a new one. */
export const RECENT_IDS = 1000;

export interface CallLogState {
	v: 1;
	/** What is watched (`callLog:<direction>`); another scope starts afresh. */
	scope: string;
	/** The list's length when it was last taken in whole: rows above it are new. */
	top: number;
	/** Rows with an id at or below it are not emitted. */
	floor: number;
	/** Ids above `floor` already emitted, oldest first. */
	recent: number[];
	/** No request before this time (epoch ms), after a 429. */
	retryAt?: number;
}

export interface CallLogScanOptions {
	scope: string;
	now: number;
	/** Requests one poll may send. */
	budget: number;
	classify: (error: unknown) => { kind: FailureKind; waitMs?: number };
}

export interface CallLogScanResult {
	state: CallLogState;
	/** New call log rows, oldest first. */
	emitted: IDataObject[];
	requests: number;
	/** The poll did not run: a 429 asked to wait until `state.retryAt`. */
	skipped: boolean;
	stopped?: { kind: FailureKind; error: unknown; waitMs?: number };
}

export function readCallLogState(stored: unknown, scope: string): CallLogState | undefined {
	if (!stored || typeof stored !== 'object') return undefined;
	const s = stored as Partial<CallLogState>;
	if (s.v !== 1 || s.scope !== scope || typeof s.top !== 'number' || typeof s.floor !== 'number') return undefined;
	const recent = Array.isArray(s.recent) ? s.recent.filter((id) => typeof id === 'number') : [];
	return { v: 1, scope, top: s.top, floor: s.floor, recent, ...(s.retryAt ? { retryAt: s.retryAt } : {}) };
}

const idOf = (row: IDataObject): number => Number(row.id);

/** The pages after the first that hold rows not taken in yet (`top` of `total`), oldest first. */
export function pagesToRead(total: number, top: number): number[] {
	const last = Math.ceil(Math.max(0, total - top) / MAX_PAGE_SIZE);
	const pages: number[] = [];
	for (let page = last; page >= 2; page--) pages.push(page);
	return pages;
}

/** Rows not emitted before, by the id rule; the state then remembers them. */
export function takeNewRows(state: CallLogState, rows: IDataObject[]): IDataObject[] {
	const recent = new Set(state.recent);
	const fresh = rows.filter((row) => {
		const id = idOf(row);
		if (!Number.isFinite(id) || id <= state.floor || recent.has(id)) return false;
		recent.add(id);
		return true;
	});
	state.recent.push(...fresh.map(idOf));
	if (state.recent.length > RECENT_IDS) {
		state.recent.sort((a, b) => a - b);
		const dropped = state.recent.splice(0, state.recent.length - RECENT_IDS);
		state.floor = Math.max(state.floor, ...dropped);
	}
	return fresh;
}

/**
 * One poll within `budget` requests: page 1 (how long the list is, and the newest rows);
 * when more rows came than a page holds, the pages holding them from the oldest up, as far
 * as the budget goes (page 1's rows then wait for the next poll, which goes on from there).
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
		? { ...known, recent: [...known.recent] }
		: { v: 1, scope: options.scope, top: -1, floor: 0, recent: [] };
	delete state.retryAt;
	const finish = (emitted: IDataObject[]): CallLogScanResult => {
		if (stopped?.kind === 'rateLimited') state.retryAt = options.now + Math.max(1000, stopped.waitMs ?? 60_000);
		return { state, emitted, requests, skipped: false, stopped };
	};

	const first = await read(1);
	if (!first) return finish([]);
	const total = first.count ?? first.data.length;
	// A state of -1 is an activation whose first read failed: it starts again.
	if (!known || known.top < 0) {
		// Activation: what exists is history.
		state.top = total;
		state.floor = Math.max(0, ...first.data.map(idOf).filter(Number.isFinite));
		return finish([]);
	}

	const pages = pagesToRead(total, state.top);
	const pagesRead: IDataObject[][] = [];
	for (const page of pages.slice(0, Math.max(0, options.budget - 1))) {
		const result = await read(page);
		if (!result) break;
		pagesRead.push(result.data);
		state.top = total - (page - 1) * MAX_PAGE_SIZE;
	}
	if (pagesRead.length === pages.length) {
		pagesRead.push(first.data);
		state.top = total;
	}
	// Pages were read oldest first; inside a page the newest row comes first.
	const rows = pagesRead.flatMap((data) => [...data].reverse());
	return finish(takeNewRows(state, rows));
}
