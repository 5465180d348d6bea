/**
 * Task > Call and Wait: places one call per input item (sent as Create sends them) and waits
 * until each call ends, then puts out each item's outcome. Wait Mode says how: in this
 * execution, asking Unpod every few seconds until Max Call Wait (waitForCalls/follow.ts); or
 * parked in n8n's database until this package's triggers relay the calls' end
 * (waitForCalls/park.ts), up to Limit Wait Time.
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
import { numberOption } from '../../../shared/parameters';
import { cancelSignalOf } from '../../../shared/retry';
import {
	callContextField,
	callingHoursField,
	countryCodeOption,
	DEFAULT_BATCH_SIZE,
	lookbackOption,
	hoursOptions,
	rateLimitWaitOption,
	skipExistingField,
} from '../../placeCalls/fields';
import { CallingHours } from '../../../shared/callingHours/callee';
import type { RowHours } from '../../mayCall/contactRow';
import { doNotCallFields } from '../../mayCall/doNotCall';
import { callerFields, openingLanguageOption } from '../../mayCall/caller';
import { consentFields } from '../../mayCall/consent';
import { allowedNumbersOptions } from '../../mayCall/numbers';
import { maxCallsPerDayOption } from '../../mayCall/dailyCap';
import { rowItems, stopOnRefusedRows } from '../../placeCalls/output';
import { readRows } from '../../placeCalls/readRows';
import { rateLimitBudget, refuseInvalidRows, sendRows } from '../../placeCalls/send';
import { followCalls, followedTask, outcomeOf } from '../../waitForCalls/follow';
import type { Followed } from '../../waitForCalls/follow';
import type { Waiting } from '../../waitForCalls/park';
import { keepWaiting, limitWaitOption, refusePlainTool, sendAndPark } from '../../waitForCalls/park';
import { endedCallsOf, waitItemOf } from '../../waitForCalls/ownCalls';
import type { TaskOption } from './taskOption';

const show = { operation: ['callAndWait'] };
const inExecution = { ...show, waitMode: ['inExecution'] };
const untilReported = { ...show, waitMode: ['untilReported'] };

const checkEveryOption: INodeProperties = {
	displayName: 'Check Every (Seconds)',
	name: 'checkSeconds',
	type: 'number',
	typeOptions: { minValue: 5 },
	default: 15,
	description: 'How often to ask Unpod how the calls stand',
	hint: 'One request per 100 calls a check; checks slow down (up to twice this) while nothing changes',
	displayOptions: { show: { '/waitMode': ['inExecution'] } },
};

const maxCallWaitOption: INodeProperties = {
	displayName: 'Max Call Wait (Minutes)',
	name: 'maxCallWaitMinutes',
	type: 'number',
	typeOptions: { minValue: 0.5, maxValue: 60, numberPrecision: 1 },
	default: 10,
	description: 'How long to wait in all, from the start of this node, for the calls to end',
	hint: 'A call still open then comes out with unpod_wait_status "timed_out", its task ID and its last status: it may still take place',
	displayOptions: { show: { '/waitMode': ['inExecution'] } },
};

/** Until Unpod reports: resumed at the execution's own address (n8n's Wait node's kind). */
const waits: Waiting = { resumeAddress: 'execution', webhook };

export const option: TaskOption = {
	name: 'Call and Wait',
	value: 'callAndWait',
	action: 'Call a contact and wait for the outcome',
	description:
		'Place one call per input item and wait until it ends (or Max Call Wait passes), then output what the person said',
	run: { allItems: execute },
	waits,
};

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
	...callerFields(show),
	skipExistingField(inExecution),
	...doNotCallFields(show),
	...consentFields(show),
	callingHoursField(
		show,
		"Whether to call each contact only when the law of the place where the phone rings allows (its days, hours, holidays and limits, in the callee's time zone). In This Execution, a contact outside them is not called and its item says when it may be; Until Unpod Reports, the calls are scheduled for the first time legal for all, within Limit Wait Time.",
	),
	optionsCollection(show, [
		checkEveryOption,
		countryCodeOption,
		limitWaitOption('Calls still open then: the input items go on unchanged, without unpod_wait_status', {
			'/waitMode': ['untilReported'],
		}),
		{ ...lookbackOption, displayOptions: { show: { '/waitMode': ['inExecution'] } } },
		maxCallWaitOption,
		rateLimitWaitOption,
		...hoursOptions,
		...allowedNumbersOptions,
		openingLanguageOption,
		maxCallsPerDayOption,
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
	const { rows, invalid, refused } = readRows(context, context.getInputData(), hoursReading('schedule'));
	// Nothing is put out before the resume: a row that cannot be sent stops the whole run.
	refuseInvalidRows(invalid);
	stopOnRefusedRows(context, refused);
	await sendAndPark(context, waits, rows, 'Space, Agent and Call Context');
	return context.getInputData();
}

/** A ring at the resume address: once every call has ended, resumes with each call's outcome. */
async function webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const calls = await endedCallsOf(this);
	if (typeof calls === 'string') return keepWaiting(this, calls);
	const simplify = this.getNodeParameter('simplify', true) as boolean;
	return {
		workflowData: [
			calls.map((task) => ({ json: outcomeOf(followedTask(task), simplify), pairedItem: { item: waitItemOf(task) } })),
		],
	};
}

/**
 * Calling hours as each wait mode keeps them: in the execution, a contact outside them is held
 * (the item says when); until reported, the calls are scheduled for a time legal for all.
 */
const hoursReading = (outside: RowHours['outside']) => ({
	book: new CallingHours(),
	outside: () => outside,
});

async function waitInExecution(context: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const startedAt = Date.now();
	const items = context.getInputData();
	const continueOnFail = context.continueOnFail();
	const maxCallWaitMinutes = numberOption(context, maxCallWaitOption);
	const checkSeconds = numberOption(context, checkEveryOption);
	const signal = cancelSignalOf(context);

	const { rows, invalid, refused } = readRows(context, items, hoursReading('hold'));
	if (!continueOnFail) refuseInvalidRows(invalid);
	const sent = await sendRows(context, rows, {
		batchSize: DEFAULT_BATCH_SIZE,
		budget: rateLimitBudget(context),
		continueOnFail,
		skipCalledContacts: true,
		maxCallsPerDay: numberOption(context, maxCallsPerDayOption),
	});

	const followed = new Map<number, Followed>();
	rows.forEach((row, index) => {
		const result = sent.get(row)!;
		if (result.kind === 'failed' || result.kind === 'held') return;
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

	return rowItems(context, items.length, { rows, results: sent, invalid, refused }, (_, row, index) =>
		outcomeOf(followed.get(index)!, context.getNodeParameter('simplify', row.itemIndex, true) as boolean),
	);
}
