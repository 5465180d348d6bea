/**
 * Task > Call and Wait for Approval (`sendAndWait`, the operation name n8n's human review for AI
 * tools looks for): one call per item asks the approver; the execution then waits, holding no
 * worker, until a trigger of this package relays the call's end to the resume address the call
 * carries, or Limit Wait Time passes. The ring is a doorbell: the outcome is read from Unpod.
 */
import { randomBytes } from 'crypto';
import { NodeOperationError } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	IWebhookDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import {
	APPROVAL_CALLS,
	APPROVAL_ITEM,
	APPROVAL_TOKEN,
	approvalItem,
	approvalTokenOf,
	approvedValuesOf,
	DEFAULT_APPROVED_VALUES,
	RESUME_FIELD,
} from '../../../shared/approvals';
import { contactFields, toContactDocument } from '../../../shared/contacts';
import { agentLocator, optionsCollection, spaceLocator } from '../../../shared/descriptions';
import { bounded, runOption, sameForEveryItem } from '../../../shared/parameters';
import { readRunTasks } from '../../../shared/runTasks';
import { isFinal } from '../../../shared/tasks';
import type { Row } from './create.rows';
import { rateLimitBudget, sendRows } from './create.send';
import { countryCodeOption, rateLimitWaitOption } from './task.fields';

const show = { operation: ['sendAndWait'] };

export const DEFAULT_LIMIT_WAIT_MINUTES = 30;
/** One create request: the calls of one approval share a run, which the waiting node reads back. */
export const MAX_APPROVAL_CALLS = 100;

/**
 * n8n's resume webhooks for a waiting node, as its own send-and-wait nodes declare them: GET
 * and POST at the node's ID, used only to resume an execution this node put to wait.
 */
export const APPROVAL_WEBHOOKS: IWebhookDescription[] = [
	{
		name: 'default',
		httpMethod: 'GET',
		responseMode: 'onReceived',
		responseData: '',
		path: '={{ $nodeId }}',
		restartWebhook: true,
		isFullPath: true,
	},
	{
		name: 'default',
		httpMethod: 'POST',
		responseMode: 'onReceived',
		responseData: '',
		path: '={{ $nodeId }}',
		restartWebhook: true,
		isFullPath: true,
	},
];

export const description: INodeProperties[] = [
	{
		displayName:
			"This operation places a real, paid call to the approver and waits, holding no worker, until the call ends or Limit Wait Time passes. The end reaches n8n through this package's Call Events Trigger (or the Unpod Trigger's poll) in an active workflow on the same agent.",
		name: 'sendAndWaitNotice',
		type: 'notice',
		default: '',
		displayOptions: { show },
	},
	spaceLocator(show),
	agentLocator(show),
	...contactFields(show),
	{
		displayName: 'Message',
		name: 'message',
		type: 'string',
		typeOptions: { rows: 3 },
		required: true,
		default: '',
		placeholder: 'e.g. The assistant wants to refund 120 EUR on order 1234. Do you approve?',
		description: 'What the agent asks the approver: what is to be approved and why (the call context)',
		displayOptions: { show },
	},
	optionsCollection(show, [
		{
			displayName: 'Approved Values',
			name: 'approvedValues',
			type: 'string',
			default: DEFAULT_APPROVED_VALUES,
			description:
				"Comma-separated answers of the agent's post-call analysis that mean approved (a label, the summary status, the outcome, or structured_data.decision)",
			hint: 'Anything else (declined, unclear, not answered, a timeout) is not approved',
		},
		countryCodeOption,
		{
			displayName: 'Limit Wait Time (Minutes)',
			name: 'limitWaitMinutes',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 10080 },
			default: DEFAULT_LIMIT_WAIT_MINUTES,
			description: 'How long the execution waits for the calls to end; then the input items go on unchanged',
			hint: 'A timed-out wait puts out the input items without `approved`: treat that as not approved',
		},
		rateLimitWaitOption,
	]),
];

/** An AI agent's plain tool cannot leave its run to wait: only the human-review form can. */
function refusePlainTool(context: IExecuteFunctions): void {
	const type = context.getNode().type;
	if (type.endsWith('Tool') && !type.endsWith('HitlTool')) {
		throw new NodeOperationError(
			context.getNode(),
			'Call and Wait for Approval cannot run as an AI tool: use it as the human review of a tool, or use Call and Wait',
		);
	}
}

