/**
 * What the Unpod Trigger remembers between polls (the node's static data): named fields in
 * memory, tuples where stored, since the stored form is kept for every open call; and what one
 * poll (scan.ts) is given and gives back.
 *
 * Tasks are placed by **rank**: their position counted from the oldest end of the list
 * (`count - index`). The list is sorted by creation, newest first, so new tasks only come in
 * at the top and a task's rank does not move while the list grows: a poll can stop anywhere
 * and the next one knows where to go on, whatever was created in between.
 */

import type { IDataObject } from 'n8n-workflow';
import type { FailureKind } from '../shared/retry';
import type { FinalStatus } from '../shared/tasks';

export interface ScanOptions {
	scope: string;
	events: FinalStatus[];
	now: number;
	/** Requests one poll may send. */
	budget: number;
	/** At activation, also emit tasks that ended this recently (ms). */
	backfillMs?: number;
	/** How a failed page read may go on (the package's retry policy); `final` failures are thrown. */
	classify: (error: unknown) => { kind: FailureKind; waitMs?: number };
}

export interface ScanResult {
	/** What to store for the next poll. */
	state: StoredState;
	/** Tasks that reached a selected final status, oldest first. */
	emitted: IDataObject[];
	requests: number;
	/** The poll did not run: a 429 asked to wait until `state.retryAt`. */
	skipped: boolean;
	/**
	 * The poll stopped early on a failed read; what it read before is kept in `state`. A
	 * `final` failure (one a wait does not heal) is for the caller to report.
	 */
	stopped?: { kind: FailureKind; error: unknown; waitMs?: number };
	/** Whether the trigger is still learning what existed at activation. */
	learning: boolean;
}

/** `new`: tasks created since a poll, whose ends are emitted. `history`: what existed at activation. */
export type RangeKind = 'new' | 'history';

/** Ranks still to read, from `hi` down to `lo`. */
export interface Range {
	hi: number;
	lo: number;
	kind: RangeKind;
}

/** A watched call that has not ended. */
export interface OpenCall {
	/** Where the task should be in the list. */
	rank: number;
	/** When the trigger first saw it open (epoch seconds). */
	firstSeen: number;
	inProgress: boolean;
	/** Reads of its page that did not show it; at two it is taken as deleted. */
	misses: number;
}

export interface TriggerState {
	/** What is watched (`space:<token>` or `agent:<handle>`); another scope starts afresh. */
	scope: string;
	/** The list's `count` at the last read of page 1: ranks above it are new tasks; -1 before the first. */
	top: number;
	/** The newest task at that read: tasks listed above it are new even if deletions moved ranks. */
	head?: string;
	todo: Range[];
	open: Map<string, OpenCall>;
	/** The rank the sweep of open calls goes on from (0: from the top). */
	sweep: number;
	/** The same for the pages of calls in progress, when they are more than a poll reads. */
	hot: number;
	/** When activation began (epoch ms): a historic task that ended after it is an end, not history. */
	since: number;
	/** No request before this time (epoch ms), after a 429. */
	retryAt?: number;
}

/** The stored form: about 60 bytes per open call, nothing per emitted call. */
export interface StoredState {
	v: 2;
	scope: string;
	top: number;
	head?: string;
	todo: Array<[hi: number, lo: number, kind: 0 | 1]>;
	open: Record<string, [rank: number, firstSeen: number, inProgress: 0 | 1, misses: number]>;
	sweep: number;
	hot?: number;
	since: number;
	retryAt?: number;
}

const KINDS: RangeKind[] = ['new', 'history'];

export function freshState(scope: string, now: number): TriggerState {
	return { scope, top: -1, todo: [], open: new Map(), sweep: 0, hot: 0, since: now };
}

/**
 * The stored state as this version reads it, or undefined to learn the list afresh: a
 * state of another scope, or one this version cannot read (none was ever published).
 */
export function readState(stored: unknown, scope: string): TriggerState | undefined {
	if (!stored || typeof stored !== 'object') return undefined;
	const s = stored as Partial<StoredState>;
	if (s.v !== 2 || s.scope !== scope) return undefined;
	if (typeof s.top !== 'number' || typeof s.sweep !== 'number' || typeof s.since !== 'number') return undefined;
	if (!Array.isArray(s.todo) || !s.open || typeof s.open !== 'object') return undefined;
	const open = new Map<string, OpenCall>();
	for (const [id, entry] of Object.entries(s.open)) {
		// A damaged entry is dropped (that call's end goes unseen) rather than failing every poll.
		if (!Array.isArray(entry) || entry.length < 4) continue;
		const [rank, firstSeen, inProgress, misses] = entry;
		open.set(id, { rank, firstSeen, inProgress: inProgress === 1, misses });
	}
	return {
		scope,
		top: s.top,
		head: s.head,
		todo: s.todo
			.filter((range) => Array.isArray(range))
			.map(([hi, lo, kind]) => ({ hi, lo, kind: KINDS[kind] ?? 'history' })),
		open,
		sweep: s.sweep,
		hot: s.hot ?? 0,
		since: s.since,
		retryAt: s.retryAt,
	};
}

export function writeState(state: TriggerState): StoredState {
	const open: StoredState['open'] = {};
	for (const [id, call] of state.open) open[id] = [call.rank, call.firstSeen, call.inProgress ? 1 : 0, call.misses];
	return {
		v: 2,
		scope: state.scope,
		top: state.top,
		...(state.head !== undefined ? { head: state.head } : {}),
		todo: state.todo.map(({ hi, lo, kind }) => [hi, lo, kind === 'new' ? 0 : 1]),
		open,
		sweep: state.sweep,
		hot: state.hot,
		since: state.since,
		...(state.retryAt !== undefined ? { retryAt: state.retryAt } : {}),
	};
}

export const kindOfRank = (todo: Range[], rank: number): RangeKind | undefined =>
	todo.find(({ hi, lo }) => rank <= hi && rank >= lo)?.kind;

/** `todo` without the ranks `lo..hi`, highest first. */
export function subtract(todo: Range[], hi: number, lo: number): Range[] {
	const out: Range[] = [];
	for (const range of todo) {
		if (range.lo > hi || range.hi < lo) {
			out.push(range);
			continue;
		}
		if (range.hi > hi) out.push({ hi: range.hi, lo: hi + 1, kind: range.kind });
		if (range.lo < lo) out.push({ hi: lo - 1, lo: range.lo, kind: range.kind });
	}
	return out.sort((a, b) => b.hi - a.hi);
}

/** Whether the trigger is still learning what existed at activation. */
export const isLearning = (state: TriggerState) => state.top < 0 || state.todo.some((r) => r.kind === 'history');
