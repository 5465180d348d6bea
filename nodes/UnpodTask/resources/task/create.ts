import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { contactFields, toContactDocument } from '../../../shared/contacts';
import { agentLocator, spaceLocator } from '../../../shared/descriptions';
import { asNodeError } from '../../../shared/errors';
import { classifyFailure, DEFAULT_MAX_WAIT_SECONDS, WaitBudget } from '../../../shared/retry';
import { unpodApiRequest } from '../../../shared/transport';

const show = { resource: ['task'], operation: ['create'] };

/**
 * 100 contacts a request: the largest page size the API declares, a body of tens of kB,
 * and a failed request affects at most 100 rows, while 10,000 rows take 100 requests.
 */
export const DEFAULT_BATCH_SIZE = 100;
export const MAX_BATCH_SIZE = 500;

export const createFields: INodeProperties[] = [
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
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show },
		options: [
			{
				displayName: 'Batch Size',
				name: 'batchSize',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: MAX_BATCH_SIZE },
				default: DEFAULT_BATCH_SIZE,
				description: 'How many contacts to send in one request. One request creates one run with a task per contact.',
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
		],
	},
];

interface Row {
	itemIndex: number;
	/** Position of the contact in its item's JSON array (JSON mode). */
	position?: number;
	/** What the output item repeats: the input row, or the document. */
	echo: IDataObject;
	document: IDataObject;
	/** Everything that must be equal for rows to share a request. */
	group: string;
	request: { space: string; body: IDataObject };
}

/**
 * Rows already created in this execution, by node: n8n's Retry On Fail runs the node
 * again within the same execution, and these rows must not be sent a second time.
 */
const createdInExecution = new Map<string, Map<string, IDataObject>>();
const KEEP_EXECUTIONS = 50;

function journalFor(context: IExecuteFunctions): Map<string, IDataObject> {
	const key = `${context.getExecutionId() ?? 'manual'}:${context.getNode().id ?? context.getNode().name}`;
	let journal = createdInExecution.get(key);
	if (!journal) {
		journal = new Map();
		createdInExecution.set(key, journal);
		while (createdInExecution.size > KEEP_EXECUTIONS) {
			createdInExecution.delete(createdInExecution.keys().next().value as string);
		}
	}
	return journal;
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

const rowKey = (row: Row) => `${row.itemIndex}:${row.position ?? ''}:${JSON.stringify(row.document)}`;
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

/** "rows 3, 5-9" (input item numbers, from 1). */
function rowList(rows: Row[]): string {
	const numbers = [...new Set(rows.map((r) => r.itemIndex + 1))].sort((a, b) => a - b);
	const ranges: string[] = [];
	for (let i = 0; i < numbers.length; i++) {
		let j = i;
		while (j + 1 < numbers.length && numbers[j + 1] === numbers[j] + 1) j++;
		ranges.push(j > i ? `${numbers[i]}-${numbers[j]}` : String(numbers[i]));
		i = j;
	}
	return `${numbers.length === 1 ? 'row' : 'rows'} ${ranges.join(', ')}`;
}

const countCreated = (results: Map<Row, INodeExecutionData>) =>
	[...results.values()].filter((r) => r.json.error === undefined).length;

function parseDocuments(value: unknown): IDataObject[] {
	const parsed = typeof value === 'string' ? JSON.parse(value) : value;
	if (Array.isArray(parsed)) return parsed as IDataObject[];
	if (parsed && typeof parsed === 'object') return [parsed as IDataObject];
	throw new Error('expected an array of contact documents');
}

function scheduleOf(context: IExecuteFunctions, itemIndex: number): IDataObject {
	const type = context.getNodeParameter('schedule', itemIndex, 'now') as string;
	if (type !== 'custom') return { type };
	const callAt = String(context.getNodeParameter('callAt', itemIndex, ''));
	const match = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})/.exec(callAt);
	if (!match) {
		throw new NodeOperationError(context.getNode(), `Call At "${callAt}" is not a date and time`, { itemIndex });
	}
	return { type: 'custom', calling_date: match[1], calling_time: match[2] };
}

