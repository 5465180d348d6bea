import type { IDataObject } from 'n8n-workflow';
import { MAX_PAGE_SIZE } from '../shared/pagination';
import type { FetchPage } from '../shared/pagination';
import { platformTime } from '../shared/time';

import { FINAL_STATUSES, isFinal } from '../shared/tasks';
import type { FinalStatus } from '../shared/tasks';

export { FINAL_STATUSES };
export type { FinalStatus };

/** A call still open a week after it was first seen is no longer watched. */
export const MAX_OPEN_AGE_MS = 7 * 24 * 3600 * 1000;
const PAGE = MAX_PAGE_SIZE;
/** A watched task not found where it should be this many times is taken as deleted. */
const MAX_MISSES = 2;

/** Ranks still to read: `[highest, lowest, kind]`, read from the highest down. */
type Range = [number, number, RangeKind];
/** `NEW`: tasks created since a poll, whose ends are emitted. `HISTORY`: what existed at activation. */
const NEW = 0;
const HISTORY = 1;
type RangeKind = typeof NEW | typeof HISTORY;

/** A watched open task: its rank, when it was first seen (epoch s), in progress (1/0), misses. */
type OpenTask = [rank: number, firstSeen: number, inProgress: number, misses: number];

/**
 * What the trigger remembers between polls (the node's static data).
 *
 * Tasks are placed by **rank**: their position counted from the oldest end of the list
 * (`count - index`). The list is sorted by creation, newest first, so new tasks only come
 * in at the top and a task's rank does not move while the list grows: a poll can stop
 * anywhere and the next one knows where to go on, whatever was created in between.
 * Size: about 60 bytes per open call, nothing per emitted call.
 */
export interface TriggerState {
	v: 2;
	/** What is watched (`space:<token>` or `agent:<handle>`); another scope starts afresh. */
	scope: string;
	/** The list's `count` at the last read of page 1: ranks above it are new tasks; -1 before the first. */
	top: number;
	/** The newest task at that read: tasks listed above it are new even if deletions moved ranks. */
	head?: string;
	/** Ranks still to read. */
	todo: Range[];
	/** Open tasks being watched, by id. */
	open: Record<string, OpenTask>;
	/** The rank the sweep of open calls goes on from (0: from the top). */
	sweep: number;
	/** The same for the pages of calls in progress, when they are more than a poll reads. */
	hot?: number;
	/** When activation began (epoch ms): a historic task that ended after it is an end, not history. */
	since: number;
	/** No request before this time (epoch ms), after a 429. */
	retryAt?: number;
	/** From a version-1 state: tasks listed above these ids are new. */
	anchors?: string[];
}

/** The state version 1 of the trigger wrote. */
interface TriggerStateV1 {
	v: 1;
	scope: string;
	anchors: string[];
	pending: Record<string, number>;
}

export type FailureKind = 'rateLimited' | 'transient' | 'final';

export interface ScanOptions {
	scope: string;
	events: FinalStatus[];
	now: number;
	/** Requests one poll may send. */
	budget: number;
	/** At activation, also emit tasks that ended this recently (ms). */
	backfillMs?: number;
	/** How a failed page read may go on; `final` failures are thrown. */
	classify: (error: unknown) => { kind: FailureKind; retryAfterMs?: number };
}

export interface ScanResult {
	state: TriggerState;
	/** Tasks that reached a selected final status, oldest first. */
	emitted: IDataObject[];
	requests: number;
	/** The poll did not run: a 429 asked to wait until `state.retryAt`. */
	skipped: boolean;
	/**
	 * The poll stopped early on a failed read; what it read before is kept in `state`. A
	 * `final` failure (one a wait does not heal) is for the caller to report.
	 */
	stopped?: { kind: FailureKind; error: unknown; retryAfterMs?: number };
	/** Whether the trigger is still learning what existed at activation. */
	learning: boolean;
}

/** The stored state as this version reads it: migrated from version 1, or undefined to re-learn. */
export function readState(stored: unknown, scope: string, now: number): TriggerState | undefined {
	if (!stored || typeof stored !== 'object') return undefined;
	const s = stored as Partial<TriggerState> | Partial<TriggerStateV1>;
	if (s.scope !== scope) return undefined;
	if (s.v === 2) {
		const v2 = s as TriggerState;
		const valid =
			typeof v2.top === 'number' &&
			Array.isArray(v2.todo) &&
			v2.open &&
			typeof v2.open === 'object' &&
			typeof v2.sweep === 'number' &&
			typeof v2.since === 'number';
		// Updated in place: the caller stores what the scan returns, whatever happened.
		return valid ? v2 : undefined;
	}
	if (s.v === 1 && Array.isArray(s.anchors) && s.pending && typeof s.pending === 'object') {
		// Version 1 knew its pending calls by id only: re-learn the list, with those calls
		// counted as seen open (their ends are emitted) and tasks above its anchors as new.
		const open: Record<string, OpenTask> = {};
		for (const [id, firstSeen] of Object.entries(s.pending)) open[id] = [0, Math.floor(Number(firstSeen) / 1000), 0, 0];
		return { v: 2, scope, top: -1, todo: [], open, sweep: 0, since: now, anchors: s.anchors };
	}
	return undefined;
}

