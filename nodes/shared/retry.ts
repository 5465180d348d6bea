import { NodeOperationError, sleep, sleepWithAbort } from 'n8n-workflow';
import type { IDataObject, INode } from 'n8n-workflow';
import { asNodeError, httpStatusOf } from './errors';

/**
 * How a failed request may go on:
 * - `rateLimited`: Unpod refused it (429); wait `waitMs` and send it again.
 * - `transient`: a 5xx, a gateway page, or no connection at all; nothing was done, so
 *   it may be sent again after a pause.
 * - `ambiguous`: the request may have been carried out (the connection dropped after it
 *   was sent, or a 2xx answer could not be read); sending it again could do it twice.
 * - `final`: Unpod answered; sending the same request again would get the same answer.
 */
export type FailureKind = 'rateLimited' | 'transient' | 'ambiguous' | 'final';

const NOT_SENT = ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH'];
const CUT_OFF = ['ECONNRESET', 'ETIMEDOUT', 'ECONNABORTED', 'EPIPE', 'ESOCKETTIMEDOUT', 'ERR_STREAM_PREMATURE_CLOSE'];

type ErrorLike = { code?: unknown; httpCode?: unknown; cause?: unknown; errorResponse?: unknown; message?: unknown };

/** The system error code of a failed connection, wherever n8n's error wrapping put it. */
function networkCode(error: unknown): string | undefined {
	let current = error as ErrorLike | undefined;
	for (let depth = 0; current && depth < 4; depth++) {
		for (const value of [current.code, current.httpCode]) {
			if (typeof value === 'string' && /^E[A-Z_]+$/.test(value)) return value;
		}
		if (typeof current.message === 'string' && /socket hang up|aborted|timeout/i.test(current.message)) {
			return 'ECONNRESET';
		}
		current = (current.errorResponse ?? current.cause) as ErrorLike | undefined;
	}
	return undefined;
}

export function classifyFailure(error: unknown, idempotent: boolean): { kind: FailureKind; waitMs?: number } {
	const e = error as { context?: { retryAfter?: unknown; refused?: unknown } };
	const status = httpStatusOf(error);
	if (status === 429) {
		const seconds = Number(e.context?.retryAfter);
		return { kind: 'rateLimited', waitMs: Number.isFinite(seconds) ? seconds * 1000 : undefined };
	}
	if (status >= 500) return { kind: 'transient' };
	if (status >= 200 && status < 300 && status !== 206) {
		if (e.context?.refused) return { kind: 'final' };
		return { kind: idempotent ? 'transient' : 'ambiguous' };
	}
	if (status >= 300) return { kind: 'final' };
	const code = networkCode(error);
	if (code && NOT_SENT.includes(code)) return { kind: 'transient' };
	if (code && (CUT_OFF.includes(code) || code.startsWith('E'))) return { kind: idempotent ? 'transient' : 'ambiguous' };
	return { kind: 'final' };
}

/**
 * When `error` means the request may have been carried out (its answer was lost), says so in
 * `failure`'s message with what to check before sending it again, and returns true.
 */
export function markMaybeDone(error: unknown, failure: { message: string }, what: string, check: string): boolean {
	if (classifyFailure(error, false).kind !== 'ambiguous') return false;
	failure.message = `Unpod may or may not have ${what}: ${failure.message}. ${check}`;
	return true;
}

/** The least wait: `Retry-After: 0`, or a reset time already past, is not a reason to hammer. */
export const MIN_WAIT_MS = 1000;

/**
 * The time one node run may spend waiting on rate limits and retries, shared by its
 * requests, and what it learned of the plan's limit: after a 429 that names the limit
 * (`X-RateLimit-Limit`, per minute), requests are spaced so that a long import meets few 429s.
 */
export class WaitBudget {
	waitedMs = 0;
	rateLimited = 0;
	retried = 0;
	/** The least time between two requests, once a 429 said what the limit is. */
	intervalMs = 0;
	lastSentAt = 0;
	/** An end in time (epoch ms) past which nothing may wait, whatever is left of `maxMs`. */
	deadline?: number;

	constructor(
		readonly maxMs: number,
		/** The execution's cancel signal: waits end when it fires. */
		readonly signal?: AbortSignal,
	) {}

	get remainingMs(): number {
		const left = this.maxMs - this.waitedMs;
		return Math.max(0, this.deadline === undefined ? left : Math.min(left, this.deadline - Date.now()));
	}
}

export const DEFAULT_RATE_LIMIT_WAIT_SECONDS = 300;

type RunContext = {
	getContext(type: 'node'): object;
	getWorkflowDataProxy(itemIndex: number): IDataObject;
	getExecutionCancelSignal?: () => AbortSignal | undefined;
};

