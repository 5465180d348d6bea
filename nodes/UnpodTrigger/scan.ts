/**
 * One poll of the Unpod Trigger, as a pure function of the stored state and a page reader.
 *
 * A task is emitted once: when it is seen final after it was seen open, or when it was
 * created after a poll and is final when first seen. What existed at activation is history:
 * not emitted, unless it ended after activation began (or within `backfillMs`).
 */
import type { IDataObject } from 'n8n-workflow';
import { MAX_PAGE_SIZE } from '../shared/pagination';
import type { FetchPage, Page } from '../shared/pagination';
import { objectOf } from '../shared/values';
import { isFinal } from '../shared/tasks';
import { DAY_MS, platformTime } from '../shared/time';
import { freshState, isLearning, kindOfRank, readState, subtract, writeState } from './state';
import type { RangeKind, ScanOptions, ScanResult, TriggerState } from './state';

const redialled = (task: IDataObject) => Number(objectOf(task.input).redial_count) > 0;

/** A call still open a week after it was first seen is no longer watched. */
export const MAX_OPEN_AGE_MS = 7 * DAY_MS;
/** A watched task not found where it should be this many times is taken as deleted. */
const MAX_MISSES = 2;

/**
 * One poll, within `budget` requests: page 1 (new calls, often the first to end), then the
 * pages holding calls in progress, then ranks not read yet (new tasks, or what existed at
 * activation), then the other open calls in turn. It stops early on a failed read and keeps
 * what it read; the next poll goes on from there.
 */
export async function scanForTransitions(
	stored: unknown,
	fetchPage: FetchPage,
	options: ScanOptions,
): Promise<ScanResult> {
	const known = readState(stored, options.scope);
	if (known?.retryAt && known.retryAt > options.now) {
		return { state: writeState(known), emitted: [], requests: 0, skipped: true, learning: isLearning(known) };
	}
	const poll = new Poll(known ?? freshState(options.scope, options.now), fetchPage, options);
	await poll.run();
	return poll.result();
}

/** A poll's own working memory; the state it changes is what the next poll reads. */
class Poll {
	private readonly events: Set<string>;
	private readonly activating: boolean;
	private readonly historyEndsFrom: number;
	private readonly emitted: Array<{ rank: number; task: IDataObject }> = [];
	/** Where each watched task should be: a page read checks its own ranks, not every open call. */
	private readonly byRank = new Map<number, string>();
	/** Watched tasks whose rank another task now holds (a deletion shifted ranks). */
	private readonly displaced = new Set<string>();
	/** Tasks read in this poll. */
	private readonly seen = new Set<string>();
	/** The newest task at the previous read of page 1. */
	private previousHead?: string;
	/** The list's length at the last page read. */
	private count = 0;
	private requests = 0;
	private stopped?: ScanResult['stopped'];

	constructor(
		private readonly state: TriggerState,
		private readonly fetchPage: FetchPage,
		private readonly options: ScanOptions,
	) {
		this.events = new Set(options.events);
		this.activating = state.top < 0;
		this.historyEndsFrom = state.since - (options.backfillMs ?? 0);
		delete state.retryAt;
		for (const [id, call] of state.open) if (call.rank > 0) this.place(call.rank, id);
	}

	async run(): Promise<void> {
		if (!(await this.read(1))) return;
		await this.readCallsInProgress();
		await this.readRangesNotRead();
		if (!this.stopped && this.requests < this.options.budget) {
			this.state.sweep = await this.visit(this.openTargets(false), this.state.sweep, this.options.budget);
		}
	}

	result(): ScanResult {
		this.forgetCallsOpenTooLong();
		return {
			state: writeState(this.state),
			emitted: this.emitted.sort((a, b) => a.rank - b.rank).map((e) => e.task),
			requests: this.requests,
			skipped: false,
			stopped: this.stopped,
			learning: isLearning(this.state),
		};
	}

