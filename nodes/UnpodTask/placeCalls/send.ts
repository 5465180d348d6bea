/**
 * Sending contact rows as Unpod tasks, for every operation that places calls: the duplicate
 * guard, batches, the journal of this run, the create path the backend serves, and what
 * became of each row.
 */
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { asNodeError } from '../../shared/errors';
import { numberOption } from '../../shared/parameters';
import { executionBudget, markMaybeDone } from '../../shared/retry';
import type { WaitBudget } from '../../shared/retry';
import { unpodApiRequest } from '../../shared/transport';
import { recentTasks, skipReason } from './existingTasks';
import type { ExistingTask } from './existingTasks';
import { rateLimitWaitOption } from './fields';
import { groupIntoBatches, rowList } from './batches';
import { RunJournal } from './journal';
import type { Row } from './rows';

/** What became of one row. `answer` holds task_id, run_id, task_status (and a warning or skip reason). */
export type SendResult =
	| { kind: 'created'; answer: IDataObject }
	| { kind: 'skipped'; answer: IDataObject; existing: ExistingTask }
	| { kind: 'failed'; error: NodeApiError | NodeOperationError; created: false | 'unknown' };

export interface SendSettings {
	batchSize: number;
	budget: WaitBudget;
	continueOnFail: boolean;
}

const CREATE_PATHS = ['tasks/', 'tasks/create/'];

/**
 * A task's status from a create answer: one string for all (the specification), or a map
 * task_id -> status (Unpod's backend). Without its id a row gets the status all tasks share.
 */
export function statusOf(status: unknown, taskId: string | null): string | null {
	if (typeof status === 'string') return status;
	if (status && typeof status === 'object' && !Array.isArray(status)) {
		const map = status as Record<string, unknown>;
		if (taskId && typeof map[taskId] === 'string') return map[taskId] as string;
		const values = [...new Set(Object.values(map).map(String))];
		return values.length === 1 ? values[0] : null;
	}
	return status === undefined || status === null ? 'pending' : String(status);
}

/**
 * Sends `rows` (all checked) and says what became of each. Without Continue On Fail a failed
 * request throws, naming what was created and what was not; rows whose answer was lost are
 * never sent again in this run (the journal), and make it throw at the end.
 */