/**
 * Where a run's budget is kept: on the execution's own context object of the node, under a
 * symbol, which n8n neither copies nor saves, so each execution (and each worker) starts afresh.
 */
const RUN_BUDGET = Symbol.for('n8n-nodes-unpod.runBudget');

/**
 * The budget of one run of the node: every item and every page of it waits within the same
 * `maxMs`, as a user reads a wait limit, so 100 items under a long 429 wait it out once.
 */
export function executionBudget(context: RunContext, maxMs = DEFAULT_RATE_LIMIT_WAIT_SECONDS * 1000): WaitBudget {
	const holder = context.getContext('node') as { [RUN_BUDGET]?: { runIndex: number; budget: WaitBudget } };
	const runIndex = Number(context.getWorkflowDataProxy(0).$runIndex);
	const known = holder[RUN_BUDGET];
	if (known && known.runIndex === runIndex) return known.budget;
	const budget = new WaitBudget(maxMs, cancelSignalOf(context));
	Object.defineProperty(holder, RUN_BUDGET, { value: { runIndex, budget }, configurable: true, enumerable: false });
	return budget;
}

/** Pickers answer the editor, which is waiting: a short budget. */
export const pickerBudget = () => new WaitBudget(20_000);

/** The execution's cancel signal, where the running n8n provides one. */
export function cancelSignalOf(context: { getExecutionCancelSignal?: () => AbortSignal | undefined }) {
	return typeof context.getExecutionCancelSignal === 'function' ? context.getExecutionCancelSignal() : undefined;
}

export function cancelledError(node: INode): NodeOperationError {
	return new NodeOperationError(node, 'The execution was cancelled while waiting on Unpod', {
		description: 'Nothing more was sent after the cancel.',
	});
}

/** Waits `ms`; ends at once, with an error, when the execution is cancelled. */
export async function pause(node: INode, ms: number, signal?: AbortSignal): Promise<void> {
	if (signal?.aborted) throw cancelledError(node);
	try {
		// sleepWithAbort is missing from older n8n; there a wait cannot be cut short.
		if (signal && typeof sleepWithAbort === 'function') await sleepWithAbort(ms, signal);
		else await sleep(ms);
	} catch (error) {
		if (signal?.aborted) throw cancelledError(node);
		throw asNodeError(node, error);
	}
	if (signal?.aborted) throw cancelledError(node);
}

/** Waits `ms` out of the budget. */
async function waitOut(node: INode, budget: WaitBudget, ms: number): Promise<void> {
	budget.waitedMs += ms;
	await pause(node, ms, budget.signal);
}
const MAX_TRANSIENT_RETRIES = 4;
const BACKOFF_MS = [1000, 2000, 4000, 8000];

/**
 * Sends a request, waiting out 429s (for Retry-After) and retrying transient failures with
 * backoff, all within `budget`. Ambiguous failures of a non-idempotent request are never
 * retried. Throws the last error when it cannot go on.
 */
export async function withRetries<T>(
	node: INode,
	send: () => Promise<T>,
	budget: WaitBudget,
	idempotent: boolean,
): Promise<T> {
	let transientTries = 0;
	for (;;) {
		if (budget.signal?.aborted) throw cancelledError(node);
		// Spaced to the plan's limit once it is known; the spacing is a wait like any other.
		const due = budget.lastSentAt + budget.intervalMs - Date.now();
		if (budget.intervalMs && due > 0 && due <= budget.remainingMs) await waitOut(node, budget, due);
		budget.lastSentAt = Date.now();
		try {
			return await send();
		} catch (error) {
			const { kind, waitMs } = classifyFailure(error, idempotent);
			if (kind === 'final' || kind === 'ambiguous') throw asNodeError(node, error);
			let wait: number;
			if (kind === 'rateLimited') {
				wait = Math.max(MIN_WAIT_MS, waitMs ?? BACKOFF_MS[Math.min(transientTries, BACKOFF_MS.length - 1)]);
				const perMinute = Number((error as { context?: { rateLimitPerMinute?: unknown } }).context?.rateLimitPerMinute);
				if (perMinute > 0) budget.intervalMs = Math.ceil(60_000 / perMinute);
			} else {
				if (transientTries >= MAX_TRANSIENT_RETRIES) throw asNodeError(node, error);
				wait = BACKOFF_MS[transientTries];
				transientTries++;
			}
			if (wait > budget.remainingMs) throw asNodeError(node, error);
			if (kind === 'rateLimited') budget.rateLimited++;
			else budget.retried++;
			await waitOut(node, budget, wait);
		}
	}
}
