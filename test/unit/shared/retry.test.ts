import { TestClock } from '../../helpers/clock';
import { NodeApiError } from 'n8n-workflow';
import type { INode } from 'n8n-workflow';
import { classifyFailure, WaitBudget, withRetries } from '../../../nodes/shared/retry';

const node = {
	id: '1',
	name: 'Unpod Task',
	type: 'n8n-nodes-unpod.unpodTask',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
} as INode;
const apiError = (httpCode: string, retryAfter?: number) => {
	const error = new NodeApiError(node, { message: 'x' }, { httpCode, message: `HTTP ${httpCode}` });
	if (retryAfter !== undefined) error.context.retryAfter = retryAfter;
	return error;
};
const networkError = (code: string) => new NodeApiError(node, Object.assign(new Error(code), { code }) as never);

describe('classifyFailure', () => {
	test('429 waits for Retry-After', () => {
		expect(classifyFailure(apiError('429', 7), false)).toEqual({ kind: 'rateLimited', waitMs: 7000 });
	});
	test('5xx and gateway pages are transient; 4xx and 206 are final', () => {
		expect(classifyFailure(apiError('502'), false).kind).toBe('transient');
		expect(classifyFailure(apiError('404'), true).kind).toBe('final');
		expect(classifyFailure(apiError('206'), true).kind).toBe('final');
	});
	test('an unreadable 2xx or a cut connection is ambiguous for a create, transient for a read', () => {
		expect(classifyFailure(apiError('200'), false).kind).toBe('ambiguous');
		expect(classifyFailure(apiError('200'), true).kind).toBe('transient');
		expect(classifyFailure(networkError('ECONNRESET'), false).kind).toBe('ambiguous');
		expect(classifyFailure(networkError('ECONNRESET'), true).kind).toBe('transient');
	});
	test('a refused connection sent nothing: transient even for a create', () => {
		expect(classifyFailure(networkError('ECONNREFUSED'), false).kind).toBe('transient');
	});
});

describe('withRetries', () => {
	test('waits out a 429 and a 503, then succeeds', async () => {
		const failures = [apiError('429', 0), apiError('503')];
		const budget = new WaitBudget(10_000);
		let calls = 0;
		const result = await withRetries(
			node,
			async () => {
				calls++;
				const next = failures.shift();
				if (next) throw next;
				return 'ok';
			},
			budget,
			true,
		);
		expect(result).toBe('ok');
		expect(calls).toBe(3);
		// Retry-After: 0 waits the 1 s floor, then the 503 backs off 1 s.
		expect(budget).toMatchObject({ rateLimited: 1, retried: 1, waitedMs: 2000 });
	});
	test('never retries an ambiguous create, and stops when the budget would be exceeded', async () => {
		let calls = 0;
		await expect(
			withRetries(
				node,
				async () => {
					calls++;
					throw networkError('ECONNRESET');
				},
				new WaitBudget(60_000),
				false,
			),
		).rejects.toBeInstanceOf(NodeApiError);
		expect(calls).toBe(1);
		const budget = new WaitBudget(5_000);
		await expect(
			withRetries(
				node,
				async () => {
					throw apiError('429', 30);
				},
				budget,
				false,
			),
		).rejects.toMatchObject({ httpCode: '429' });
		expect(budget.waitedMs).toBe(0);
	});
});

describe("waits: a floor, pacing from the plan limit, cancellation (on the test's clock)", () => {
	let clock: TestClock;
	beforeAll(() => (clock = TestClock.install()));
	afterAll(() => clock.uninstall());

	test('Retry-After: 0 still waits 1 s, and the wait counts against the budget', async () => {
		let calls = 0;
		const budget = new WaitBudget(5_000);
		const started = Date.now();
		const result = await clock.drive(
			withRetries(
				node,
				async () => {
					calls++;
					if (calls === 1) throw apiError('429', 0);
					return 'ok';
				},
				budget,
				false,
			),
		);
		expect(result).toBe('ok');
		expect(clock.elapsed(started)).toBe(1000);
		expect(budget.waitedMs).toBe(1000);
		// With no budget left, Retry-After: 0 does not make an immediate retry.
		let sent = 0;
		await expect(
			withRetries(
				node,
				async () => {
					sent++;
					throw apiError('429', 0);
				},
				new WaitBudget(500),
				false,
			),
		).rejects.toMatchObject({ httpCode: '429' });
		expect(sent).toBe(1);
	});

	test('a 429 naming the limit spaces the next requests to it', async () => {
		const budget = new WaitBudget(10_000);
		const limited = apiError('429', 1);
		limited.context.rateLimitPerMinute = 600; // one request every 100 ms
		let calls = 0;
		await clock.drive(
			withRetries(
				node,
				async () => {
					if (++calls === 1) throw limited;
				},
				budget,
				false,
			),
		);
		expect(budget.intervalMs).toBe(100);
		const sentAt: number[] = [];
		for (let i = 0; i < 5; i++)
			await clock.drive(withRetries(node, async () => void sentAt.push(Date.now()), budget, false));
		for (let i = 1; i < sentAt.length; i++) expect(sentAt[i] - sentAt[i - 1]).toBe(100);
	});

	test('a cancelled execution ends a wait at once and sends nothing more', async () => {
		const controller = new AbortController();
		const budget = new WaitBudget(300_000, controller.signal);
		let sent = 0;
		const started = Date.now();
		setTimeout(() => controller.abort(), 100);
		await expect(
			clock.drive(
				withRetries(
					node,
					async () => {
						sent++;
						throw apiError('429', 60);
					},
					budget,
					false,
				),
			),
		).rejects.toThrow('The execution was cancelled while waiting on Unpod');
		// The 60 s wait ended when the cancel came, 100 ms in.
		expect(clock.elapsed(started)).toBe(100);
		expect(sent).toBe(1);
		await expect(
			withRetries(
				node,
				async () => {
					sent++;
				},
				budget,
				false,
			),
		).rejects.toThrow(/cancelled/);
		expect(sent).toBe(1);
	});
});
