/**
 * Waiting for calls holding no worker, shared by Call and Wait for Approval and Call and Wait
 * "until Unpod reports": `sendAndPark` sends all the calls in one request, each document carrying
 * the execution's resume address, keeps their run and task IDs with the execution, and parks it;
 * each operation's `webhook()`, rung by the triggers (see shared/resume.ts), reads those calls
 * from Unpod with `endedCallsOf` (ownCalls.ts) and resumes once all have ended.
 */
import { NodeOperationError } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	IWebhookDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { numberOption } from '../../shared/parameters';
import { newWaitToken, RESUME_FIELD, WAIT_CALLS, WAIT_ITEM, WAIT_TOKEN, waitKeyOf } from '../../shared/resume';
import { calleeFields, commonSlot, scheduleAt, setSchedule } from '../mayCall/whenToCall';
import type { Row } from '../mayCall/contactRow';
import { rateLimitBudget, sendRows } from '../placeCalls/send';
import { keepOwnCalls } from './ownCalls';
import { maxCallsPerDayOption } from '../mayCall/dailyCap';

/**
 * How an operation that waits holding no worker is resumed: the address n8n checks, and what a
 * ring at it does (declared with the operation, in resources/task/index.ts).
 */
export interface Waiting {
	/**
	 * `signed`: n8n's send-and-wait signature (the approval, which n8n's human review for AI tools
	 * runs as a send-and-wait node); `execution`: the execution's own resume address.
	 */
	resumeAddress: 'signed' | 'execution';
	/** A ring at the resume address: resumes once every call has ended, or keeps waiting. */
	webhook: (this: IWebhookFunctions) => Promise<IWebhookResponseData>;
}

/** One create request: the calls of one wait share a run, which the waiting node reads back. */
export const MAX_WAITING_CALLS = 100;

/**
 * n8n's resume webhooks for a waiting node, as its own send-and-wait nodes declare them: GET
 * and POST at the node's ID, used only to resume an execution this node put to wait.
 */
export const RESUME_WEBHOOKS: IWebhookDescription[] = [
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

const LIMIT_WAIT: INodeProperties = {
	displayName: 'Limit Wait Time (Minutes)',
	name: 'limitWaitMinutes',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 10080 },
	default: 30,
	description: 'How long the execution waits for the calls to end; then the input items go on unchanged',
};

/** Limit Wait Time, one name for both operations that wait holding no worker. */
export function limitWaitOption(
	hint: string,
	show?: NonNullable<INodeProperties['displayOptions']>['show'],
): INodeProperties {
	return { ...LIMIT_WAIT, hint, ...(show ? { displayOptions: { show } } : {}) };
}

/** An AI agent's plain tool cannot leave its run to wait: only the human-review form can. */
export function refusePlainTool(context: IExecuteFunctions, what: string, instead: string): void {
	const type = context.getNode().type;
	if (type.endsWith('Tool') && !type.endsWith('HitlTool')) {
		throw new NodeOperationError(context.getNode(), `${what} cannot run as an AI tool: ${instead}`);
	}
}

/** Every row or none in one request: the wait follows the calls of one run. */
function refuseSplitRows(context: IExecuteFunctions, rows: Row[], sameFields: string): void {
	if (rows.length > MAX_WAITING_CALLS) {
		throw new NodeOperationError(
			context.getNode(),
			`At most ${MAX_WAITING_CALLS} calls can be waited for in one run of this node; it got ${rows.length}`,
			{ description: 'Put a Loop Over Items node (batch size 100) before this one.' },
		);
	}
	const other = rows.find((row) => row.group !== rows[0].group);
	const [first] = rows;
	if (other?.opening && first.opening) {
		const opens = (row: Row) =>
			`${row.opening?.language}${row.opening?.commercial ? ', saying the call is commercial' : ''}`;
		const language = other.opening.language !== first.opening.language;
		if (language || other.opening.commercial !== first.opening.commercial)
			throw new NodeOperationError(
				context.getNode(),
				`Item ${other.itemIndex + 1}: its call opens in ${opens(other)}, item ${first.itemIndex + 1}'s in ${opens(first)}; the calls of one wait go in one request, with one opening`,
				{
					itemIndex: other.itemIndex,
					description: language
						? 'Set Options > Opening Language to one language for every contact, or wait for these contacts in separate runs.'
						: "France's sales calls say they are commercial (Code de la consommation L221-16): wait for them in a run of their own.",
				},
			);
	}
	if (other) {
		throw new NodeOperationError(
			context.getNode(),
			`Item ${other.itemIndex + 1}: ${sameFields} must be the same for every item when the execution waits holding no worker`,
			{ itemIndex: other.itemIndex, description: 'All calls of one wait go to Unpod in one request.' },
		);
	}
}