	/** Calls in progress end soonest: their pages come first, leaving half the budget to the rest when there is more. */
	private async readCallsInProgress(): Promise<void> {
		const { budget } = this.options;
		const more = this.state.todo.length > 0 || this.openTargets(false).length > 0;
		const until = more ? this.requests + Math.max(1, Math.ceil((budget - this.requests) / 2)) : budget;
		this.state.hot = await this.visit(this.openTargets(true), this.state.hot, until);
	}

	/** New tasks, and what existed at activation, from the highest rank down. */
	private async readRangesNotRead(): Promise<void> {
		while (this.state.todo.length && !this.stopped && this.requests < this.options.budget) {
			const before = JSON.stringify(this.state.todo);
			if (!(await this.read(this.pageOf(this.state.todo[0].hi)))) return;
			// A page that taught nothing (a list that shrank under us) would be read forever.
			if (JSON.stringify(this.state.todo) === before) return;
		}
	}

	/** Reads a page and takes in what it shows; false when the poll must stop. */
	private async read(page: number): Promise<boolean> {
		if (this.stopped || this.requests >= this.options.budget) return false;
		this.requests++;
		let result: Page;
		try {
			result = await this.fetchPage(page, MAX_PAGE_SIZE);
		} catch (error) {
			this.stop(error);
			return false;
		}
		const { data } = result;
		const base = (page - 1) * MAX_PAGE_SIZE;
		// Without a total, ranks are counted as if this were the last page.
		const total = typeof result.count === 'number' ? result.count : base + data.length;
		this.count = total;
		if (page === 1) this.startFromPageOne(total, data);
		this.takeInPage(page, total, data);
		return true;
	}

	private stop(error: unknown): void {
		const { kind, waitMs } = this.options.classify(error);
		this.stopped = { kind, error, waitMs };
		if (kind === 'rateLimited') this.state.retryAt = this.options.now + Math.max(1000, waitMs ?? 60_000);
	}

	/** Page 1 says how long the list is now: ranks above the last top are new tasks. */
	private startFromPageOne(total: number, data: IDataObject[]): void {
		const s = this.state;
		if (this.activating) {
			s.todo = [{ hi: total, lo: 1, kind: 'history' }];
		} else {
			if (total > s.top) s.todo.push({ hi: total, lo: s.top + 1, kind: 'new' });
			// Deletions can lower the count: nothing is left to read above it.
			s.todo = subtract(s.todo, Number.MAX_SAFE_INTEGER, total + 1);
		}
		s.top = total;
		this.previousHead = s.head;
		if (data.length) s.head = String(data[0].task_id ?? '');
	}

	private takeInPage(page: number, total: number, data: IDataObject[]): void {
		const base = (page - 1) * MAX_PAGE_SIZE;
		const hi = total - base;
		if (!data.length) {
			// Past the end: no rank at or below this page's top exists.
			this.state.todo = subtract(this.state.todo, hi, 1);
			return;
		}
		const lo = hi - data.length + 1;
		let aboveHead = page === 1 && !!this.previousHead && !this.activating;
		let oldestCreated: number | undefined;
		data.forEach((task, i) => {
			const id = String(task.task_id ?? '');
			if (page === 1 && id === this.previousHead) aboveHead = false;
			if (!id || this.seen.has(id)) return;
			this.seen.add(id);
			const created = platformTime(task.created);
			if (created !== undefined) oldestCreated = created;
			this.takeInTask(id, task, total - base - i, aboveHead);
		});
		this.countMisses(lo, hi);
		this.state.todo = subtract(this.state.todo, hi, lo);
		// What existed at activation is learned back one week: older open calls are not watched.
		if (oldestCreated !== undefined && oldestCreated < this.options.now - MAX_OPEN_AGE_MS) {
			this.state.todo = this.state.todo.filter((r) => r.kind !== 'history' || r.hi >= lo);
		}
	}

