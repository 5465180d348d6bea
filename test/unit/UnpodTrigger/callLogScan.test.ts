/** The Unpod Trigger's call-log scan over a fake list: what each poll reads and emits. */
import type { IDataObject } from 'n8n-workflow';
import type { FailureKind } from '../../../nodes/shared/retry';
import {
	advanceCursor,
	isNewRecord,
	MAX_TIED_IDS,
	pagesNewestFirst,
	scanCallLogs,
	servedPageSize,
} from '../../../nodes/UnpodTrigger/callLogScan';
import type { CallLogScanOptions } from '../../../nodes/UnpodTrigger/callLogScan';

const T0 = Date.UTC(2026, 6, 1, 12, 0, 0);
const at = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** A call log as Unpod serves it: newest logged first, whole seconds, pages of 100, failures to inject. */
class FakeLog {
	rows: IDataObject[] = []; // oldest first
	pages: number[] = [];
	failOn?: { page: number; kind: FailureKind; waitMs?: number };
	/** Called before each page is answered (records arriving while a poll reads). */
	beforeAnswer?: (page: number) => void;
	withCount = true;
	/** The largest page the list serves, whatever page_size asks (a deployment may cap it). */
	maxPageSize = Number.POSITIVE_INFINITY;
	private nextId = 500;
	private second = 0;
	/** `count` records, each logged a second after the last unless `sameSecond`. */
	add(count: number, sameSecond = false): IDataObject[] {
		const added = Array.from({ length: count }, (_, i) => {
			if (!sameSecond || i === 0) this.second++;
			return { id: this.nextId++, creation_time: at(T0 + this.second * 1000) };
		});
		this.rows.push(...added);
		return added;
	}
	fetch = async (page: number, pageSize: number) => {
		this.pages.push(page);
		this.beforeAnswer?.(page);
		if (this.failOn?.page === page) {
			const failure = this.failOn;
			this.failOn = undefined;
			throw failure;
		}
		const newest = [...this.rows].reverse();
		const size = Math.min(pageSize, this.maxPageSize);
		const data = newest.slice((page - 1) * size, page * size);
		return this.withCount ? { count: this.rows.length, data } : { data };
	};
}

const options = (budget = 10): CallLogScanOptions => ({
	scope: 'callLog:all',
	now: 1_000_000,
	budget,
	classify: (error: unknown) => error as { kind: FailureKind; waitMs?: number },
});
const ids = (rows: IDataObject[]) => rows.map((r) => r.id);

/** `times` polls in a row, each from the state the one before left: the ids they emitted, and that state. */
async function pollTimes(times: number, state: unknown, log: FakeLog, budget: number) {
	const received: unknown[] = [];
	for (let poll = 0; poll < times; poll++) {
		const result = await scanCallLogs(state, log.fetch, options(budget));
		received.push(...ids(result.emitted));
		state = result.state;
	}
	return { received, state };
}