const rangeKindOf = (todo: Range[], rank: number): RangeKind | undefined =>
	todo.find(([hi, lo]) => rank <= hi && rank >= lo)?.[2];

/** `todo` without the ranks `lo..hi`. */
function subtract(todo: Range[], hi: number, lo: number): Range[] {
	const out: Range[] = [];
	for (const [h, l, kind] of todo) {
		if (l > hi || h < lo) {
			out.push([h, l, kind]);
			continue;
		}
		if (h > hi) out.push([h, hi + 1, kind]);
		if (l < lo) out.push([lo - 1, l, kind]);
	}
	return out.sort((a, b) => b[0] - a[0]);
}

/**
 * One poll, within `budget` requests: page 1 (new calls, often the first to end), then the
 * pages holding calls in progress, then ranks not read yet (new tasks, or what existed at
 * activation), then the other open calls in turn. It stops early on a failed read and
 * keeps what it read; the next poll goes on from there.
 *
 * A task is emitted once: when it is seen final after it was seen open, or when it was
 * created after a poll and is final when first seen. What existed at activation is history:
 * not emitted, unless it ended after activation began (or within `backfillMs`).
 */
export async function scanForTransitions(
	previous: unknown,
	fetchPage: FetchPage,
	options: ScanOptions,
): Promise<ScanResult> {
	const { now, budget } = options;
	const events = new Set<string>(options.events);
	const known = readState(previous, options.scope, now);
	if (known?.retryAt && known.retryAt > now) {
		return { state: known, emitted: [], requests: 0, skipped: true, learning: learningOf(known) };
	}
	const s: TriggerState = known ?? { v: 2, scope: options.scope, top: -1, todo: [], open: {}, sweep: 0, since: now };
	delete s.retryAt;
	const activating = s.top < 0;
	const historyEndsFrom = s.since - (options.backfillMs ?? 0);

	const emitted: Array<{ rank: number; task: IDataObject }> = [];
	/** Where each watched task should be: a page read checks its own ranks, not every open call. */
	const byRank = new Map<number, string>();
	/** Watched tasks whose rank another task now holds (a deletion shifted ranks). */
	const displaced = new Set<string>();
	const place = (rank: number, id: string) => {
		const before = byRank.get(rank);
		if (before !== undefined && before !== id) displaced.add(before);
		byRank.set(rank, id);
	};
	for (const [id, entry] of Object.entries(s.open)) if (entry[0] > 0) place(entry[0], id);
	const seen = new Set<string>();
	let requests = 0;
	let count = 0;
	let stopped: ScanResult['stopped'];

	/** Reads a page and takes in what it shows; false when the poll must stop. */
	const read = async (page: number): Promise<boolean> => {
		if (stopped || requests >= budget) return false;
		requests++;
		let result;
		try {
			result = await fetchPage(page, PAGE);
		} catch (error) {
			const { kind, retryAfterMs } = options.classify(error);
			stopped = { kind, error, retryAfterMs };
			if (kind === 'rateLimited') s.retryAt = now + Math.max(1000, retryAfterMs ?? 60_000);
			return false;
		}
		const { data } = result;
		const base = (page - 1) * PAGE;
		// Without a total, ranks are counted as if this were the last page.
		const total = typeof result.count === 'number' ? result.count : base + data.length;
		count = total;
		if (page === 1) beginAt(total, data);
		takeIn(page, total, data);
		return true;
	};

	const beginAt = (total: number, data: IDataObject[]) => {
		if (activating) {
			s.todo = [[total, 1, HISTORY]];
		} else {
			if (total > s.top) s.todo.push([total, s.top + 1, NEW]);
			// Deletions can lower the count: nothing is left to read above it.
			s.todo = subtract(s.todo, Number.MAX_SAFE_INTEGER, total + 1);
		}
		s.top = total;
		pageOneHead = s.head;
		if (data.length) s.head = String(data[0].task_id ?? '');
	};
	let pageOneHead: string | undefined;

	const takeIn = (page: number, total: number, data: IDataObject[]) => {
		const base = (page - 1) * PAGE;
		const hi = total - base;
		const lo = hi - data.length + 1;
		let aboveHead = page === 1 && !!pageOneHead && !activating;
		let oldestCreated: number | undefined;
		data.forEach((task, i) => {
			const rank = total - base - i;
			const id = String(task.task_id ?? '');
			if (page === 1 && id === pageOneHead) aboveHead = false;
			if (!id || seen.has(id)) return;
			seen.add(id);
			const status = task.status;
			const created = platformTime(task.created);
			if (created !== undefined) oldestCreated = created;
			const watched = s.open[id];
			if (watched) {
				if (isFinal(status)) {
					delete s.open[id];
					if (events.has(status)) emitted.push({ rank, task });
				} else {
					s.open[id] = [rank, watched[1], status === 'in_progress' ? 1 : 0, 0];
					place(rank, id);
				}
				return;
			}
			let kind = rangeKindOf(s.todo, rank);
			if (aboveHead) kind = NEW;
			if (kind === HISTORY && s.anchors) {
				// Migrating: until a task the old state knew is reached, tasks are new.
				if (s.anchors.includes(id)) delete s.anchors;
				else kind = NEW;
			}
			if (kind === undefined) return;
			if (!isFinal(status)) {
				if (created !== undefined && created < now - MAX_OPEN_AGE_MS) return;
				s.open[id] = [rank, Math.floor(now / 1000), status === 'in_progress' ? 1 : 0, 0];
				place(rank, id);
			} else if (events.has(status)) {
				const ended = platformTime(task.modified ?? task.last_status_change);
				if (kind === NEW || (ended !== undefined && ended >= historyEndsFrom)) emitted.push({ rank, task });
			}
		});
		if (!data.length) {
			// Past the end: no rank at or below this page's top exists.
			s.todo = subtract(s.todo, hi, 1);
			return;
		}
		// Watched tasks that should have been on this page and were not.
		const expected = new Set(displaced);
		for (let rank = lo; rank <= hi; rank++) {
			const id = byRank.get(rank);
			if (id !== undefined) expected.add(id);
		}
		for (const id of expected) {
			const entry = s.open[id];
			if (!entry || seen.has(id) || entry[0] < lo || entry[0] > hi) continue;
			entry[3] += 1;
			if (entry[3] >= MAX_MISSES) delete s.open[id];
		}
		s.todo = subtract(s.todo, hi, lo);
		// What existed at activation is learned back one week: older open calls are not watched.
		if (oldestCreated !== undefined && oldestCreated < now - MAX_OPEN_AGE_MS) {
			s.todo = s.todo.filter(([h, , kind]) => kind !== HISTORY || h >= lo);
		}
	};

	const pageOf = (rank: number) => Math.max(1, Math.floor((count - rank) / PAGE) + 1);
	/**
	 * Reads the page of each target rank not seen this poll, highest first, going on from below
	 * `cursor` and wrapping, until `until` requests were sent. Returns where to go on next time.
	 */
	const visit = async (targets: Array<[rank: number, id: string]>, cursor: number, until: number) => {
		const sorted = targets.sort((a, b) => b[0] - a[0]);
		const start = cursor > 0 ? sorted.findIndex(([rank]) => rank < cursor) : 0;
		const ordered = start > 0 ? [...sorted.slice(start), ...sorted.slice(0, start)] : sorted;
		let last = cursor;
		for (const [rank, id] of ordered) {
			if (seen.has(id) || !s.open[id]) continue;
			if (requests >= until || !(await read(pageOf(rank)))) return last;
			last = rank;
		}
		// The whole round was read: the next one starts from the top.
		return 0;
	};

	if (await read(1)) {
		const openTargets = (inProgress: boolean) =>
			Object.entries(s.open)
				.filter(([, e]) => e[0] > 0 && (e[2] === 1) === inProgress)
				.map(([id, e]) => [e[0], id] as [number, string]);
		// Calls in progress end soonest: their pages come first, but leave half the budget
		// to the rest when there is more to read.
		const more = s.todo.length > 0 || openTargets(false).length > 0;
		const hotUntil = more ? requests + Math.max(1, Math.ceil((budget - requests) / 2)) : budget;
		s.hot = await visit(openTargets(true), s.hot ?? 0, hotUntil);
		while (s.todo.length && !stopped && requests < budget) {
			const before = JSON.stringify(s.todo);
			if (!(await read(pageOf(s.todo[0][0])))) break;
			if (JSON.stringify(s.todo) === before) break;
		}
		// Calls of a version-1 state have no rank until the list is learned; then they are lost.
		if (!s.todo.length) {
			for (const [id, e] of Object.entries(s.open)) if (e[0] === 0 && !seen.has(id)) delete s.open[id];
		}
		if (!stopped && requests < budget) s.sweep = await visit(openTargets(false), s.sweep, budget);
	}

	for (const [id, e] of Object.entries(s.open)) {
		if (e[1] * 1000 < now - MAX_OPEN_AGE_MS) delete s.open[id];
	}
	return {
		state: s,
		emitted: emitted.sort((a, b) => a.rank - b.rank).map((e) => e.task),
		requests,
		skipped: false,
		stopped,
		learning: learningOf(s),
	};
}

const learningOf = (s: TriggerState) => s.top < 0 || s.todo.some(([, , kind]) => kind === HISTORY);
