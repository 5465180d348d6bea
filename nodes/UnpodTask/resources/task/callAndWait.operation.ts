/**
 * Task > Call and Wait: places one call per input item (sent as Create sends them) and waits
 * until each call ends, then puts out each item's outcome. Wait Mode says how: in this
 * execution, asking Unpod every few seconds until Max Call Wait; or parked in n8n's database
 * until this package's triggers relay the calls' end (waitForReport.ts), up to Limit Wait Time.
 */
import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { contactFields } from '../../../shared/contacts';
import { agentLocator, optionsCollection, simplifyField, spaceLocator } from '../../../shared/descriptions';
import { failedItem } from '../../../shared/itemLoop';
import { bounded, runOption } from '../../../shared/parameters';
import { cancelSignalOf } from '../../../shared/retry';
import { followCalls, followedTask, outcomeOf } from './callAndWait.follow';
import type { Followed } from './callAndWait.follow';
import { DEFAULT_BATCH_SIZE } from './create.operation';
import { readRows } from './create.rows';
import { rateLimitBudget, refuseInvalidRows, sendRows } from './create.send';
import {
	callContextField,
	countryCodeOption,
	lookbackOption,
	rateLimitWaitOption,
	skipExistingField,
} from './task.fields';
import { endedCallsOf, keepWaiting, limitWaitOption, refusePlainTool, sendAndPark, waitItemOf } from './waitForReport';

const show = { operation: ['callAndWait'] };
const inExecution = { ...show, waitMode: ['inExecution'] };
const untilReported = { ...show, waitMode: ['untilReported'] };

export const DEFAULT_CALL_WAIT_MINUTES = 10;
export const MAX_CALL_WAIT_MINUTES = 60;
export const DEFAULT_CHECK_SECONDS = 15;
export const MIN_CHECK_SECONDS = 5;

/** What a model is told of the tool when it is an AI agent's tool (the example workflow uses it). */
export const TOOL_DESCRIPTION =
	'Places one real phone call with an Unpod voice agent to the contact given, and waits for the call to end ' +
	'(usually 1 to 5 minutes, at most the Max Call Wait set on the tool) before answering with what the person said: ' +
	'call_status, call_summary, outcome, next_action, the transcript and unpod_wait_status ("ended", or "timed_out" if ' +
	'the call was still going). Each use is a paid call to a person: use it only when the user asked for a call, ' +
	'once per contact, and never to retry a call that ended.';

export const description: INodeProperties[] = [
	{
		displayName:
			"This operation places real, paid calls and holds the execution until they end or Max Call Wait passes. Set n8n's execution timeout above it; as an AI agent's tool, fix the numbers the model may call.",
		name: 'callAndWaitNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: inExecution },
	},
	{
		displayName:
			"This operation places real, paid calls, then waits in n8n's database, holding no worker, until this package's Call Events Trigger (or the Unpod Trigger's poll), in an active workflow on the same agent, relays the calls' end.",
		name: 'untilReportedNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: untilReported },
	},
	{
		displayName: 'Wait Mode',
		name: 'waitMode',
		type: 'options',
		noDataExpression: true,
		default: 'inExecution',
		options: [
			{
				name: 'In This Execution',
				value: 'inExecution',
				description:
					'Ask Unpod how the calls stand every few seconds, holding the execution (and its worker) until they end or Max Call Wait (at most 60 minutes) passes',
			},
			{
				name: 'Until Unpod Reports the End',
				value: 'untilReported',
				description:
					"Hold no worker and send no request while the calls are open: the execution resumes when this package's trigger relays their end, or Limit Wait Time passes",
			},
		],
		hint: 'Until Unpod Reports: at most 100 calls a run, with the same Space, Agent and Call Context, and no check for contacts already called',
		displayOptions: { show },
	},
	spaceLocator(show),
	agentLocator(show),
	...contactFields(show),
	callContextField(show),
	skipExistingField(inExecution),
	optionsCollection(show, [
		{
			displayName: 'Check Every (Seconds)',
			name: 'checkSeconds',
			type: 'number',
			typeOptions: { minValue: MIN_CHECK_SECONDS },
			default: DEFAULT_CHECK_SECONDS,
			description: 'How often to ask Unpod how the calls stand',
			hint: 'One request per 100 calls a check; checks slow down (up to twice this) while nothing changes',
			displayOptions: { show: { '/waitMode': ['inExecution'] } },
		},
		countryCodeOption,
		limitWaitOption('Calls still open then: the input items go on unchanged, without unpod_wait_status', {
			'/waitMode': ['untilReported'],
		}),
		{ ...lookbackOption, displayOptions: { show: { '/waitMode': ['inExecution'] } } },
		{
			displayName: 'Max Call Wait (Minutes)',
			name: 'maxCallWaitMinutes',
			type: 'number',
			typeOptions: { minValue: 0.5, maxValue: MAX_CALL_WAIT_MINUTES, numberPrecision: 1 },
			default: DEFAULT_CALL_WAIT_MINUTES,
			description: 'How long to wait in all, from the start of this node, for the calls to end',
			hint: 'A call still open then comes out with unpod_wait_status "timed_out", its task ID and its last status: it may still take place',
			displayOptions: { show: { '/waitMode': ['inExecution'] } },
		},
		rateLimitWaitOption,
	]),
	simplifyField(show),
];

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const waitMode = this.getNodeParameter('waitMode', 0, 'inExecution') as string;
	return waitMode === 'untilReported' ? await parkUntilReported(this) : await waitInExecution(this);
}

