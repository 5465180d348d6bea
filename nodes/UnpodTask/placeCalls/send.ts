/**
 * Sending contact rows as Unpod tasks, for every operation that places calls, step by step:
 * what the journal says this run already sent, the duplicate guard, batches, the create
 * request, and what became of each row.
 */
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { asNodeError } from '../../shared/errors';
import { numberOption } from '../../shared/parameters';
import { executionBudget, markMaybeDone } from '../../shared/retry';
import type { WaitBudget } from '../../shared/retry';
import { sendToFirstServedPath, unpodApiRequest } from '../../shared/transport';
import { calledContacts, recentTasks } from './existingTasks';
import { rememberSent } from './knownTasks';
import type { KnownSpace, KnownTask } from './knownTasks';
import { requestedInstant, SCHEDULE_HORIZON_DAYS } from '../mayCall/whenToCall';
import { CallTiming } from '../mayCall/timing';
import type { Held } from '../mayCall/timing';
import { MINUTE_MS } from '../../shared/time';
import type { ExistingTask } from './existingTasks';
import { rateLimitWaitOption } from './fields';
import { groupIntoBatches, rowList } from './batches';
import { RunJournal } from './journal';
import { pairedAnswers } from './createAnswers';
import type { Row } from '../mayCall/contactRow';

/** What became of one row. `answer` holds task_id, run_id, task_status (and a warning or skip reason). */
export type SendResult =
	| { kind: 'created'; answer: IDataObject }
	/**
	 * Not sent, with what its item says: outside the callee's calling hours or over their limits of
	 * calls (`hours`), or over the space's Max Calls per Day (`cap`).
	 */
	| Held
	| { kind: 'skipped'; answer: IDataObject; existing: ExistingTask }
	| { kind: 'failed'; error: NodeApiError | NodeOperationError; created: false | 'unknown' };

export interface SendSettings {
	batchSize: number;
	budget: WaitBudget;
	continueOnFail: boolean;
	/**
	 * Skip Contacts Already Called, for the rows with a lookback: off where the operation has no
	 * such check (the waits, whose calls go in one request; Follow Up, which finds its own).
	 */
	skipCalledContacts: boolean;
	/**
	 * The guard and the limits remember each space's tasks in the node's static data between
	 * executions and read only the new ones (knownTasks.ts): Create and Follow Up, which a schedule
	 * runs again and again. Call and Wait puts out a skipped call's whole task, so it reads the
	 * list whole.
	 */
	rememberTasks?: boolean;
	/** The calls of one wait: a row held for its calling hours stops them all, before any request. */
	allOrNone?: boolean;
	/** Options > Max Calls per Day (dailyCap.ts); 0 or none: no cap. */
	maxCallsPerDay?: number;
}

type Results = Map<Row, SendResult>;

/**
 * Sends `rows` (all checked) and says what became of each. Without Continue On Fail a failed
 * request throws, naming what was created and what was not; rows whose answer was lost are
 * never sent again in this run (the journal), and make it throw at the end.
 */
export async function sendRows(context: IExecuteFunctions, rows: Row[], settings: SendSettings): Promise<Results> {
	const journal = new RunJournal(context.getContext('node'), context.getWorkflowDataProxy(0).$runIndex);
	const results: Results = new Map();
	const unsent = replayJournal(context, journal, rows, results);
	const guarded = settings.skipCalledContacts ? unsent.filter((row) => row.lookbackHours !== undefined) : [];
	const limited = unsent.filter((row) => row.hours?.callee.limits.length || settings.maxCallsPerDay);
	// The limits and the cap read back weeks: what they read is remembered by every operation.
	const memory = limited.length || settings.rememberTasks ? context.getWorkflowStaticData('node') : undefined;
	const { guard, existing } = await readRecentTasks(context, guarded, limited, settings, memory);
	if (guard) {
		for (const [row, skipped] of calledContacts(guarded, guard)) results.set(row, { kind: 'skipped', ...skipped });
	}
	const toSend = unsent.filter((row) => !results.has(row));
	const plannedAt = Date.now();
	// The gate's time checks: the law's hours and limits, then the space's cap.
	const timing = new CallTiming(existing, settings.maxCallsPerDay ?? 0);
	const held = timing.admit(toSend, plannedAt);
	if (settings.allOrNone && held.size) {
		const [[row, { answer }]] = held;
		throw new NodeOperationError(context.getNode(), `${String(answer.unpod_held)}. Nothing was sent.`, {
			itemIndex: row.itemIndex,
			description: 'The calls of this run go in one request: a contact who may not be called stops them all.',
		});
	}
	for (const [row, result] of held) results.set(row, result);
	const batches = groupIntoBatches(
		unsent.filter((row) => !results.has(row)),
		settings.batchSize,
	);
	await sendBatches(context, journal, batches, settings, results, rows.length, { plannedAt, timing });
	if (memory) rememberCreated(memory, results);
	if (!settings.continueOnFail) refuseLostAnswers(context, results, rows.length);
	return results;
}

