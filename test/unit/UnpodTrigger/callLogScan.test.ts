/** Call logs: the filters as Unpod reads them, Simplify, and the trigger's call-log scan over a fake list. */
import type { IDataObject } from 'n8n-workflow';
import { callLogQuery, simplifyCallLog, unpodDateTime } from '../../../nodes/shared/callLogs';
import type { FailureKind } from '../../../nodes/shared/retry';
import { pagesToRead, RECENT_IDS, scanCallLogs, takeNewRows } from '../../../nodes/UnpodTrigger/callLogScan';
import type { CallLogState } from '../../../nodes/UnpodTrigger/callLogScan';

describe('callLogQuery', () => {
	test("times go in Unpod's day-first form and are checked by the node, which Unpod does by date only", () => {
		const { qs, match } = callLogQuery({
			from: '2026-11-20T09:30:00Z',
			to: '2026-11-21T18:00:05.000Z',
		});
		// Both of Unpod's forms: the source's start_time / end_time, the 2026 docs' start_date / end_date.
		expect(qs).toEqual({
			start_time: '20-11-2026 09:30:00',
			end_time: '21-11-2026 18:00:05',
			start_date: '2026-11-20',
			end_date: '2026-11-21',
		});
		const row = (start: string, end: string) => ({ id: 1, start_time: start, end_time: end });
		expect(match!(row('2026-11-20T09:30:00.000000Z', '2026-11-20T09:31:00Z'))).toBe(true);
		// Same day as the filter, earlier time: Unpod lists it, the node does not keep it.
		expect(match!(row('2026-11-20T08:00:00Z', '2026-11-20T08:01:00Z'))).toBe(false);
		expect(match!(row('2026-11-21T17:59:00Z', '2026-11-21T18:00:06Z'))).toBe(false);
	});

	test('the other filters are sent as Unpod names them; a call id must be the id itself', () => {
		const { qs, match } = callLogQuery({
			direction: 'inbound',
			status: ' completed ',
			sourceNumber: '+1415',
			destinationNumber: '+4420',
			bridgeName: 'Main',
			callId: '391',
		});
		expect(qs).toEqual({
			call_type: 'inbound',
			call_status: 'completed',
			source_number: '+1415',
			destination_number: '+4420',
			bridge: 'Main',
			call_id: '391',
		});
		// Unpod's call_id matches any id containing it.
		expect(match!({ id: 391 })).toBe(true);
		expect(match!({ id: 39136 })).toBe(false);
		expect(callLogQuery({}).match).toBeUndefined();
	});

	test('a date given without a zone is UTC', () => {
		expect(unpodDateTime(Date.UTC(2026, 0, 5, 7, 8, 9))).toBe('05-01-2026 07:08:09');
		expect(callLogQuery({ from: '2026-01-05' }).qs).toEqual({
			start_time: '05-01-2026 00:00:00',
			start_date: '2026-01-05',
		});
	});
});

test('Simplify flattens related records to names, times to ISO, the duration to whole seconds', () => {
	expect(
		simplifyCallLog({
			id: 39136,
			call_status: 'completed',
			end_reason: 'Customer Ended The Call',
			call_type: 'inbound',
			organization: { id: 1, name: 'Acme' },
			product_id: 'unpod.dev',
			bridge: { id: 1, name: 'Main Line' },
			agent: { id: 573, name: 'Support Bot' },
			space: null,
			creation_time: '2025-11-30T18:31:35Z',
			start_time: '2025-11-30T18:30:24.041916Z',
			end_time: '2025-11-30T18:31:20.669045Z',
			call_duration: 56.627129,
			source_number: '+919876543210',
			destination_number: '911234567890',
		}),
	).toEqual({
		call_log_id: 39136,
		direction: 'inbound',
		status: 'completed',
		end_reason: 'Customer Ended The Call',
		source_number: '+919876543210',
		destination_number: '911234567890',
		start_time: '2025-11-30T18:30:24.041Z',
		end_time: '2025-11-30T18:31:20.669Z',
		duration: 57,
		agent: 'Support Bot',
		space: null,
		bridge: 'Main Line',
		logged: '2025-11-30T18:31:35.000Z',
	});
});

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
