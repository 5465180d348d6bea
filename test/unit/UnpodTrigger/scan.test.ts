/** The trigger's scan as a pure function over a fake task list (newest first, pages of 100). */
import type { IDataObject } from 'n8n-workflow';
import type { FailureKind } from '../../../nodes/shared/retry';
import type { FinalStatus } from '../../../nodes/shared/tasks';
import { scanForTransitions } from '../../../nodes/UnpodTrigger/scan';
import { readState } from '../../../nodes/UnpodTrigger/state';
import type { StoredState } from '../../../nodes/UnpodTrigger/state';

const iso = (ms: number) => new Date(ms).toISOString().slice(0, 23).replace('Z', '');

/** A task list as Unpod serves it, with failures to inject. */
class FakeList {
	tasks: IDataObject[] = []; // oldest first
	requests = 0;
	/** The pages read, in order. */
	pages: number[] = [];
	private failures: Array<{ kind: FailureKind; waitMs?: number; afterReads: number }> = [];
	private n = 0;
	clock = Date.UTC(2026, 10, 22, 12);

	add(count: number, status = 'pending'): IDataObject[] {
		const added = Array.from({ length: count }, () => {
			this.clock += 1;
			return {
				task_id: `T${String(this.n++).padStart(6, '0')}`,
				status,
				created: iso(this.clock),
				modified: iso(this.clock),
			};
		});
		this.tasks.push(...added);
		return added;
	}
	set(task: IDataObject, status: string): void {
		this.clock += 1;
		task.status = status;
		task.modified = iso(this.clock);
	}
	remove(task: IDataObject): void {
		this.tasks = this.tasks.filter((t) => t !== task);
	}
	failAfter(afterReads: number, kind: FailureKind, waitMs?: number): void {
		this.failures.push({ kind, waitMs, afterReads });
	}
	/** The page that holds `task` now. */
	pageOf(task: IDataObject, size = 100): number {
		return Math.floor([...this.tasks].reverse().indexOf(task) / size) + 1;
	}
	fetchPage = async (page: number, size: number) => {
		this.requests++;
		this.pages.push(page);
		const failure = this.failures[0];
		if (failure) {
			if (failure.afterReads === 0) {
				this.failures.shift();
				throw Object.assign(new Error(`injected ${failure.kind}`), { kind: failure.kind, waitMs: failure.waitMs });
			}
			failure.afterReads--;
		}
		const newestFirst = [...this.tasks].reverse();
		return { count: this.tasks.length, data: newestFirst.slice((page - 1) * size, page * size).map((t) => ({ ...t })) };
	};
}

const classify = (error: unknown) => {
	const e = error as { kind: FailureKind; waitMs?: number };
	return { kind: e.kind, waitMs: e.waitMs };
};

/** Polls like n8n: the state carried between polls, `now` moving on. */
class Trigger {
	state: unknown;
	polls = 0;
	counts = new Map<string, number>();
	maxRequests = 0;
	now = Date.UTC(2026, 10, 22, 13);
	constructor(
		private list: FakeList,
		private options: { budget?: number; events?: FinalStatus[]; backfillMs?: number } = {},
	) {}
	async poll(stepMs = 60_000) {
		this.now += stepMs;
		const before = this.list.requests;
		const result = await scanForTransitions(this.state, this.list.fetchPage, {
			scope: 'space:s',
			events: this.options.events ?? ['completed', 'failed'],
			now: this.now,
			budget: this.options.budget ?? 10,
			backfillMs: this.options.backfillMs,
			classify,
		});
		this.polls++;
		this.state = result.state;
		expect(this.list.requests - before).toBe(result.requests);
		this.maxRequests = Math.max(this.maxRequests, result.requests);
		for (const t of result.emitted) this.counts.set(String(t.task_id), (this.counts.get(String(t.task_id)) ?? 0) + 1);
		return { ...result, ids: result.emitted.map((t) => t.task_id) };
	}
	/** Polls until nothing is left to learn or read. */
	async settle(max = 50) {
		for (let i = 0; i < max; i++) {
			const r = await this.poll();
			if (!r.learning && !r.stopped && !r.skipped && r.requests < (this.options.budget ?? 10)) return;
		}
	}
	get s() {
		return this.state as StoredState;
	}
}

const onceEach = (t: Trigger) => [...t.counts.values()].every((c) => c === 1);