type SpaceTasks = Awaited<ReturnType<typeof recentTasks>>;

/**
 * The reads of each space's recent tasks, for the duplicate guard and for the limits and the cap.
 * One read serves both where the node remembers its tasks, or where one of them is not asked;
 * else (Call and Wait, which puts out a skipped call's whole task) the guard reads its lookback
 * whole and the counts go through the memory.
 */
async function readRecentTasks(
	context: IExecuteFunctions,
	guarded: Row[],
	limited: Row[],
	settings: SendSettings,
	memory: IDataObject | undefined,
): Promise<{ guard?: SpaceTasks; existing?: SpaceTasks }> {
	const counted = limited.map((row) => ({
		request: row.request,
		lookbackHours: Math.max(limitHours(row), row.lookbackHours ?? 0),
		counts: true,
	}));
	if (settings.rememberTasks || !guarded.length || !counted.length) {
		const reads = [...guarded, ...counted];
		if (!reads.length) return {};
		const read = await recentTasks(context, reads, settings.budget, memory);
		return { guard: read, existing: read };
	}
	const guard = await recentTasks(context, guarded, settings.budget);
	return { guard, existing: await recentTasks(context, counted, settings.budget, memory) };
}

/**
 * How far back a row's limits and the cap read the space's tasks: its longest period, and the
 * farthest ahead the package schedules (a task created that long ago may ring inside the period;
 * a call counts when it rings). Where the node remembers what it read (Create, Follow Up), that is
 * read once and then only what is new or may have changed; the others read it on every run.
 */
export const limitHours = (row: Pick<Row, 'hours'>) =>
	(Math.max(1, ...(row.hours?.callee.limits ?? []).map((limit) => limit.days)) + SCHEDULE_HORIZON_DAYS) * 24;

/** The memory of each space's tasks (knownTasks.ts) learns the tasks this run created, with the schedule each was sent with. */
function rememberCreated(memory: IDataObject, results: Results): void {
	const known = (memory.knownTasks ?? {}) as Record<string, KnownSpace>;
	const bySpace = new Map<string, KnownTask[]>();
	const created = Math.floor(Date.now() / 1000);
	for (const [row, result] of results) {
		if (result.kind !== 'created' || typeof result.answer.task_id !== 'string') continue;
		const at = requestedInstant(row.request.body);
		const document = row.document;
		const task: KnownTask = {
			task_id: result.answer.task_id,
			run_id: typeof result.answer.run_id === 'string' ? result.answer.run_id : null,
			status: 'pending',
			created,
			...(typeof document.document_id === 'string' && document.document_id ? { document_id: document.document_id } : {}),
			contact_number: String(document.contact_number),
			...(at === undefined ? {} : { scheduled: Math.floor(at / 1000) }),
		};
		const ofSpace = bySpace.get(row.request.space) ?? [];
		ofSpace.push(task);
		bySpace.set(row.request.space, ofSpace);
	}
	for (const [space, tasks] of bySpace) {
		const updated = rememberSent(known[space], tasks);
		if (updated) known[space] = updated;
	}
}

/** A batch is checked again for its calling hours once this long has passed since they were worked out. */
const RECHECK_AFTER_MS = 60_000;

/** The journal step: rows this run sent before keep what came of them; the others are returned, to send. */
function replayJournal(context: IExecuteFunctions, journal: RunJournal, rows: Row[], results: Results): Row[] {
	const unsent: Row[] = [];
	for (const row of rows) {
		const done = journal.get(row);
		if (!done) unsent.push(row);
		// Sent before in this run with no telling whether Unpod took it: never sent again.
		else if ('unknown' in done) {
			const error = new NodeOperationError(context.getNode(), done.unknown, { itemIndex: row.itemIndex });
			results.set(row, { kind: 'failed', error, created: 'unknown' });
		} else results.set(row, { kind: 'created', answer: done.created });
	}
	return unsent;
}