/** Reads and checks every input item; nothing is sent until all are read. */
function readRows(context: IExecuteFunctions, items: INodeExecutionData[]) {
	const rows: Row[] = [];
	const invalid: Array<{ itemIndex: number; error: NodeOperationError; echo: IDataObject }> = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		const echoItem = items[itemIndex].json;
		try {
			const space = context.getNodeParameter('space', itemIndex, '', { extractValue: true }) as string;
			const pilot = context.getNodeParameter('pilot', itemIndex, '', { extractValue: true }) as string;
			const contextText = String(context.getNodeParameter('context', itemIndex, '') ?? '').trim();
			// Unpod refuses a whole request over a blank context: stop this row before anything is sent.
			if (!contextText) {
				throw new NodeOperationError(context.getNode(), `Row ${itemIndex + 1}: Call Context is empty`, {
					itemIndex,
					description:
						'Unpod requires a Call Context for every task: write the goal of the calls, or map a column that holds it.',
				});
			}
			const schedule = scheduleOf(context, itemIndex);
			const options = context.getNodeParameter('options', itemIndex, {}) as IDataObject;
			const countryCode = String(options.defaultCountryCode ?? '');
			const body: IDataObject = { pilot, schedule, context: contextText };
			const group = JSON.stringify([space, body]);

			const source = context.getNodeParameter('contactsSource', itemIndex, 'fields') as string;
			const contacts: Array<{ contact: IDataObject; echo: IDataObject; position?: number }> = [];
			if (source === 'json') {
				let documents: IDataObject[];
				try {
					documents = parseDocuments(context.getNodeParameter('documents', itemIndex));
				} catch (error) {
					throw new NodeOperationError(
						context.getNode(),
						`Row ${itemIndex + 1}: Contacts (JSON) is not valid: ${(error as Error).message}`,
						{
							itemIndex,
						},
					);
				}
				if (documents.length === 0) {
					throw new NodeOperationError(
						context.getNode(),
						`Row ${itemIndex + 1}: Contacts (JSON) is empty; give at least one contact`,
						{
							itemIndex,
						},
					);
				}
				documents.forEach((doc, position) => contacts.push({ contact: doc, echo: doc, position }));
			} else {
				contacts.push({
					echo: echoItem,
					contact: {
						...(context.getNodeParameter('contactFields', itemIndex, {}) as IDataObject),
						name: context.getNodeParameter('contactName', itemIndex, '') as string,
						contact_number: context.getNodeParameter('contactNumber', itemIndex, '') as string,
					},
				});
			}
			for (const { contact, echo, position } of contacts) {
				const result = toContactDocument(contact, countryCode);
				const where = `Row ${itemIndex + 1}${position === undefined ? '' : `, contact ${position + 1}`}`;
				if ('field' in result) {
					invalid.push({
						itemIndex,
						echo,
						error: new NodeOperationError(context.getNode(), `${where}: ${result.message}`, {
							itemIndex,
							description: `Field "${result.field}" of ${where.toLowerCase()} must be fixed; this contact was not sent.`,
						}),
					});
					continue;
				}
				rows.push({ itemIndex, position, echo, document: result.document, group, request: { space, body } });
			}
		} catch (error) {
			const failure =
				error instanceof NodeOperationError
					? error
					: new NodeOperationError(context.getNode(), `Row ${itemIndex + 1}: ${(error as Error).message}`, {
							itemIndex,
						});
			invalid.push({ itemIndex, echo: echoItem, error: failure });
		}
	}
	return { rows, invalid };
}

export async function executeCreate(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const items = this.getInputData();
	const continueOnFail = this.continueOnFail();
	const { rows, invalid } = readRows(this, items);

	if (invalid.length && !continueOnFail) {
		const [first] = invalid;
		const others = invalid.slice(1).map((r) => r.itemIndex + 1);
		first.error.message += `${others.length ? ` (also invalid: rows ${others.slice(0, 20).join(', ')}${others.length > 20 ? ', ...' : ''})` : ''}. Nothing was sent.`;
		throw first.error;
	}

	const options = this.getNodeParameter('options', 0, {}) as IDataObject;
	const batchSize = Math.min(MAX_BATCH_SIZE, Math.max(1, Number(options.batchSize) || DEFAULT_BATCH_SIZE));
	const budget = new WaitBudget(Number(options.maxWaitSeconds ?? DEFAULT_MAX_WAIT_SECONDS) * 1000);
	const journal = journalFor(this);
	const results = new Map<Row, INodeExecutionData>();
	const unknown: Row[] = [];
	const groups = new Map<string, Row[]>();
	const failed = (row: Row, error: NodeApiError | NodeOperationError, created: boolean | 'unknown') =>
		results.set(row, errorItem(this, row.echo, row.itemIndex, error, created));
	for (const row of rows) {
		const done = journal.get(rowKey(row));
		if (!done) {
			const group = groups.get(row.group);
			if (group) group.push(row);
			else groups.set(row.group, [row]);
		} else if (done.error) {
			// Sent before in this execution with no telling whether Unpod took it: never sent again.
			unknown.push(row);
			failed(row, new NodeOperationError(this.getNode(), String(done.error), { itemIndex: row.itemIndex }), 'unknown');
		} else results.set(row, { json: { ...row.echo, ...done }, pairedItem: { item: row.itemIndex } });
	}
	const batches = [...groups.values()].flatMap((groupRows) =>
		Array.from({ length: Math.ceil(groupRows.length / batchSize) }, (_, i) =>
			groupRows.slice(i * batchSize, (i + 1) * batchSize),
		),
	);

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
				journal.set(rowKey(row), created);
				results.set(row, { json: { ...row.echo, ...created }, pairedItem: { item: row.itemIndex } });
			});
		} catch (error) {
			const failure = asNodeError(this.getNode(), error, batch[0].itemIndex);
			if (classifyFailure(error, false).kind === 'ambiguous') {
				failure.message = `Unpod may or may not have created these tasks: ${failure.message}. Check the space before sending these rows again`;
				for (const row of batch) {
					journal.set(rowKey(row), { error: failure.message });
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
