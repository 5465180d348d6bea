/**
 * Task > Call and Wait for Approval (`sendAndWait`, the operation name n8n's human review for AI
 * tools looks for): one call per item asks the approver; the execution then waits, holding no
 * worker, until a trigger of this package relays the call's end to the resume address the call
 * carries, or Limit Wait Time passes. The ring is a doorbell: the outcome is read from Unpod.
 */
import { NodeOperationError } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { approvalItem, approvedValuesOf, DEFAULT_APPROVED_VALUES } from '../../../shared/approvals';
import { contactFields } from '../../../shared/contacts';
import { agentLocator, optionsCollection, spaceLocator } from '../../../shared/descriptions';
import { sameForEveryItem } from '../../../shared/parameters';
import { CallingHours } from '../../../shared/callingHours/callee';
import { doNotCallFields } from '../../mayCall/doNotCall';
import { callerFields, openingLanguageOption } from '../../mayCall/caller';
import { consentFields } from '../../mayCall/consent';
import { allowedNumbersOptions } from '../../mayCall/numbers';
import { readRows } from '../../placeCalls/readRows';
import { refuseInvalidRows } from '../../placeCalls/send';
import { stopOnRefusedRows } from '../../placeCalls/output';
import { maxCallsPerDayOption } from '../../mayCall/dailyCap';
import {
	callingHoursField,
	callsAreOption,
	countryCodeOption,
	hoursOptions,
	rateLimitWaitOption,
} from '../../placeCalls/fields';
import { callRequest } from '../../mayCall/contactRow';
import type { Row } from '../../mayCall/contactRow';
import type { Waiting } from '../../waitForCalls/park';
import { keepWaiting, limitWaitOption, refusePlainTool, sendAndPark } from '../../waitForCalls/park';
import { endedCallsOf, waitItemOf } from '../../waitForCalls/ownCalls';
import type { TaskOption } from './taskOption';

const show = { operation: ['sendAndWait'] };

/** n8n's human review runs this operation as a send-and-wait node: its resume address is signed as theirs. */
const waits: Waiting = { resumeAddress: 'signed', webhook };

export const option: TaskOption = {
	name: 'Call and Wait for Approval',
	value: 'sendAndWait',
	action: 'Ask for approval by phone and wait',
	description:
		"Call an approver and wait, holding no worker, until the call ends; output approved (true or false) from the call's analysis. Also n8n's human review for AI tools.",
	run: { allItems: execute },
	waits,
};

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
	...callerFields(show),
	...doNotCallFields(show),
	...consentFields(show),
	callingHoursField(
		show,
		'Whether to call the approver only when the law of the place where the phone rings allows (its days, hours and holidays, in their time zone): outside them the call is scheduled for the first legal time, within Limit Wait Time. Turn it off for colleagues who agreed to be called at any hour.',
	),
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
		limitWaitOption('A timed-out wait puts out the input items without `approved`: treat that as not approved'),
		rateLimitWaitOption,
		...hoursOptions.filter((option) => option.name !== callsAreOption.name),
		...allowedNumbersOptions,
		openingLanguageOption,
		maxCallsPerDayOption,
	]),
];

/**
 * The rows to send: the approver of each item, read and asked of the gate as every call is. Nothing
 * is put out before the resume: a bad row or a contact that may not be called stops the run.
 */
function approvalRows(context: IExecuteFunctions): Row[] {
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
	const request = callRequest(space, agent, { type: 'now' }, message);
	const { rows, invalid, refused } = readRows(
		context,
		context.getInputData(),
		// An approval asks a person to approve something: its calls are informational, whatever else the workflow calls for.
		{ book: new CallingHours(), outside: () => 'schedule', purpose: 'informational' },
		{
			settingsOf: (itemIndex) => ({
				request,
				callContext: message,
				countryCode: String(
					(context.getNodeParameter('options', itemIndex, {}) as IDataObject).defaultCountryCode ?? '',
				),
			}),
			labelOf: (_, itemIndex) => `Item ${itemIndex + 1}, the approver`,
		},
	);
	refuseInvalidRows(invalid);
	stopOnRefusedRows(context, refused);
	return rows;
}

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	refusePlainTool(this, 'Call and Wait for Approval', 'use it as the human review of a tool, or use Call and Wait');
	await sendAndPark(this, waits, approvalRows(this), 'Space, Agent and Message');
	return this.getInputData();
}

/** A ring at the resume address: once every call of the approval has ended, resumes with each approver's answer. */
async function webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const calls = await endedCallsOf(this);
	if (typeof calls === 'string') return keepWaiting(this, calls);
	const approvedValues = approvedValuesOf((this.getNodeParameter('options', {}) as IDataObject).approvedValues);
	return {
		workflowData: [
			calls.map((task) => ({ json: approvalItem(task, approvedValues), pairedItem: { item: waitItemOf(task) } })),
		],
	};
}