/** The send step: one create request a batch, each row's answer kept in the journal as it comes. */
async function sendBatches(
	context: IExecuteFunctions,
	journal: RunJournal,
	batches: Row[][],
	settings: SendSettings,
	results: Results,
	total: number,
	/** When the calling hours were worked out, and what they and the cap counted: a batch after a wait is checked again. */
	hours: { plannedAt: number; timing: CallTiming },
): Promise<void> {
	const { budget, continueOnFail } = settings;
	const createPath = new CreatePath();
	for (let b = 0; b < batches.length; b++) {
		let batch = batches[b];
		// A wait for the rate limit may have brought a call sent now close to its window's end.
		if (Date.now() - hours.plannedAt >= RECHECK_AFTER_MS) {
			// To the next minute: the batches of a minute share what was worked out for it.
			const now = Math.ceil(Date.now() / MINUTE_MS) * MINUTE_MS;
			const late = hours.timing.recheck(batch, now);
			for (const [row, result] of late) results.set(row, result);
			const regrouped = groupIntoBatches(
				batch.filter((row) => !late.has(row)),
				batch.length,
			);
			if (!regrouped.length) continue;
			batches.splice(b + 1, 0, ...regrouped.slice(1));
			batch = regrouped[0];
		}
		try {
			const answers = pairedAnswers(batch.length, await createPath.create(context, batch, budget));
			batch.forEach((row, i) => {
				journal.created(row, answers[i]);
				results.set(row, { kind: 'created', answer: { ...answers[i], ...row.hours?.note, ...row.note } });
			});
		} catch (error) {
			const failure = asNodeError(context.getNode(), error, batch[0].itemIndex);
			if (markMaybeDone(error, failure, 'created these tasks', 'Check the space before sending these rows again')) {
				for (const row of batch) {
					journal.unknown(row, failure.message);
					results.set(row, { kind: 'failed', error: failure, created: 'unknown' });
				}
				continue;
			}
			if (budget.waitedMs > 0)
				failure.message += ` (after waiting ${Math.round(budget.waitedMs / 1000)} s on rate limits and retries)`;
			if (!continueOnFail) {
				// With one request in all, the API's own message says it all.
				if (batches.length > 1 || results.size > 0) {
					const lost = lostAnswers(results);
					failure.message =
						`${failure.message}. Created ${createdCount(results)} of ${total} contacts; ` +
						`not created: ${rowList(batches.slice(b).flat())}` +
						(lost.length ? `; unknown: ${rowList(lost)}` : '');
				}
				throw failure;
			}
			for (const row of batch) results.set(row, { kind: 'failed', error: failure, created: false });
		}
	}
}

/**
 * The create request's path: `tasks/create/` of Unpod's OpenAPI 2.0.0, or `tasks/` of the first
 * specification and older deployments. A 404 or 405 created nothing, so the other is tried; the
 * one that served is kept for the rest of the run.
 */
class CreatePath {
	private paths = ['tasks/create/', 'tasks/'];

	async create(context: IExecuteFunctions, batch: Row[], budget: WaitBudget): Promise<IDataObject> {
		const { space, body } = batch[0].request;
		const { answer, path } = await sendToFirstServedPath(
			context.getNode(),
			this.paths,
			async (path) =>
				await unpodApiRequest.call(context, {
					method: 'POST',
					path: `/spaces/${encodeURIComponent(space)}/${path}`,
					body: { ...body, documents: batch.map((row) => row.document) },
					subject: `space "${space}"`,
					itemIndex: batch[0].itemIndex,
					budget,
				}),
			batch[0].itemIndex,
		);
		this.paths = [path, ...this.paths.filter((p) => p !== path)];
		return answer;
	}
}

const createdCount = (results: Results) => [...results.values()].filter((r) => r.kind === 'created').length;

/** The rows whose create answer was lost: Unpod may or may not have their tasks. */
const lostAnswers = (results: Results) =>
	[...results].filter(([, r]) => r.kind === 'failed' && r.created === 'unknown').map(([row]) => row);

/** The last step without Continue On Fail: a row whose answer was lost fails the run, after the others were sent. */
function refuseLostAnswers(context: IExecuteFunctions, results: Results, total: number): void {
	const lost = lostAnswers(results);
	if (!lost.length) return;
	throw new NodeOperationError(
		context.getNode(),
		`Unpod may or may not have created the tasks of ${rowList(lost)}: the answer was lost. Created ${createdCount(results)} of ${total} contacts`,
		{
			description:
				"Look these contacts up before sending them again: Unpod Task > Get Many with Search set to the contact's name (Unpod's search reads names, not the numbers of calls not made yet).",
		},
	);
}

/** The run's budget for rate limits and retries: Options > Max Rate Limit Wait (Seconds), for all items. */
export function rateLimitBudget(context: IExecuteFunctions): WaitBudget {
	return executionBudget(context, numberOption(context, rateLimitWaitOption) * 1000);
}

/** Stops before anything is sent when a row is invalid (without Continue On Fail), naming the bad rows. */
export function refuseInvalidRows(invalid: Array<{ itemIndex: number; rowNumber?: number; error: Error }>): void {
	if (!invalid.length) return;
	const [first] = invalid;
	const others = invalid.slice(1, 21);
	first.error.message += `${others.length ? ` (also invalid: ${rowList(others)}${invalid.length > 21 ? ', ...' : ''})` : ''}. Nothing was sent.`;
	throw first.error;
}
