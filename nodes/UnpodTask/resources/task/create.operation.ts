/** Task > Create: sends the rows in batches, pairs the answers, and reports what was not created. */
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { asNodeError } from '../../../shared/errors';
import { cancelSignalOf, classifyFailure, DEFAULT_MAX_WAIT_SECONDS, WaitBudget } from '../../../shared/retry';
import { unpodApiRequest } from '../../../shared/transport';
import { DEFAULT_BATCH_SIZE, DEFAULT_LOOKBACK_HOURS, MAX_BATCH_SIZE } from './create';
import { recentTasks, skipReason } from './create.guard';
import { groupIntoBatches, rowList } from './create.batches';
import { RunJournal } from './create.journal';
import { readRows } from './create.rows';
import type { Row } from './create.rows';

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
 * A row that was not created. On n8n's error output the item must carry the error (n8n
 * then keeps only its message, paired with the input row); on the regular output it keeps
 * the row's own fields too, so the items with `error` are the rows to send again.
 */
function errorItem(
	context: IExecuteFunctions,
	echo: IDataObject,
	itemIndex: number,
	error: NodeApiError | NodeOperationError,
	created: boolean | 'unknown',
): INodeExecutionData {
	if (context.getNode().onError === 'continueErrorOutput') {
		return { json: { error: error.message, unpod_created: created }, error, pairedItem: { item: itemIndex } };
	}
	return { json: { ...echo, error: error.message, unpod_created: created }, pairedItem: { item: itemIndex } };
}

const countCreated = (results: Map<Row, INodeExecutionData>) =>
	[...results.values()].filter((r) => r.json.error === undefined && r.json.unpod_skipped === undefined).length;

export async function executeCreate(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const items = this.getInputData();
	const continueOnFail = this.continueOnFail();
	const { rows, invalid } = readRows(this, items);

	if (invalid.length && !continueOnFail) {
		const [first] = invalid;
		const others = invalid.slice(1, 21);
		first.error.message += `${others.length ? ` (also invalid: ${rowList(others)}${invalid.length > 21 ? ', ...' : ''})` : ''}. Nothing was sent.`;
		throw first.error;
	}

	const options = this.getNodeParameter('options', 0, {}) as IDataObject;
	const batchSize = Math.min(MAX_BATCH_SIZE, Math.max(1, Number(options.batchSize) || DEFAULT_BATCH_SIZE));
	const budget = new WaitBudget(
		Number(options.maxWaitSeconds ?? DEFAULT_MAX_WAIT_SECONDS) * 1000,
		cancelSignalOf(this),
	);
	const journal = new RunJournal(this.getContext('node'), this.getWorkflowDataProxy(0).$runIndex);
	const results = new Map<Row, INodeExecutionData>();
	const unknown: Row[] = [];
	const toSend: Row[] = [];
	const failed = (row: Row, error: NodeApiError | NodeOperationError, created: boolean | 'unknown') =>
		results.set(row, errorItem(this, row.echo, row.itemIndex, error, created));
	for (const row of rows) {
		const done = journal.get(row);
		if (!done) toSend.push(row);
		else if ('unknown' in done) {
			// Sent before in this run with no telling whether Unpod took it: never sent again.
			unknown.push(row);
			failed(row, new NodeOperationError(this.getNode(), done.unknown, { itemIndex: row.itemIndex }), 'unknown');
		} else results.set(row, { json: { ...row.echo, ...done.created }, pairedItem: { item: row.itemIndex } });
	}
	if (this.getNodeParameter('skipExisting', 0, false) && toSend.length) {
		const lookbackHours = Number(options.lookbackHours) || DEFAULT_LOOKBACK_HOURS;
		const existing = await recentTasks(this, toSend, lookbackHours, String(options.defaultCountryCode ?? ''), budget);
		for (let i = toSend.length - 1; i >= 0; i--) {
			const row = toSend[i];
			const match = existing.get(row.request.space)?.match(row.document);
			if (!match) continue;
			toSend.splice(i, 1);
			results.set(row, {
				json: {
					...row.echo,
					task_id: match.task.task_id,
					run_id: match.task.run_id,
					task_status: match.task.status,
					unpod_skipped: skipReason(match, lookbackHours),
				},
				pairedItem: { item: row.itemIndex },
			});
		}
	}
	const batches = groupIntoBatches(toSend, batchSize);

	// The specification creates at `tasks/`, Unpod's current docs at `tasks/create/`. A 404 or
	// 405 created nothing, so the other path is tried; the one that worked serves the rest of the run.
	let createPath = CREATE_PATHS[0];
	const sendBatch = async (space: string, body: IDataObject, itemIndex: number) => {
		const request = (suffix: string) =>
			unpodApiRequest.call(this, {
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
			if (status !== 404 && status !== 405) throw asNodeError(this.getNode(), error, itemIndex);
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
				const created: IDataObject = {
					task_id: taskId,
					run_id: data.run_id ?? null,
					task_status: statusOf(data.status, taskId),
				};
				if (!paired) {
					created.unpod_warning =
						`Unpod created the tasks of this request (run ${String(data.run_id ?? 'unknown')}) but its answer ` +
						(taskIds.length ? `listed ${taskIds.length} task IDs for ${batch.length} contacts` : 'listed no task IDs') +
						", so this row's task ID is not known. Find it with Unpod Task > Get Many, Search: the contact's name.";
				}
				journal.created(row, created);
				results.set(row, { json: { ...row.echo, ...created }, pairedItem: { item: row.itemIndex } });
			});
		} catch (error) {
			const failure = asNodeError(this.getNode(), error, batch[0].itemIndex);
			if (classifyFailure(error, false).kind === 'ambiguous') {
				failure.message = `Unpod may or may not have created these tasks: ${failure.message}. Check the space before sending these rows again`;
				for (const row of batch) {
					journal.unknown(row, failure.message);
					unknown.push(row);
					failed(row, failure, 'unknown');
				}
				continue;
			}
			if (budget.waitedMs > 0)
				failure.message += ` (after waiting ${Math.round(budget.waitedMs / 1000)} s on rate limits and retries)`;
			if (!continueOnFail) {
				// With one request in all, the API's own message says it all.
				if (batches.length > 1 || results.size > 0) {
					failure.message =
						`${failure.message}. Created ${countCreated(results)} of ${rows.length} contacts; ` +
						`not created: ${rowList(batches.slice(b).flat())}` +
						(unknown.length ? `; unknown: ${rowList(unknown)}` : '');
				}
				throw failure;
			}
			for (const row of batch) failed(row, failure, false);
		}
	}
	if (unknown.length && !continueOnFail) {
		throw new NodeOperationError(
			this.getNode(),
			`Unpod may or may not have created the tasks of ${rowList(unknown)}: the answer was lost. Created ${countCreated(results)} of ${rows.length} contacts`,
			{
				description:
					"Look these contacts up before sending them again: Unpod Task > Get Many with Search set to the contact's name (Unpod's search reads names, not the numbers of calls not made yet).",
			},
		);
	}

	// Output in input order: created rows and error items together.
	const byItem: INodeExecutionData[][] = items.map(() => []);
	for (const row of rows) byItem[row.itemIndex].push(results.get(row)!);
	for (const bad of invalid) byItem[bad.itemIndex].push(errorItem(this, bad.echo, bad.itemIndex, bad.error, false));
	return byItem.flat();
}