/** The rows to send: the approver of each item, their document carrying the resume address. */
function approvalRows(context: IExecuteFunctions, resumeUrl: string): Row[] {
	const items = context.getInputData();
	const space = sameForEveryItem(context, 'Space', (i) =>
		context.getNodeParameter('space', i, '', { extractValue: true }),
	) as string;
	const agent = sameForEveryItem(context, 'Agent', (i) =>
		context.getNodeParameter('agent', i, '', { extractValue: true }),
	) as string;
	// Unpod takes one context a request, and the calls of one approval go in one request.
	const message = sameForEveryItem(context, 'Message', (i) =>
		String(context.getNodeParameter('message', i, '') ?? '').trim(),
	);
	if (!message) {
		throw new NodeOperationError(context.getNode(), 'Message is empty: say what the approver is asked to approve');
	}
	const body: IDataObject = { pilot: agent, schedule: { type: 'now' }, context: message };
	return items.map((item, itemIndex) => {
		const fail = (problem: string) =>
			new NodeOperationError(context.getNode(), `Item ${itemIndex + 1}: ${problem}`, { itemIndex });
		const options = context.getNodeParameter('options', itemIndex, {}) as IDataObject;
		const contact = toContactDocument(
			{
				...(context.getNodeParameter('contactFields', itemIndex, {}) as IDataObject),
				name: context.getNodeParameter('contactName', itemIndex, ''),
				contact_number: context.getNodeParameter('contactNumber', itemIndex, ''),
			},
			String(options.defaultCountryCode ?? ''),
		);
		if ('field' in contact) throw fail(`the approver's ${contact.message}`);
		return {
			itemIndex,
			echo: item.json,
			document: {
				...contact.document,
				[RESUME_FIELD]: resumeUrl,
				[APPROVAL_ITEM]: itemIndex,
				[APPROVAL_CALLS]: items.length,
			},
			// One request for all: the waiting node finds the calls again in their run.
			group: JSON.stringify([space, agent]),
			request: { space, body },
			countryCode: String(options.defaultCountryCode ?? ''),
		};
	});
}

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	refusePlainTool(this);
	const items = this.getInputData();
	if (items.length > MAX_APPROVAL_CALLS) {
		throw new NodeOperationError(
			this.getNode(),
			`Call and Wait for Approval places at most ${MAX_APPROVAL_CALLS} calls a run; it got ${items.length} items`,
		);
	}
	const limitMinutes = bounded(
		this,
		runOption(this, 'limitWaitMinutes', 'Limit Wait Time (Minutes)'),
		'Limit Wait Time (Minutes)',
		DEFAULT_LIMIT_WAIT_MINUTES,
		1,
		10080,
	);
	// n8n 2.8 and 1.x check the resume address's signature only when asked; 2.41 always does.
	const validation = (this as { setSignatureValidationRequired?: () => void }).setSignatureValidationRequired;
	if (typeof validation === 'function') validation.call(this);
	const resumeUrl = this.getSignedResumeUrl({ [APPROVAL_TOKEN]: randomBytes(16).toString('hex') });

	const rows = approvalRows(this, resumeUrl);
	// Every row or none: an approval waits for all its calls.
	const sent = await sendRows(this, rows, {
		batchSize: MAX_APPROVAL_CALLS,
		budget: rateLimitBudget(this),
		continueOnFail: false,
	});
	for (const row of rows) {
		const result = sent.get(row);
		if (result?.kind === 'failed') throw result.error;
	}
	await this.putExecutionToWait(new Date(Date.now() + limitMinutes * 60_000));
	return items;
}

/** Answers a ring without resuming: the execution goes on waiting. */
function keepWaiting(context: IWebhookFunctions, reason: string): IWebhookResponseData {
	context.getResponseObject().status(200).json({ resumed: false, reason });
	return { noWebhookResponse: true };
}

/**
 * A ring at the resume address: reads the approval's calls from Unpod (the run named in the
 * ring, whose tasks must carry this address's token) and resumes once every one has ended.
 * What the ring's body says of the outcome is never read.
 */
export async function webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const token = String(this.getRequestObject().query?.[APPROVAL_TOKEN] ?? '');
	const body = this.getBodyData() as IDataObject;
	const runId = typeof body.run_id === 'string' ? body.run_id : '';
	if (!token || !/^R?[0-9a-zA-Z_-]{1,64}$/.test(runId)) return keepWaiting(this, 'The ring names no run');
	const space = this.getNodeParameter('space', '', { extractValue: true }) as string;
	let tasks: IDataObject[];
	try {
		tasks = await readRunTasks(this, space, runId);
	} catch (error) {
		this.logger.warn(`Call and Wait for Approval could not read run ${runId} from Unpod: ${(error as Error).message}`);
		return keepWaiting(this, 'The run could not be read from Unpod');
	}
	const calls = tasks
		.filter((task) => approvalTokenOf(task.input) === token)
		.sort((a, b) => Number((a.input as IDataObject)[APPROVAL_ITEM]) - Number((b.input as IDataObject)[APPROVAL_ITEM]));
	if (!calls.length) return keepWaiting(this, 'No call of this approval in that run');
	const expected = Number((calls[0].input as IDataObject)[APPROVAL_CALLS]) || calls.length;
	if (calls.length < expected || calls.some((task) => !isFinal(task.status))) {
		return keepWaiting(this, 'A call of this approval is still open');
	}
	const approvedValues = approvedValuesOf((this.getNodeParameter('options', {}) as IDataObject).approvedValues);
	return {
		workflowData: [
			calls.map((task) => ({
				json: approvalItem(task, approvedValues),
				pairedItem: { item: Number((task.input as IDataObject)[APPROVAL_ITEM]) || 0 },
			})),
		],
	};
}
