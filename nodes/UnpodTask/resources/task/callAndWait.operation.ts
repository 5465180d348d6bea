/**
 * Task > Call and Wait: places one call per input item (sent as Create sends them) and waits
 * until each call ends or Max Call Wait passes, then puts out each item's outcome.
 */
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { contactFields } from '../../../shared/contacts';
import { agentLocator, optionsCollection, simplifyField, spaceLocator } from '../../../shared/descriptions';
import { failedItem } from '../../../shared/itemLoop';
import { bounded, runOption } from '../../../shared/parameters';
import { cancelSignalOf } from '../../../shared/retry';
import { followCalls, outcomeOf } from './callAndWait.follow';
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

const show = { operation: ['callAndWait'] };

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
		displayOptions: { show },
	},
	spaceLocator(show),
	agentLocator(show),
	...contactFields(show),
	callContextField(show),
	skipExistingField(show),
	optionsCollection(show, [
		{
			displayName: 'Check Every (Seconds)',
			name: 'checkSeconds',
			type: 'number',
			typeOptions: { minValue: MIN_CHECK_SECONDS },
			default: DEFAULT_CHECK_SECONDS,
			description: 'How often to ask Unpod how the calls stand',
			hint: 'One request per 100 calls a check; checks slow down (up to twice this) while nothing changes',
		},
		countryCodeOption,
		lookbackOption,
		{
			displayName: 'Max Call Wait (Minutes)',
			name: 'maxCallWaitMinutes',
			type: 'number',
			typeOptions: { minValue: 0.5, maxValue: MAX_CALL_WAIT_MINUTES, numberPrecision: 1 },
			default: DEFAULT_CALL_WAIT_MINUTES,
			description: 'How long to wait in all, from the start of this node, for the calls to end',
			hint: 'A call still open then comes out with unpod_wait_status "timed_out", its task ID and its last status: it may still take place',
		},
		rateLimitWaitOption,
	]),
	simplifyField(show),
];

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const startedAt = Date.now();
	const items = this.getInputData();
	const continueOnFail = this.continueOnFail();
	const maxCallWaitMinutes = bounded(
		this,
		runOption(this, 'maxCallWaitMinutes', 'Max Call Wait (Minutes)'),
		'Max Call Wait (Minutes)',
		DEFAULT_CALL_WAIT_MINUTES,
		0.5,
		MAX_CALL_WAIT_MINUTES,
	);
	const checkSeconds = bounded(
		this,
		runOption(this, 'checkSeconds', 'Check Every (Seconds)'),
		'Check Every (Seconds)',
		DEFAULT_CHECK_SECONDS,
		MIN_CHECK_SECONDS,
	);
	const signal = cancelSignalOf(this);

	const { rows, invalid } = readRows(this, items);
	if (!continueOnFail) refuseInvalidRows(invalid);
	const sent = await sendRows(this, rows, {
		batchSize: DEFAULT_BATCH_SIZE,
		budget: rateLimitBudget(this),
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

	await followCalls(this, [...followed.values()], {
		intervalMs: checkSeconds * 1000,
		deadline: startedAt + maxCallWaitMinutes * 60_000,
		signal,
	});

	const byItem: INodeExecutionData[][] = items.map(() => []);
	rows.forEach((row, index) => {
		const result = sent.get(row)!;
		byItem[row.itemIndex].push(
			result.kind === 'failed'
				? failedItem(this, row.echo, row.itemIndex, result.error, { unpod_created: result.created })
				: {
						json: outcomeOf(followed.get(index)!, this.getNodeParameter('simplify', row.itemIndex, true) as boolean),
						pairedItem: { item: row.itemIndex },
					},
		);
	});
	for (const bad of invalid) {
		byItem[bad.itemIndex].push(failedItem(this, bad.echo, bad.itemIndex, bad.error, { unpod_created: false }));
	}
	return byItem.flat();
}
