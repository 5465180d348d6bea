/** The Unpod Trigger's call-log scan over a fake list: what each poll reads and emits. */
import type { IDataObject } from 'n8n-workflow';
import type { FailureKind } from '../../../nodes/shared/retry';
import { pagesToRead, RECENT_IDS, scanCallLogs, takeNewRows } from '../../../nodes/UnpodTrigger/callLogScan';
import type { CallLogState } from '../../../nodes/UnpodTrigger/callLogScan';

/** A call log as Unpod serves it: newest first, pages of 100, failures to inject. */
class FakeLog {
	rows: IDataObject[] = []; // oldest first
	pages: number[] = [];
	failOn?: { page: number; kind: FailureKind; waitMs?: number };
	private nextId = 500;
	add(count: number): IDataObject[] {
		const added = Array.from({ length: count }, () => ({ id: this.nextId++ }));
		this.rows.push(...added);
		return added;
	}
	fetch = async (page: number, pageSize: number) => {
		this.pages.push(page);
		if (this.failOn?.page === page) {
			const failure = this.failOn;
			this.failOn = undefined;
			throw failure;
		}
		const newest = [...this.rows].reverse();
		return { count: this.rows.length, data: newest.slice((page - 1) * pageSize, page * pageSize) };
	};
}

const options = (budget = 10) => ({
	scope: 'callLog:all',
	now: 1_000_000,
	budget,
	classify: (error: unknown) => error as { kind: FailureKind; waitMs?: number },
});
const ids = (rows: IDataObject[]) => rows.map((r) => r.id);

describe('scanCallLogs', () => {
	test('activation only learns what exists; later rows are emitted once each, oldest first', async () => {
		const log = new FakeLog();
		log.add(30);
		const first = await scanCallLogs(undefined, log.fetch, options());
		expect(first.emitted).toEqual([]);
		expect(first.state).toMatchObject({ top: 30, floor: 529, recent: [] });
		const fresh = log.add(3);
		const second = await scanCallLogs(first.state, log.fetch, options());
		expect(ids(second.emitted)).toEqual(ids(fresh));
		expect(second.requests).toBe(1);
		const third = await scanCallLogs(second.state, log.fetch, options());
		expect(third.emitted).toEqual([]);
	});

	test('a burst larger than a page is read from its oldest page up; a small budget goes on at the next poll', async () => {
		const log = new FakeLog();
		log.add(5);
		let state: unknown = (await scanCallLogs(undefined, log.fetch, options())).state;
		const burst = log.add(350);
		log.pages = [];
		const first = await scanCallLogs(state, log.fetch, options(3));
		// Page 1 for the count, then pages 4 and 3 (the oldest 200 new rows, with 5 old ones).
		expect(log.pages).toEqual([1, 4, 3]);
		expect(ids(first.emitted)).toEqual(ids(burst.slice(0, 150)));
		state = first.state;
		const second = await scanCallLogs(state, log.fetch, options(3));
		expect(ids(second.emitted)).toEqual(ids(burst.slice(150)));
		expect(new Set([...ids(first.emitted), ...ids(second.emitted)]).size).toBe(350);
	});

	test('a failed read keeps what came before; a 429 skips polls until Retry-After', async () => {
		const log = new FakeLog();
		log.add(2);
		const start = await scanCallLogs(undefined, log.fetch, options());
		const burst = log.add(250);
		log.failOn = { page: 2, kind: 'transient' };
		const broken = await scanCallLogs(start.state, log.fetch, options());
		expect(broken.stopped?.kind).toBe('transient');
		// Page 3 (2 old rows, the 50 oldest new ones) was read before page 2 failed.
		expect(ids(broken.emitted)).toEqual(ids(burst.slice(0, 50)));
		log.failOn = { page: 1, kind: 'rateLimited', waitMs: 30_000 };
		const limited = await scanCallLogs(broken.state, log.fetch, options());
		expect(limited.state.retryAt).toBe(1_000_000 + 30_000);
		const skipped = await scanCallLogs(limited.state, log.fetch, options());
		expect(skipped).toMatchObject({ skipped: true, requests: 0 });
		const after = await scanCallLogs(limited.state, log.fetch, { ...options(), now: 1_000_000 + 30_001 });
		expect(ids(after.emitted)).toEqual(ids(burst.slice(50)));
	});

	test('an activation whose first read failed starts again; another direction starts afresh', async () => {
		const log = new FakeLog();
		log.add(4);
		log.failOn = { page: 1, kind: 'transient' };
		const failed = await scanCallLogs(undefined, log.fetch, options());
		const again = await scanCallLogs(failed.state, log.fetch, options());
		expect(again.emitted).toEqual([]);
		expect(again.state.top).toBe(4);
		log.add(1);
		const other = await scanCallLogs(again.state, log.fetch, { ...options(), scope: 'callLog:inbound' });
		expect(other.emitted).toEqual([]);
	});
});

test('pagesToRead: the pages after the first holding new rows, oldest first', () => {
	expect(pagesToRead(120, 100)).toEqual([]);
	expect(pagesToRead(350, 5)).toEqual([4, 3, 2]);
	expect(pagesToRead(80, 100)).toEqual([]);
});

test('takeNewRows keeps at most RECENT_IDS ids, raising the floor past the oldest', () => {
	const state: CallLogState = { v: 1, scope: 's', top: 0, floor: 10, recent: [] };
	const rows = Array.from({ length: RECENT_IDS + 5 }, (_, i) => ({ id: 11 + i }));
	expect(takeNewRows(state, rows)).toHaveLength(RECENT_IDS + 5);
	expect(state.recent).toHaveLength(RECENT_IDS);
	expect(state.floor).toBe(15);
	expect(takeNewRows(state, [{ id: 12 }, { id: 20 }, { id: 9999 }])).toEqual([{ id: 9999 }]);
});