describe('the call lifecycle', () => {
	test('pending -> in_progress -> completed is emitted once, when it ends', async () => {
		const list = new FakeList();
		const [a] = list.add(1);
		const t = new Trigger(list);
		expect((await t.poll()).ids).toEqual([]);
		list.set(a, 'in_progress');
		expect((await t.poll()).ids).toEqual([]);
		expect(t.s.open[String(a.task_id)][2]).toBe(1);
		list.set(a, 'completed');
		expect((await t.poll()).ids).toEqual([a.task_id]);
		expect((await t.poll()).ids).toEqual([]);
	});

	test('an attempt that failed and went back to pending is not an end; the later end is', async () => {
		const list = new FakeList();
		const [a] = list.add(1);
		const t = new Trigger(list);
		await t.poll();
		list.set(a, 'in_progress');
		await t.poll();
		list.set(a, 'pending');
		expect((await t.poll()).ids).toEqual([]);
		list.set(a, 'in_progress');
		list.set(a, 'completed');
		expect((await t.poll()).ids).toEqual([a.task_id]);
	});

	test('scheduled -> in_progress -> failed, and a task first seen in progress', async () => {
		const list = new FakeList();
		const t = new Trigger(list);
		await t.poll();
		const [s] = list.add(1, 'scheduled');
		const [p] = list.add(1, 'in_progress');
		expect((await t.poll()).ids).toEqual([]);
		list.set(s, 'in_progress');
		await t.poll();
		list.set(s, 'failed');
		list.set(p, 'completed');
		expect((await t.poll()).ids).toEqual([s.task_id, p.task_id]);
	});

	test('partially completed is emitted only when selected; unknown statuses are open', async () => {
		const list = new FakeList();
		const [a, b] = list.add(2, 'queued_somewhere');
		const only = new Trigger(list, { events: ['completed'] });
		const all = new Trigger(list, { events: ['completed', 'failed', 'partially_completed'] });
		await only.poll();
		await all.poll();
		list.set(a, 'partially_completed');
		list.set(b, 'completed');
		expect((await only.poll()).ids).toEqual([b.task_id]);
		expect((await all.poll()).ids).toEqual([a.task_id, b.task_id]);
	});

	test('a call Unpod redials (the same task scheduled again after it ended) is emitted again when the redial ends', async () => {
		const list = new FakeList();
		const [a, neighbour] = list.add(2);
		const t = new Trigger(list);
		await t.poll();
		list.set(a, 'completed');
		expect((await t.poll()).ids).toEqual([a.task_id]);
		// Enable Callback: the dropped call is scheduled again two minutes later; its page is read for the neighbour.
		list.set(a, 'scheduled');
		a.input = { redial_count: 1 };
		expect((await t.poll()).ids).toEqual([]);
		list.set(a, 'in_progress');
		list.set(a, 'completed');
		list.set(neighbour, 'completed');
		expect((await t.poll()).ids).toEqual([a.task_id, neighbour.task_id]);
		expect(t.counts.get(String(a.task_id))).toBe(2);
		expect((await t.poll()).ids).toEqual([]);
	});

	test('a task created and ended between two polls is emitted', async () => {
		const list = new FakeList();
		list.add(5, 'completed');
		const t = new Trigger(list);
		await t.poll();
		const [fresh] = list.add(1, 'completed');
		expect((await t.poll()).ids).toEqual([fresh.task_id]);
	});
});