describe('scanCallLogs', () => {
	test('activation only learns the cursor; later records are emitted once each, oldest first, one request a poll', async () => {
		const log = new FakeLog();
		const history = log.add(30);
		const first = await scanCallLogs(undefined, log.fetch, options());
		expect(first.emitted).toEqual([]);
		expect(first.state).toMatchObject({ v: 2, top: 30, cursor: { id: 529, atTime: [529] } });
		expect(first.state.cursor.time).toBe(Date.parse(String(history[29].creation_time)));
		const fresh = log.add(3);
		log.pages = [];
		const second = await scanCallLogs(first.state, log.fetch, options());
		expect(ids(second.emitted)).toEqual(ids(fresh));
		expect(log.pages).toEqual([1]);
		const third = await scanCallLogs(second.state, log.fetch, options());
		expect(third.emitted).toEqual([]);
	});

	test('records logged in the same second as the newest seen are new by their ids, and none is emitted twice', async () => {
		const log = new FakeLog();
		log.add(5);
		let state: unknown = (await scanCallLogs(undefined, log.fetch, options())).state;
		const tied = log.add(3, true);
		const a = await scanCallLogs(state, log.fetch, options());
		expect(ids(a.emitted)).toEqual(ids(tied));
		state = a.state;
		// Two more in that very second: the list puts them above the three.
		const rows = log.rows;
		const second = rows[rows.length - 1].creation_time;
		const more = [
			{ id: 900, creation_time: second },
			{ id: 901, creation_time: second },
		];
		rows.push(...more);
		const b = await scanCallLogs(state, log.fetch, options());
		expect(ids(b.emitted)).toEqual([900, 901]);
		expect((await scanCallLogs(b.state, log.fetch, options())).emitted).toEqual([]);
	});

	test('several polls with records arriving between them: every record once, in order, nothing lost', async () => {
		const log = new FakeLog();
		log.add(40);
		let state: unknown = (await scanCallLogs(undefined, log.fetch, options())).state;
		const expected: unknown[] = [];
		const received: unknown[] = [];
		for (const burst of [1, 0, 7, 150, 3, 99, 100, 101, 2]) {
			expected.push(...ids(log.add(burst, burst % 2 === 1)));
			const result = await scanCallLogs(state, log.fetch, options());
			received.push(...ids(result.emitted));
			state = result.state;
		}
		expect(received).toEqual(expected);
	});

	test('a burst larger than a poll reads newest first is read from its oldest page up; the next poll goes on', async () => {
		const log = new FakeLog();
		log.add(5);
		let state: unknown = (await scanCallLogs(undefined, log.fetch, options())).state;
		const burst = log.add(350);
		log.pages = [];
		const first = await scanCallLogs(state, log.fetch, options(3));
		// Page 1 for the count, then pages 4 and 3 (the oldest 200 new records, with 5 old ones).
		expect(log.pages).toEqual([1, 4, 3]);
		expect(ids(first.emitted)).toEqual(ids(burst.slice(0, 150)));
		state = first.state;
		log.pages = [];
		const second = await scanCallLogs(state, log.fetch, options(3));
		// 200 left: pages 1 to 3, newest first, down to the page holding the first record seen.
		expect(log.pages).toEqual([1, 2, 3]);
		expect(ids(second.emitted)).toEqual(ids(burst.slice(150)));
	});

	test('records logged while a catch-up reads move its pages: it asks again, and loses none', async () => {
		const log = new FakeLog();
		log.add(5);
		const start = (await scanCallLogs(undefined, log.fetch, options())).state;
		const burst = log.add(450);
		const late: IDataObject[] = [];
		log.beforeAnswer = (page) => {
			if (page === 5 && !late.length) late.push(...log.add(60));
		};
		log.pages = [];
		const first = await scanCallLogs(start, log.fetch, options(3));
		// Page 5 held the oldest new records; 60 came while it was read, so they moved to page 6: asked again.
		expect(late).toHaveLength(60);
		expect(log.pages).toEqual([1, 5, 6]);
		const { received } = await pollTimes(4, first.state, log, 3);
		expect([...ids(first.emitted), ...received]).toEqual([...ids(burst), ...ids(late)]);
	});

	test('records logged while a poll reads newest first push rows of page 1 onto page 2: each is emitted once, oldest first', async () => {
		const log = new FakeLog();
		log.add(10);
		const start = await scanCallLogs(undefined, log.fetch, options());
		const burst = log.add(150);
		const late: IDataObject[] = [];
		log.beforeAnswer = (page) => {
			if (page === 2 && !late.length) late.push(...log.add(3));
		};
		log.pages = [];
		const first = await scanCallLogs(start.state, log.fetch, options());
		expect(log.pages).toEqual([1, 2]);
		expect(ids(first.emitted)).toEqual(ids(burst));
		const second = await scanCallLogs(first.state, log.fetch, options());
		expect(ids(second.emitted)).toEqual(ids(late));
	});

	test('a list serving pages of 20 whatever page_size asks: its count, not a short page, says where it ends', async () => {
		const log = new FakeLog();
		log.maxPageSize = 20;
		log.add(5);
		let state: unknown = (await scanCallLogs(undefined, log.fetch, options(3))).state;
		// 50 new: three pages of 20 newest first, down to the page holding the first record seen.
		const fifty = log.add(50);
		log.pages = [];
		const first = await scanCallLogs(state, log.fetch, options(3));
		expect(log.pages).toEqual([1, 2, 3]);
		expect(ids(first.emitted)).toEqual(ids(fifty));
		state = first.state;
		// 100 new: more than three pages of 20 read newest first, so from the oldest page of 20 up.
		const hundred = log.add(100);
		log.pages = [];
		const received: unknown[] = [];
		const catchUp = await scanCallLogs(state, log.fetch, options(3));
		expect(log.pages).toEqual([1, 5, 4]);
		received.push(...ids(catchUp.emitted));
		state = catchUp.state;
		const more = log.add(7, true);
		received.push(...(await pollTimes(4, state, log, 3)).received);
		expect(received).toEqual([...ids(hundred), ...ids(more)]);
	});

	test('a failed read emits nothing of that poll, which the next reads again; a 429 skips polls until Retry-After', async () => {
		const log = new FakeLog();
		log.add(120);
		const start = await scanCallLogs(undefined, log.fetch, options());
		const burst = log.add(150);
		log.failOn = { page: 2, kind: 'transient' };
		const broken = await scanCallLogs(start.state, log.fetch, options());
		expect(broken.stopped?.kind).toBe('transient');
		expect(broken.emitted).toEqual([]);
		log.failOn = { page: 1, kind: 'rateLimited', waitMs: 30_000 };
		const limited = await scanCallLogs(broken.state, log.fetch, options());
		expect(limited.state.retryAt).toBe(1_000_000 + 30_000);
		const skipped = await scanCallLogs(limited.state, log.fetch, options());
		expect(skipped).toMatchObject({ skipped: true, requests: 0 });
		const after = await scanCallLogs(limited.state, log.fetch, { ...options(), now: 1_000_000 + 30_001 });
		expect(ids(after.emitted)).toEqual(ids(burst));
	});

	test('without a count, a burst past the bound gives the newest it read and says the older were skipped', async () => {
		const log = new FakeLog();
		log.withCount = false;
		log.add(10);
		const start = await scanCallLogs(undefined, log.fetch, options());
		const burst = log.add(250);
		log.pages = [];
		const result = await scanCallLogs(start.state, log.fetch, options(2));
		expect(log.pages).toEqual([1, 2]);
		expect(result.skippedPast).toBe(true);
		expect(ids(result.emitted)).toEqual(ids(burst.slice(50)));
		expect((await scanCallLogs(result.state, log.fetch, options(2))).emitted).toEqual([]);
	});

	test('an activation whose first read failed starts again; another direction or another path starts afresh', async () => {
		const log = new FakeLog();
		log.add(4);
		log.failOn = { page: 1, kind: 'transient' };
		const failed = await scanCallLogs(undefined, log.fetch, options());
		const again = await scanCallLogs(failed.state, log.fetch, { ...options(), servedPath: () => '/cdr/' });
		expect(again.emitted).toEqual([]);
		expect(again.state).toMatchObject({ top: 4, path: '/cdr/' });
		log.add(1);
		const other = await scanCallLogs(again.state, log.fetch, { ...options(), scope: 'callLog:inbound' });
		expect(other.emitted).toEqual([]);
		log.add(1);
		const moved = await scanCallLogs(other.state, log.fetch, { ...options(), servedPath: () => '/call-logs/' });
		expect(moved.emitted).toEqual([]);
		expect(moved.state.path).toBe('/call-logs/');
	});
});

