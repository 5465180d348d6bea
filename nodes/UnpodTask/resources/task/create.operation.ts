/** Task > Create: sends the rows in batches, pairs the answers, and reports what was not created. */
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { contactFields } from '../../../shared/contacts';
import { agentLocator, optionsCollection, spaceLocator } from '../../../shared/descriptions';
import { asNodeError } from '../../../shared/errors';
import { failedItem } from '../../../shared/itemLoop';
import { cancelSignalOf, DEFAULT_MAX_WAIT_SECONDS, markMaybeDone, WaitBudget } from '../../../shared/retry';
import { unpodApiRequest } from '../../../shared/transport';
import { recentTasks, skipReason } from './create.guard';
import { groupIntoBatches, rowList } from './create.batches';
import { RunJournal } from './create.journal';
import { readRows } from './create.rows';
import type { Row } from './create.rows';

const show = { resource: ['task'], operation: ['create'] };

/**
 * 100 contacts a request: the largest page size the API declares, a body of tens of kB,
 * and a failed request affects at most 100 rows, while 10,000 rows take 100 requests.
 */
export const DEFAULT_BATCH_SIZE = 100;
export const DEFAULT_LOOKBACK_HOURS = 24;

const SKIP_EXISTING_DESCRIPTION =
	"Whether to first look up the space's tasks created recently (see Options > Lookback) and not send a contact that already has one: matched by Document ID when the row has one, else by phone number. Skipped rows come out with the existing task's ID and unpod_skipped. Costs one request per 100 recent tasks.";
export const MAX_BATCH_SIZE = 500;

export const description: INodeProperties[] = [
	spaceLocator(show),
	agentLocator(show, undefined, 'pilot', 'Agent (Pilot)'),
	{
		displayName: 'Contacts From',
		name: 'contactsSource',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show },
		options: [
			{
				name: 'Input Items',
				value: 'fields',
				description: 'Each input item is one contact (a row of a sheet, a CRM record)',
			},
			{
				name: 'JSON Array',
				value: 'json',
				description: 'Each input item carries a ready array of contact documents',
			},
		],
		default: 'fields',
	},
	...contactFields({ ...show, contactsSource: ['fields'] }),
	{
		displayName: 'Contacts (JSON)',
		name: 'documents',
		type: 'json',
		default: '={{ $json.documents }}',
		required: true,
		description: 'An array of contact documents: {"name": "...", "contact_number": "...", ...}',
		displayOptions: { show: { ...show, contactsSource: ['json'] } },
	},
	{
		displayName: 'Call Context',
		name: 'context',
		type: 'string',
		typeOptions: { rows: 3 },
		required: true,
		default: '',
		placeholder: 'e.g. Follow up on the pricing enquiry and offer a demo next week',
		description: 'What the agent should know for these calls (the objective of the run). Unpod requires it.',
		hint: 'The goal of the calls and anything the agent should say or ask, in a sentence or two',
		displayOptions: { show },
	},
	{
		displayName: 'Schedule',
		name: 'schedule',
		type: 'options',
		displayOptions: { show },
		options: [
			{ name: 'Now', value: 'now', description: 'Call as soon as possible' },
			{ name: 'Auto', value: 'auto', description: "Call within the agent's calling days and hours" },
			{ name: 'Custom', value: 'custom', description: 'Call at a given date and time' },
		],
		default: 'now',
	},
	{
		displayName: 'Call At',
		name: 'callAt',
		type: 'dateTime',
		required: true,
		default: '',
		description: "Date and time of the calls, in the agent's time zone",
		displayOptions: { show: { ...show, schedule: ['custom'] } },
	},
	// On for new nodes (version 1.1): re-running an import must not call people twice. Off for
	// version 1, which stays declared because the editor shows a saved node whose version the
	// node no longer lists as not installed.
	{
		displayName: 'Skip Contacts Already Called',
		name: 'skipExisting',
		type: 'boolean',
		default: false,
		description: SKIP_EXISTING_DESCRIPTION,
		displayOptions: { show: { ...show, '@version': [1] } },
	},
	{
		displayName: 'Skip Contacts Already Called',
		name: 'skipExisting',
		type: 'boolean',
		default: true,
		description: SKIP_EXISTING_DESCRIPTION,
		displayOptions: { show: { ...show, '@version': [1.1] } },
	},
	optionsCollection(show, [
		{
			displayName: 'Batch Size',
			name: 'batchSize',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_BATCH_SIZE },
			default: DEFAULT_BATCH_SIZE,
			description: 'How many contacts to send in one request. One request creates one run with a task per contact.',
		},
		{
			displayName: 'Lookback (Hours)',
			name: 'lookbackHours',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 720 },
			default: DEFAULT_LOOKBACK_HOURS,
			description: 'With Skip Contacts Already Called: how far back to look for tasks of the same contacts',
		},
		{
			displayName: 'Max Wait (Seconds)',
			name: 'maxWaitSeconds',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: DEFAULT_MAX_WAIT_SECONDS,
			description:
				'How long this node may wait in all on Unpod rate limits (429, for Retry-After) and retries of failed requests, before it stops and reports the rows not created',
		},
		{
			displayName: 'Default Country Code',
			name: 'defaultCountryCode',
			type: 'string',
			default: '',
			placeholder: 'e.g. +1',
			description:
				'Added to numbers without a country code (a leading 0 is dropped). Numbers that start with + or 00, or already with this code, are left as they are.',
		},
	]),
];

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

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
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
	/** Rows whose tasks this run created or found created before (the journal): counted in messages. */
	const created = new Set<Row>();
	const countCreated = () => created.size;
	const failed = (row: Row, error: NodeApiError | NodeOperationError, wasCreated: boolean | 'unknown') =>
		results.set(row, failedItem(this, row.echo, row.itemIndex, error, { unpod_created: wasCreated }));
	for (const row of rows) {
		const done = journal.get(row);
		if (!done) toSend.push(row);
		else if ('unknown' in done) {
			// Sent before in this run with no telling whether Unpod took it: never sent again.
			unknown.push(row);
			failed(row, new NodeOperationError(this.getNode(), done.unknown, { itemIndex: row.itemIndex }), 'unknown');
		} else {
			created.add(row);
			results.set(row, { json: { ...row.echo, ...done.created }, pairedItem: { item: row.itemIndex } });
		}
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
				created.add(row);
				results.set(row, { json: { ...row.echo, ...answer }, pairedItem: { item: row.itemIndex } });
			});
		} catch (error) {
			const failure = asNodeError(this.getNode(), error, batch[0].itemIndex);
			if (markMaybeDone(error, failure, 'created these tasks', 'Check the space before sending these rows again')) {
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
						`${failure.message}. Created ${countCreated()} of ${rows.length} contacts; ` +
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
			`Unpod may or may not have created the tasks of ${rowList(unknown)}: the answer was lost. Created ${countCreated()} of ${rows.length} contacts`,
			{
				description:
					"Look these contacts up before sending them again: Unpod Task > Get Many with Search set to the contact's name (Unpod's search reads names, not the numbers of calls not made yet).",
			},
		);
	}

	// Output in input order: created rows and error items together.
	const byItem: INodeExecutionData[][] = items.map(() => []);
	for (const row of rows) byItem[row.itemIndex].push(results.get(row)!);
	for (const bad of invalid) {
		byItem[bad.itemIndex].push(failedItem(this, bad.echo, bad.itemIndex, bad.error, { unpod_created: false }));
	}
	return byItem.flat();
}