/**
 * This execution's address for resuming this node, with `query`. n8n checks a send-and-wait
 * node's address by its signature (2.8 and 1.x only when asked), and on 2.41 any other
 * waiting node's by the execution's resume token, which `$execution.resumeUrl` carries; 2.8
 * and 1.x check no other. Whatever a ring's address or body says, the node resumes only with
 * calls read from Unpod whose documents carry its random wait token.
 */
function resumeAddress(context: IExecuteFunctions, waiting: Waiting, query: Record<string, string>): string {
	const node = context.getNode();
	if (waiting.resumeAddress === 'signed') {
		const validation = (context as { setSignatureValidationRequired?: () => void }).setSignatureValidationRequired;
		if (typeof validation === 'function') validation.call(context);
		return context.getSignedResumeUrl(query);
	}
	const url = new URL(String(context.getWorkflowDataProxy(0).$execution.resumeUrl));
	url.pathname = `${url.pathname.replace(/\/+$/, '')}/${node.id}`;
	for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
	return url.toString();
}

/**
 * Sends the rows in one request, each document carrying this execution's resume address,
 * then puts the execution to wait until the calls end or Limit Wait Time passes.
 */
export async function sendAndPark(
	context: IExecuteFunctions,
	waiting: Waiting,
	rows: Row[],
	sameFields: string,
): Promise<void> {
	// No call placed, nothing to wait for.
	if (!rows.length) return;
	refuseSplitRows(context, rows, sameFields);
	const limitMinutes = numberOption(context, LIMIT_WAIT);
	const now = Date.now();
	// One request, so one time for every call: the first legal for every callee, within the wait.
	const slot = commonSlot(context, rows, now, now + limitMinutes * 60_000, context.getNode().name);
	if (slot !== undefined) {
		for (const row of rows) {
			setSchedule(row, scheduleAt(slot));
			// Rows of one callee share their RowHours: each gets its own with the note.
			if (row.hours)
				row.hours = {
					...row.hours,
					note: { ...calleeFields(row.hours, now), scheduled_at: new Date(slot).toISOString() },
				};
		}
	}
	const key = await waitKeyOf(context);
	const token = newWaitToken(key, String(context.getExecutionId()), context.getNode().id);
	const resumeUrl = resumeAddress(context, waiting, { [WAIT_TOKEN]: token });
	for (const row of rows) {
		row.document = {
			...row.document,
			[RESUME_FIELD]: resumeUrl,
			[WAIT_ITEM]: row.itemIndex,
			[WAIT_CALLS]: rows.length,
		};
	}
	const sent = await sendRows(context, rows, {
		batchSize: MAX_WAITING_CALLS,
		budget: rateLimitBudget(context),
		continueOnFail: false,
		// The calls of one wait go in one request: none is left out as called already.
		skipCalledContacts: false,
		allOrNone: true,
		maxCallsPerDay: numberOption(context, maxCallsPerDayOption),
	});
	const created: IDataObject[] = [];
	for (const row of rows) {
		const result = sent.get(row);
		if (result?.kind === 'failed') throw result.error;
		if (result?.kind === 'created') created.push(result.answer);
	}
	const ids = created.map((answer) => answer.task_id);
	keepOwnCalls(context, {
		token,
		space: rows[0].request.space,
		run: typeof created[0]?.run_id === 'string' ? created[0].run_id : '',
		tasks: ids.every((id) => typeof id === 'string' && id) ? (ids as string[]) : [],
	});
	await context.putExecutionToWait(new Date(Date.now() + limitMinutes * 60_000));
}

/** Answers a ring without resuming: the execution goes on waiting (or was never put to wait). */
export function keepWaiting(context: IWebhookFunctions, reason: string): IWebhookResponseData {
	context.getResponseObject().status(200).json({ resumed: false, reason });
	return { noWebhookResponse: true };
}