describe('the cursor', () => {
	const cursor = { id: 600, time: T0, atTime: [598, 600] };
	test('new: a higher id, a later time, or the same time under an id not seen at it', () => {
		expect(isNewRecord(cursor, { id: 601, creation_time: at(T0 - 60_000) })).toBe(true);
		expect(isNewRecord(cursor, { id: 400, creation_time: at(T0 + 1000) })).toBe(true);
		expect(isNewRecord(cursor, { id: 599, creation_time: at(T0) })).toBe(true);
		expect(isNewRecord(cursor, { id: 598, creation_time: at(T0) })).toBe(false);
		expect(isNewRecord(cursor, { id: 500, creation_time: at(T0 - 1000) })).toBe(false);
		// No creation_time: the end time; no time at all: the id alone.
		expect(isNewRecord(cursor, { id: 500, end_time: at(T0 + 1000) })).toBe(true);
		expect(isNewRecord(cursor, { id: 500 })).toBe(false);
	});

	test('moves to the highest id and the newest time, keeping the ids at it', () => {
		const next = advanceCursor(cursor, [
			{ id: 601, creation_time: at(T0) },
			{ id: 602, creation_time: at(T0 + 1000) },
			{ id: 603, creation_time: at(T0 + 1000) },
		]);
		expect(next).toEqual({ id: 603, time: T0 + 1000, atTime: [602, 603] });
		const many = Array.from({ length: MAX_TIED_IDS + 3 }, (_, i) => ({ id: 1000 + i, creation_time: at(T0 + 5000) }));
		expect(advanceCursor(next, many).atTime).toHaveLength(MAX_TIED_IDS);
	});
});

test('pagesNewestFirst: down to the page holding the first record seen, or the last page of a list that had none', () => {
	expect(pagesNewestFirst(0, 30)).toBe(1);
	expect(pagesNewestFirst(99, 30)).toBe(1);
	expect(pagesNewestFirst(100, 30)).toBe(2);
	expect(pagesNewestFirst(350, 5)).toBe(4);
	expect(pagesNewestFirst(250, 0)).toBe(3);
	expect(pagesNewestFirst(0, 0)).toBe(1);
	expect(pagesNewestFirst(50, 5, 20)).toBe(3);
	expect(pagesNewestFirst(100, 55, 20)).toBe(6);
});

test('servedPageSize: what page 1 held when it held fewer than asked and the count says more, else the size asked', () => {
	const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ id: i }));
	expect(servedPageSize({ count: 150, data: rows(20) })).toBe(20);
	expect(servedPageSize({ count: 20, data: rows(20) })).toBe(100);
	expect(servedPageSize({ data: rows(20) })).toBe(100);
	expect(servedPageSize({ count: 150, data: rows(100) })).toBe(100);
	expect(servedPageSize({ count: 150, data: [] })).toBe(100);
});
