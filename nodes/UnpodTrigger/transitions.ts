import type { IDataObject } from 'n8n-workflow';
import { MAX_PAGE_SIZE } from '../shared/pagination';
import type { FetchPage } from '../shared/pagination';
import { platformTime } from '../shared/time';

export type FinalStatus = 'completed' | 'failed' | 'partially_completed';

/**
 * What the trigger remembers between polls. Its size is bounded by the number of calls
 * pending (at most `MAX_PENDING_AGE_MS` old) plus a few anchors: it does not grow with
 * the number of tasks emitted.
 */
export interface TriggerState {
	v: 1;
	/** What is watched (`space:<token>` or `agent:<handle>`); another scope starts afresh. */
	scope: string;
	/** The newest task ids of the last poll: tasks above them in the list are new. */
	anchors: string[];
	/** Tasks seen pending: id -> when first seen (epoch ms). */
	pending: Record<string, number>;
}

/** A call still pending a week after it was first seen is no longer watched. */
export const MAX_PENDING_AGE_MS = 7 * 24 * 3600 * 1000;
const ANCHORS = 5;

export interface ScanOptions {
	scope: string;
	events: FinalStatus[];
	now: number;
	/** On the first poll, also emit tasks that ended this recently (ms); 0 emits nothing. */
	backfillMs?: number;
}

export interface ScanResult {
	state: TriggerState;
	/** Tasks that reached a selected final status, oldest first. */
	emitted: IDataObject[];
	requests: number;
	/** Whether the poll walked the whole list (first poll, unexpected order, a vanished task). */
	fullScan: boolean;
}

/**
 * Final task states. Every other status (pending, scheduled, in_progress, processing, hold,
 * and any the node does not know) is open: the call may still end. A failed attempt goes
 * back to pending, so it is not an ending.
 */
const FINAL = ['completed', 'failed', 'partially_completed'];
const isFinal = (status: unknown): status is FinalStatus => FINAL.includes(String(status));

/**
 * One poll: walks the list (newest first) only as far as anything can have changed: past
 * the newest tasks of the last poll and the oldest pending task it tracks. A task is emitted
 * when it was pending at the last poll and is now final, or when it appeared and ended
 * between two polls. Nothing is emitted on the first poll (unless `backfillMs`).
 * Throws when a page cannot be read; the caller keeps the old state then.
 */
export async function scanForTransitions(
	previous: TriggerState | undefined,
	fetchPage: FetchPage,
	options: ScanOptions,
): Promise<ScanResult> {
	const seeding = !previous || previous.scope !== options.scope;
	const pending = seeding ? {} : previous.pending;
	const anchors = new Set(seeding ? [] : previous.anchors);
	const events = new Set(options.events);
	const toFind = new Set(Object.keys(pending));
	const seen = new Set<string>();
	const nextPending: Record<string, number> = {};
	const newAnchors: string[] = [];
	// In list order (newest first); `above` ones count only if an anchor turns up below them.
	const candidates: Array<{ task: IDataObject; above: boolean }> = [];
	const oldestTracked = options.now - MAX_PENDING_AGE_MS;

	let passedAnchor = false;
	let inOrder = true;
	let lastCreated: number | undefined;
	let requests = 0;
	let reachedEnd = false;
	let received = 0;

	for (let page = 1; ; page++) {
		const { count, data } = await fetchPage(page, MAX_PAGE_SIZE);
		requests++;
		received += data.length;
		let pastPendingAge = false;
		for (const task of data) {
			const id = String(task.task_id ?? '');
			if (!id || seen.has(id)) continue;
			seen.add(id);
			if (newAnchors.length < ANCHORS) newAnchors.push(id);
			if (anchors.has(id)) passedAnchor = true;
			const created = platformTime(task.created);
			if (created !== undefined) {
				if (lastCreated !== undefined && created > lastCreated) inOrder = false;
				lastCreated = created;
				if (created < oldestTracked) pastPendingAge = true;
			}
			toFind.delete(id);
			if (!isFinal(task.status)) {
				// Below the anchors, an untracked open call is one that aged out: it stays out.
				if (seeding || id in pending || !passedAnchor) nextPending[id] = pending[id] ?? options.now;
				continue;
			}
			if (!isFinal(task.status) || !events.has(task.status)) continue;
			if (seeding) {
				const ended = platformTime(task.modified ?? task.last_status_change);
				if (options.backfillMs && ended !== undefined && ended >= options.now - options.backfillMs) {
					candidates.push({ task, above: false });
				}
			} else if (id in pending) {
				candidates.push({ task, above: false });
			} else if (!passedAnchor) {
				candidates.push({ task, above: true });
			}
		}
		if (data.length === 0 || (typeof count === 'number' ? received >= count : data.length < MAX_PAGE_SIZE)) {
			reachedEnd = true;
			break;
		}
		// Older pages cannot hold anything that changed, unless the order is not what the API promises.
		if (!seeding && inOrder && passedAnchor && toFind.size === 0) break;
		if (seeding && inOrder && pastPendingAge) break;
	}

	// Tasks above the anchors are new only if an anchor was found: if every anchor vanished,
	// there is no telling new from old, and nothing is emitted on that ground.
	const isNewKnown = passedAnchor || anchors.size === 0;
	const emitted = candidates.filter((c) => !c.above || isNewKnown).map((c) => c.task);
	for (const [id, firstSeen] of Object.entries(pending)) {
		// Pending tasks not reached on an early stop are still pending; gone after a full walk.
		if (!seen.has(id) && !reachedEnd) nextPending[id] = firstSeen;
	}
	for (const [id, firstSeen] of Object.entries(nextPending)) {
		if (firstSeen < oldestTracked) delete nextPending[id];
	}
	return {
		state: { v: 1, scope: options.scope, anchors: newAnchors, pending: nextPending },
		emitted: emitted.reverse(),
		requests,
		fullScan: reachedEnd,
	};
}