describe('bounded polls that resume', () => {
	test('1,500 open calls under 300 newer ended tasks, 5 requests a poll: every end arrives once, no poll over budget', async () => {
		const list = new FakeList();
		const open = list.add(1500);
		list.add(300, 'completed');
		const t = new Trigger(list, { budget: 5 });
		let activationPolls = 0;
		while ((await t.poll()).learning) activationPolls++;
		expect(t.counts.size).toBe(0);
		expect(Object.keys(t.s.open)).toHaveLength(1500);
		// The 20 oldest calls end.
		const oldest = open.slice(0, 20);
		oldest.forEach((task) => list.set(task, 'completed'));
		let polls = 0;
		while (oldest.some((task) => !t.counts.has(String(task.task_id)))) {
			await t.poll();
			polls++;
			expect(polls).toBeLessThan(10);
		}
		expect(t.maxRequests).toBeLessThanOrEqual(5);
		expect(onceEach(t)).toBe(true);
		// 15 pages of open calls at 5 a poll (page 1 included): about ceil(1500 / 100 / 5) polls.
		expect(polls).toBeLessThanOrEqual(Math.ceil(1500 / 100 / 5) + 1);
		expect(activationPolls).toBeGreaterThan(0);
	});

	test('calls in progress are re-read every poll, the others in turn', async () => {
		const list = new FakeList();
		const open = list.add(1000);
		const t = new Trigger(list, { budget: 4 });
		await t.settle();
		// The oldest call, on the last of 10 pages, is in progress; the others wait.
		list.set(open[0], 'in_progress');
		// Seen in progress once the sweep of open calls reaches its page.
		for (let i = 0; i < 6 && t.s.open[String(open[0].task_id)][2] !== 1; i++) await t.poll();
		expect(t.s.open[String(open[0].task_id)][2]).toBe(1);
		const hotPage = list.pageOf(open[0]);
		expect(hotPage).toBe(10);
		// One ordinary call ends on each of pages 2 to 9.
		const ending = [899, 799, 699, 599, 499, 399, 299, 199].map((i) => open[i]);
		ending.forEach((task) => list.set(task, 'completed'));
		const otherPages = new Set<number>();
		const seen: unknown[] = [];
		for (let i = 0; i < 5; i++) {
			list.pages = [];
			const r = await t.poll();
			seen.push(...r.ids);
			// Every poll: page 1, then the in-progress call's page, then others in turn.
			expect(list.pages.slice(0, 2)).toEqual([1, hotPage]);
			list.pages.slice(2).forEach((page) => otherPages.add(page));
		}
		// With 2 requests a poll left for them, the 8 other pages are read within 4 polls.
		expect([...otherPages].sort((a, b) => a - b)).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
		expect(seen.sort()).toEqual(ending.map((task) => task.task_id).sort());
		list.set(open[0], 'completed');
		const r = await t.poll();
		expect(r.ids).toEqual([open[0].task_id]);
	});

	test('a bulk import bigger than a poll reads is learned over several polls; its early ends are emitted', async () => {
		const list = new FakeList();
		const t = new Trigger(list, { budget: 3 });
		await t.poll();
		const imported = list.add(2000);
		list.set(imported[0], 'completed');
		list.set(imported[1999], 'failed');
		const seen: unknown[] = [];
		for (let i = 0; i < 12; i++) {
			const r = await t.poll();
			seen.push(...r.ids);
		}
		expect(seen.sort()).toEqual([imported[0].task_id, imported[1999].task_id].sort());
		expect(Object.keys(t.s.open)).toHaveLength(1998);
		expect(t.maxRequests).toBeLessThanOrEqual(3);
	});
});

describe('activation', () => {
	test('emits nothing from history, learns in several polls, and keeps ends that happen meanwhile', async () => {
		const list = new FakeList();
		const history = list.add(2000, 'completed');
		const open = list.add(500);
		const t = new Trigger(list, { budget: 4 });
		const first = await t.poll();
		expect(first.learning).toBe(true);
		expect(first.requests).toBe(4);
		// A call deep in the list ends while the trigger is still learning: an end, not history.
		t.now += 1;
		list.clock = t.now + 10;
		list.set(open[0], 'completed');
		await t.settle();
		expect(history).toHaveLength(2000);
		expect([...t.counts.keys()]).toEqual([open[0].task_id]);
		expect(t.maxRequests).toBeLessThanOrEqual(4);
	});

	test('a 429 or a 5xx during activation stops quietly and resumes', async () => {
		const list = new FakeList();
		list.add(800);
		const t = new Trigger(list, { budget: 10 });
		list.failAfter(3, 'rateLimited', 30_000);
		const r = await t.poll();
		expect(r.stopped?.kind).toBe('rateLimited');
		expect(t.s.retryAt).toBe(t.now + 30_000);
		const skipped = await t.poll(10_000);
		expect([skipped.skipped, skipped.requests]).toEqual([true, 0]);
		list.failAfter(1, 'transient');
		expect((await t.poll(30_000)).stopped?.kind).toBe('transient');
		await t.settle();
		expect(Object.keys(t.s.open)).toHaveLength(800);
	});

	test('the backfill option emits history that ended in the last hours', async () => {
		const list = new FakeList();
		const ended = list.add(3, 'completed');
		const t = new Trigger(list, { backfillMs: 48 * 3600 * 1000 });
		expect((await t.poll()).ids).toEqual(ended.map((x) => x.task_id));
	});
});