export async function sendRows(
	context: IExecuteFunctions,
	rows: Row[],
	settings: SendSettings,
): Promise<Map<Row, SendResult>> {
	const { budget, continueOnFail } = settings;
	const journal = new RunJournal(context.getContext('node'), context.getWorkflowDataProxy(0).$runIndex);
	const results = new Map<Row, SendResult>();
	const unknown: Row[] = [];
	const toSend: Row[] = [];
	const countCreated = () => [...results.values()].filter((r) => r.kind === 'created').length;
	const maybeDone = (row: Row, error: NodeApiError | NodeOperationError) => {
		unknown.push(row);
		results.set(row, { kind: 'failed', error, created: 'unknown' });
	};
	for (const row of rows) {
		const done = journal.get(row);
		if (!done) toSend.push(row);
		// Sent before in this run with no telling whether Unpod took it: never sent again.
		else if ('unknown' in done)
			maybeDone(row, new NodeOperationError(context.getNode(), done.unknown, { itemIndex: row.itemIndex }));
		else results.set(row, { kind: 'created', answer: done.created });
	}
	// Rows with Skip Contacts Already Called: each checked with its own lookback and country code.
	const guarded = toSend.filter((row) => row.lookbackHours !== undefined);
	if (guarded.length) {
		const existing = await recentTasks(context, guarded, budget);
		for (const row of guarded) {
			const hours = row.lookbackHours!;
			const since = Date.now() - hours * 3600 * 1000;
			const match = existing.get(row.request.space)?.match(row.document, { countryCode: row.countryCode, since });
			if (!match) continue;
			const { task } = match;
			results.set(row, {
				kind: 'skipped',
				existing: task,
				answer: {
					task_id: task.task_id,
					run_id: task.run_id,
					task_status: task.status,
					unpod_skipped: skipReason(match, hours),
				},
			});
		}
	}
	const batches = groupIntoBatches(
		toSend.filter((row) => !results.has(row)),
		settings.batchSize,
	);

	// The specification creates at `tasks/`, Unpod's current docs at `tasks/create/`. A 404 or
	// 405 created nothing, so the other path is tried; the one that worked serves the rest of the run.
	let createPath = CREATE_PATHS[0];
	const sendBatch = async (space: string, body: IDataObject, itemIndex: number) => {
		const request = (suffix: string) =>
			unpodApiRequest.call(context, {
				method: 'POST',
				path: `/spaces/${encodeURIComponent(space)}/${suffix}`,
				body,
				subject: `space "${space}"`,
				itemIndex,
				budget,
			});
		try {
			return await request(createPath);
		} catch (error) {
			const status = Number((error as NodeApiError).httpCode);
			if (status !== 404 && status !== 405) throw asNodeError(context.getNode(), error, itemIndex);
			const other = CREATE_PATHS.find((p) => p !== createPath)!;
			const response = await request(other);
			createPath = other;
			return response;
		}
	};

	for (let b = 0; b < batches.length; b++) {
		const batch = batches[b];
		const { space, body } = batch[0].request;
		try {
			const response = await sendBatch(space, { ...body, documents: batch.map((r) => r.document) }, batch[0].itemIndex);
			const data = (response.data ?? {}) as IDataObject;
			const taskIds = Array.isArray(data.task_ids) ? (data.task_ids as string[]) : [];
			// task_ids follow the order of documents; without one id per document no row can be paired.
			const paired = taskIds.length === batch.length;
			batch.forEach((row, i) => {
				const taskId = paired ? taskIds[i] : null;
				const answer: IDataObject = {
					task_id: taskId,
					run_id: data.run_id ?? null,
					task_status: statusOf(data.status, taskId),
				};
				if (!paired) {
					answer.unpod_warning =
						`Unpod created the tasks of this request (run ${String(data.run_id ?? 'unknown')}) but its answer ` +
						(taskIds.length ? `listed ${taskIds.length} task IDs for ${batch.length} contacts` : 'listed no task IDs') +
						", so this row's task ID is not known. Find it with Unpod Task > Get Many, Search: the contact's name.";
				}
				journal.created(row, answer);
				results.set(row, { kind: 'created', answer });
			});
		} catch (error) {
			const failure = asNodeError(context.getNode(), error, batch[0].itemIndex);
			if (markMaybeDone(error, failure, 'created these tasks', 'Check the space before sending these rows again')) {
				for (const row of batch) {
					journal.unknown(row, failure.message);
					maybeDone(row, failure);
				}
				continue;
			}
			if (budget.waitedMs > 0)
				failure.message += ` (after waiting ${Math.round(budget.waitedMs / 1000)} s on rate limits and retries)`;
			if (!continueOnFail) {
				// With one request in all, the API's own message says it all.
				if (batches.length > 1 || results.size > 0) {
					failure.message =
						`${failure.message}. Created ${countCreated()} of ${rows.length} contacts; ` +
						`not created: ${rowList(batches.slice(b).flat())}` +
						(unknown.length ? `; unknown: ${rowList(unknown)}` : '');
				}
				throw failure;
			}
			for (const row of batch) results.set(row, { kind: 'failed', error: failure, created: false });
		}
	}
	if (unknown.length && !continueOnFail) {
		throw new NodeOperationError(
			context.getNode(),
			`Unpod may or may not have created the tasks of ${rowList(unknown)}: the answer was lost. Created ${countCreated()} of ${rows.length} contacts`,
			{
				description:
					"Look these contacts up before sending them again: Unpod Task > Get Many with Search set to the contact's name (Unpod's search reads names, not the numbers of calls not made yet).",
			},
		);
	}
	return results;
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