	private takeInTask(id: string, task: IDataObject, rank: number, aboveHead: boolean): void {
		const status = task.status;
		const watched = this.state.open.get(id);
		if (watched) {
			if (isFinal(status)) {
				this.state.open.delete(id);
				this.emitIfSelected(rank, task);
			} else {
				this.watch(id, rank, watched.firstSeen, status);
			}
			return;
		}
		const kind: RangeKind | undefined = aboveHead ? 'new' : kindOfRank(this.state.todo, rank);
		// An open call where everything was read before is watched again only if Unpod redials it
		// (Enable Callback schedules the same task anew, `input.redial_count` raised): its next
		// ending is a new one. Any other was let go (open too long) and stays so.
		if (kind === undefined && (isFinal(status) || !redialled(task))) return;
		if (!isFinal(status)) {
			const created = platformTime(task.created);
			if (created !== undefined && created < this.options.now - MAX_OPEN_AGE_MS) return;
			this.watch(id, rank, Math.floor(this.options.now / 1000), status);
			return;
		}
		const ended = platformTime(task.modified ?? task.last_status_change);
		if (kind === 'new' || (ended !== undefined && ended >= this.historyEndsFrom)) this.emitIfSelected(rank, task);
	}

	private emitIfSelected(rank: number, task: IDataObject): void {
		if (this.events.has(String(task.status))) this.emitted.push({ rank, task });
	}

	private watch(id: string, rank: number, firstSeen: number, status: unknown): void {
		this.state.open.set(id, { rank, firstSeen, inProgress: status === 'in_progress', misses: 0 });
		this.place(rank, id);
	}

	private place(rank: number, id: string): void {
		const before = this.byRank.get(rank);
		if (before !== undefined && before !== id) this.displaced.add(before);
		this.byRank.set(rank, id);
	}

	/** Watched tasks that should have been on the page of ranks `lo..hi` and were not. */
	private countMisses(lo: number, hi: number): void {
		const expected = new Set(this.displaced);
		for (let rank = lo; rank <= hi; rank++) {
			const id = this.byRank.get(rank);
			if (id !== undefined) expected.add(id);
		}
		for (const id of expected) {
			const call = this.state.open.get(id);
			if (!call || this.seen.has(id) || call.rank < lo || call.rank > hi) continue;
			call.misses += 1;
			if (call.misses >= MAX_MISSES) this.state.open.delete(id);
		}
	}

	private openTargets(inProgress: boolean): Array<[rank: number, id: string]> {
		return [...this.state.open]
			.filter(([, call]) => call.rank > 0 && call.inProgress === inProgress)
			.map(([id, call]) => [call.rank, id]);
	}

	private pageOf(rank: number): number {
		return Math.max(1, Math.floor((this.count - rank) / MAX_PAGE_SIZE) + 1);
	}

	/**
	 * Reads the page of each target rank not seen this poll, highest first, going on from below
	 * `cursor` and wrapping, until `until` requests were sent. Returns where to go on next time:
	 * below the last page read, or 0 (the top) after a whole round.
	 */
	private async visit(targets: Array<[rank: number, id: string]>, cursor: number, until: number): Promise<number> {
		const sorted = targets.sort((a, b) => b[0] - a[0]);
		const start = cursor > 0 ? sorted.findIndex(([rank]) => rank < cursor) : 0;
		const ordered = start > 0 ? [...sorted.slice(start), ...sorted.slice(0, start)] : sorted;
		let last = cursor;
		for (const [rank, id] of ordered) {
			if (this.seen.has(id) || !this.state.open.has(id)) continue;
			const page = this.pageOf(rank);
			if (this.requests >= until || !(await this.read(page))) return last;
			// The next poll goes on below the whole page just read, not from its next call.
			last = Math.max(1, this.count - page * MAX_PAGE_SIZE + 1);
		}
		// The whole round was read: the next one starts from the top.
		return 0;
	}

	private forgetCallsOpenTooLong(): void {
		for (const [id, call] of this.state.open) {
			if (call.firstSeen * 1000 < this.options.now - MAX_OPEN_AGE_MS) this.state.open.delete(id);
		}
	}
}