describe('failures and state', () => {
	test('a 429 mid-scan keeps what was read; no end is lost or emitted twice', async () => {
		const list = new FakeList();
		const open = list.add(900);
		const t = new Trigger(list, { budget: 10 });
		await t.settle();
		open.forEach((task, i) => i % 3 === 0 && list.set(task, 'completed'));
		list.failAfter(4, 'rateLimited', 5_000);
		const stopped = await t.poll();
		expect(stopped.stopped?.kind).toBe('rateLimited');
		expect(stopped.ids.length).toBeGreaterThan(0);
		await t.settle();
		expect(t.counts.size).toBe(300);
		expect(onceEach(t)).toBe(true);
	});

	test('a failure that waiting will not heal is reported as final', async () => {
		const list = new FakeList();
		list.add(3);
		list.failAfter(0, 'final');
		const t = new Trigger(list);
		expect((await t.poll()).stopped?.kind).toBe('final');
	});

	test('a task deleted between page reads is dropped; the others still end once', async () => {
		const list = new FakeList();
		const open = list.add(250);
		const t = new Trigger(list, { budget: 10 });
		await t.settle();
		list.remove(open[10]);
		open.slice(100, 110).forEach((task) => list.set(task, 'completed'));
		for (let i = 0; i < 4; i++) await t.poll();
		expect(t.s.open[String(open[10].task_id)]).toBeUndefined();
		expect(t.counts.size).toBe(10);
		expect(onceEach(t)).toBe(true);
	});

	test('after a restart from an older state (n8n saves it only when a poll emits) each end is emitted once', async () => {
		const list = new FakeList();
		const open = list.add(600);
		const t = new Trigger(list, { budget: 3 });
		await t.settle();
		let saved = JSON.stringify(t.state);
		for (let round = 0; round < 6; round++) {
			open.slice(round * 50, round * 50 + 20).forEach((task) => list.set(task, 'completed'));
			list.add(30);
			const r = await t.poll();
			if (r.emitted.length) saved = JSON.stringify(t.state);
			// A restart every other round: back to what n8n last saved.
			if (round % 2 === 1) t.state = JSON.parse(saved);
		}
		await t.settle();
		expect(t.counts.size).toBe(120);
		expect(onceEach(t)).toBe(true);
	});

	test('an unreadable or foreign state re-learns without emitting', async () => {
		const list = new FakeList();
		list.add(20, 'completed');
		for (const bad of [
			{ v: 9 },
			'garbage',
			{ v: 2, scope: 'space:s', top: 'x' },
			{ v: 2, scope: 'space:other', top: 1, todo: [], open: {}, sweep: 0, since: 0 },
			// Version 1 of the state existed only before the first release: it is learned afresh.
			{ v: 1, scope: 'space:s', anchors: ['T000001'], pending: { T000002: 0 } },
		]) {
			const t = new Trigger(list);
			t.state = bad;
			expect((await t.poll()).ids).toEqual([]);
			expect(readState(bad, 'space:s')).toBeUndefined();
		}
	});

	test('a damaged entry of a stored state is dropped, the rest is read', () => {
		const state = readState(
			{ v: 2, scope: 'space:s', top: 3, todo: [[3, 2, 1], 'x'], open: { a: 5, b: [3, 0, 1, 0] }, sweep: 0, since: 0 },
			'space:s',
		);
		expect(state?.todo).toEqual([{ hi: 3, lo: 2, kind: 'history' }]);
		expect([...(state?.open ?? new Map())]).toEqual([['b', { rank: 3, firstSeen: 0, inProgress: true, misses: 0 }]]);
	});

	test('the state is bounded: under 100 bytes per open call, nothing per emitted call', async () => {
		const list = new FakeList();
		const open = list.add(5000);
		const t = new Trigger(list, { budget: 100 });
		await t.settle();
		const withOpen = JSON.stringify(t.state).length;
		expect(withOpen / 5000).toBeLessThan(100);
		open.forEach((task) => list.set(task, 'completed'));
		await t.settle();
		expect(t.counts.size).toBe(5000);
		expect(JSON.stringify(t.state).length).toBeLessThan(400);
	});
});