/** Until Unpod reports: every call in one request, then the execution waits holding no worker. */
async function parkUntilReported(context: IExecuteFunctions): Promise<INodeExecutionData[]> {
	refusePlainTool(context, 'Call and Wait until Unpod reports', 'set Wait Mode to In This Execution');
	const { rows, invalid } = readRows(context, context.getInputData());
	// Nothing is put out before the resume: a row that cannot be sent stops the whole run.
	refuseInvalidRows(invalid);
	for (const row of rows) row.lookbackHours = undefined;
	await sendAndPark(context, rows, 'Space, Agent and Call Context');
	return context.getInputData();
}

/** A ring at the resume address: once every call has ended, resumes with each call's outcome. */
export async function webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const calls = await endedCallsOf(this);
	if (typeof calls === 'string') return keepWaiting(this, calls);
	const simplify = this.getNodeParameter('simplify', true) as boolean;
	return {
		workflowData: [
			calls.map((task) => ({ json: outcomeOf(followedTask(task), simplify), pairedItem: { item: waitItemOf(task) } })),
		],
	};
}

async function waitInExecution(context: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const startedAt = Date.now();
	const items = context.getInputData();
	const continueOnFail = context.continueOnFail();
	const maxCallWaitMinutes = bounded(
		context,
		runOption(context, 'maxCallWaitMinutes', 'Max Call Wait (Minutes)'),
		'Max Call Wait (Minutes)',
		DEFAULT_CALL_WAIT_MINUTES,
		0.5,
		MAX_CALL_WAIT_MINUTES,
	);
	const checkSeconds = bounded(
		context,
		runOption(context, 'checkSeconds', 'Check Every (Seconds)'),
		'Check Every (Seconds)',
		DEFAULT_CHECK_SECONDS,
		MIN_CHECK_SECONDS,
	);
	const signal = cancelSignalOf(context);

	const { rows, invalid } = readRows(context, items);
	if (!continueOnFail) refuseInvalidRows(invalid);
	const sent = await sendRows(context, rows, {
		batchSize: DEFAULT_BATCH_SIZE,
		budget: rateLimitBudget(context),
		continueOnFail,
	});

	const followed = new Map<number, Followed>();
	rows.forEach((row, index) => {
		const result = sent.get(row)!;
		if (result.kind === 'failed') return;
		const { answer } = result;
		const call: Followed = {
			space: row.request.space,
			runId: typeof answer.run_id === 'string' ? answer.run_id : null,
			taskId: typeof answer.task_id === 'string' ? answer.task_id : null,
			document: row.document,
			status: typeof answer.task_status === 'string' ? answer.task_status : null,
			notes: {},
		};
		if (answer.unpod_warning) call.notes.unpod_warning = answer.unpod_warning;
		if (result.kind === 'skipped') {
			// Not called again: its existing task is followed, or put out at once if it has ended.
			call.notes.unpod_skipped = answer.unpod_skipped;
			call.task = result.existing.listed;
		}
		followed.set(index, call);
	});

	await followCalls(context, [...followed.values()], {
		intervalMs: checkSeconds * 1000,
		deadline: startedAt + maxCallWaitMinutes * 60_000,
		signal,
	});

	const byItem: INodeExecutionData[][] = items.map(() => []);
	rows.forEach((row, index) => {
		const result = sent.get(row)!;
		byItem[row.itemIndex].push(
			result.kind === 'failed'
				? failedItem(context, row.echo, row.itemIndex, result.error, { unpod_created: result.created })
				: {
						json: outcomeOf(followed.get(index)!, context.getNodeParameter('simplify', row.itemIndex, true) as boolean),
						pairedItem: { item: row.itemIndex },
					},
		);
	});
	for (const bad of invalid) {
		byItem[bad.itemIndex].push(failedItem(context, bad.echo, bad.itemIndex, bad.error, { unpod_created: false }));
	}
	return byItem.flat();
}
