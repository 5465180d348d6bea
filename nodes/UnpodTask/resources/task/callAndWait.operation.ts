/**
 * Task > Call and Wait: places one call per input item (sent as Create sends them) and waits
 * until each call ends or Max Wait passes, then puts out each item's outcome.
 */
import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { contactFields } from '../../../shared/contacts';
import { agentLocator, optionsCollection, simplifyField, spaceLocator } from '../../../shared/descriptions';
import { failedItem } from '../../../shared/itemLoop';
import { cancelSignalOf, DEFAULT_MAX_WAIT_SECONDS, WaitBudget } from '../../../shared/retry';
import { followCalls, outcomeOf } from './callAndWait.follow';
import type { Followed } from './callAndWait.follow';
import { DEFAULT_BATCH_SIZE } from './create.operation';
import { readRows } from './create.rows';
import { refuseInvalidRows, sendRows, skipWithinHours } from './create.send';
import { callContextField, countryCodeOption, lookbackOption, skipExistingField } from './task.fields';

const show = { resource: ['task'], operation: ['callAndWait'] };

export const DEFAULT_MAX_WAIT_MINUTES = 10;
export const MAX_WAIT_MINUTES = 60;
export const DEFAULT_CHECK_SECONDS = 15;
export const MIN_CHECK_SECONDS = 5;

/** What a model is told of the tool when it is an AI agent's tool (the example workflow uses it). */
export const TOOL_DESCRIPTION =
	'Places one real phone call with an Unpod voice agent to the contact given, and waits for the call to end ' +
	'(usually 1 to 5 minutes, at most the Max Wait set on the tool) before answering with what the person said: ' +
	'call_status, call_summary, outcome, next_action, the transcript and wait_status ("ended", or "timed_out" if ' +
	'the call was still going). Each use is a paid call to a person: use it only when the user asked for a call, ' +
	'once per contact, and never to retry a call that ended.';

export const description: INodeProperties[] = [
	{
		displayName:
			"This operation places real, paid calls and holds the execution until they end or Max Wait passes (on the n8n worker that runs it). Set n8n's execution timeout above Max Wait. As an AI agent's tool, let the model fill only the name, number and what to ask, and fix the numbers it may call.",
		name: 'callAndWaitNotice',
		type: 'notice',
		default: '',
		displayOptions: { show },
	},
	spaceLocator(show),
	agentLocator(show, undefined, 'pilot', 'Agent (Pilot)'),
	...contactFields(show),
	callContextField(show),
	skipExistingField(show, true),
	optionsCollection(show, [
		{
			displayName: 'Max Wait (Minutes)',
			name: 'maxWaitMinutes',
			type: 'number',
			typeOptions: { minValue: 0.5, maxValue: MAX_WAIT_MINUTES, numberPrecision: 1 },
			default: DEFAULT_MAX_WAIT_MINUTES,
			description:
				'How long to wait in all, from the start of this node. A call still open then comes out with wait_status "timed_out", its task ID and its last status: it may still take place.',
		},
		{
			displayName: 'Check Every (Seconds)',
			name: 'checkSeconds',
			type: 'number',
			typeOptions: { minValue: MIN_CHECK_SECONDS },
			default: DEFAULT_CHECK_SECONDS,
			description:
				'How often to ask Unpod how the calls stand: one request per 100 calls a check. Checks slow down (up to twice this) while nothing changes.',
		},
		lookbackOption,
		countryCodeOption,
	]),
	simplifyField(show),
];

/** A number option within its bounds; a value out of them is an error that names the option. */
function boundedOption(
	context: IExecuteFunctions,
	options: IDataObject,
	name: string,
	label: string,
	fallback: number,
	min: number,
	max = Infinity,
): number {
	const value = options[name] === undefined || options[name] === '' ? fallback : Number(options[name]);
	if (!Number.isFinite(value) || value < min || value > max) {
		throw new NodeOperationError(
			context.getNode(),
			`${label} must be ${max === Infinity ? `at least ${min}` : `between ${min} and ${max}`}, not ${String(options[name])}`,
		);
	}
	return value;
}

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const startedAt = Date.now();
	const items = this.getInputData();
	const continueOnFail = this.continueOnFail();
	const options = this.getNodeParameter('options', 0, {}) as IDataObject;
	const maxWaitMinutes = boundedOption(
		this,
		options,
		'maxWaitMinutes',
		'Max Wait (Minutes)',
		DEFAULT_MAX_WAIT_MINUTES,
		0.5,
		MAX_WAIT_MINUTES,
	);
	const checkSeconds = boundedOption(
		this,
		options,
		'checkSeconds',
		'Check Every (Seconds)',
		DEFAULT_CHECK_SECONDS,
		MIN_CHECK_SECONDS,
	);
	const simplify = this.getNodeParameter('simplify', 0, true) as boolean;
	const signal = cancelSignalOf(this);

	const { rows, invalid } = readRows(this, items);
	if (!continueOnFail) refuseInvalidRows(invalid);
	const sent = await sendRows(this, rows, {
		batchSize: DEFAULT_BATCH_SIZE,
		skipWithinHours: skipWithinHours(this, options, true),
		countryCode: String(options.defaultCountryCode ?? ''),
		budget: new WaitBudget(DEFAULT_MAX_WAIT_SECONDS * 1000, signal),
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
		deadline: startedAt + maxWaitMinutes * 60_000,
		signal,
	});

	const byItem: INodeExecutionData[][] = items.map(() => []);
	rows.forEach((row, index) => {
		const result = sent.get(row)!;
		byItem[row.itemIndex].push(
			result.kind === 'failed'
				? failedItem(this, row.echo, row.itemIndex, result.error, { unpod_created: result.created })
				: { json: outcomeOf(followed.get(index)!, simplify), pairedItem: { item: row.itemIndex } },
		);
	});
	for (const bad of invalid) {
		byItem[bad.itemIndex].push(failedItem(this, bad.echo, bad.itemIndex, bad.error, { unpod_created: false }));
	}
	return byItem.flat();
}
