/**
 * Task > Follow Up: for each ended call, one decision (a callback at the time asked, another try
 * later, or nothing) and, where one is due, a new call scheduled in the calling window. The chain
 * travels in the new task's document (`attempt`, `previous_task_id`): no n8n state.
 */
import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { agentLocator, optionsCollection, spaceLocator } from '../../../shared/descriptions';
import { failedItem } from '../../../shared/itemLoop';
import { numberOption } from '../../../shared/parameters';
import { callChain, contactColumns } from '../../../shared/outcome';
import { doNotCallFields } from '../../mayCall/doNotCall';
import { CallGate } from '../../mayCall/gate';
import { callerFields, openingLanguageOption } from '../../mayCall/caller';
import { consentFields } from '../../mayCall/consent';
import {
	callContextField,
	callingHoursField,
	DEFAULT_BATCH_SIZE,
	hoursOptions,
	rateLimitWaitOption,
	unknownZoneOption,
} from '../../placeCalls/fields';
import { sentRowItem } from '../../placeCalls/output';
import { callContextOf, callRequest, contactRow } from '../../mayCall/contactRow';
import type { Row, RowHours } from '../../mayCall/contactRow';
import { rateLimitBudget, sendRows } from '../../placeCalls/send';
import { nextCalls, spaceOf, tasksFromUnpod, toUnpods } from './followUp.lookup';
import { decided, optedOut, taskRef } from './followUp.items';
import type { Planned } from './followUp.lookup';
import { CONSENT_REVOKED, decideFollowUp, readEndedCall, slotOf, stopped } from './followUp.plan';
import { allowedNumbersOptions } from '../../mayCall/numbers';
import { maxCallsPerDayOption } from '../../mayCall/dailyCap';
import type { CalleeWindows, EndedCall } from './followUp.plan';
import { hoursSettingsOf, ownZoneOf, rowHours, userWindowOf } from '../../mayCall/hours';
import { scheduleAt } from '../../mayCall/whenToCall';
import { CallingHours } from '../../../shared/callingHours/callee';
import type { TaskOption } from './taskOption';

const show = { operation: ['followUp'] };

const maxCallsOption: INodeProperties = {
	displayName: 'Max Calls',
	name: 'maxCalls',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 20 },
	default: 3,
	description: 'Calls per contact in all, the first one included',
};

const retryAfterOption: INodeProperties = {
	displayName: 'Retry After (Hours)',
	name: 'retryAfterHours',
	type: 'number',
	typeOptions: { minValue: 0.25 },
	default: 4,
	description: 'How long after a call that reached no one to call again; doubles with each attempt',
};

const slotOption: INodeProperties = {
	displayName: 'Slot (Minutes)',
	name: 'slotMinutes',
	type: 'number',
	typeOptions: { minValue: 5, maxValue: 240 },
	default: 15,
	description: 'Follow-ups due within the same slot go in one request',
};

export const option: TaskOption = {
	name: 'Follow Up',
	value: 'followUp',
	action: 'Schedule callbacks and retries',
	description:
		'For each ended call, schedule a callback at the time asked or another try later, within calling hours; places paid calls later',
	run: { allItems: execute },
};

export const description: INodeProperties[] = [
	{
		displayName:
			"This operation schedules real, paid calls for later: a callback where the person asked for one, another try where nobody was reached. Where Unpod's agent calls back itself (its Enable Followup or Enable Callback), it places none",
		name: 'followUpNotice',
		type: 'notice',
		default: '',
		displayOptions: { show },
	},
	spaceLocator(show),
	agentLocator(show),
	callContextField(show),
	...callerFields(show),
	...doNotCallFields(show),
	...consentFields(show),
	callingHoursField(
		show,
		"Whether to place each next call only when the law of the place where the phone rings allows (its days, hours, holidays and limits, in the callee's own time zone, read from the number); the Calling Days and Hours, read in that zone too, hold either way",
	),
	optionsCollection(show, [
		maxCallsOption,
		rateLimitWaitOption,
		retryAfterOption,
		slotOption,
		...hoursOptions.map((field) =>
			field.name === unknownZoneOption.name
				? {
						...field,
						description:
							"The time zone of numbers whose zone is not known; empty: such contacts get no next call (with Keep to Calling Hours off: the workflow's zone). A contact's own timezone field always wins.",
					}
				: field,
		),
		...allowedNumbersOptions,
		openingLanguageOption,
		maxCallsPerDayOption,
	]),
];

/**
 * The windows an item's next call is held to (the law's, with Keep to Calling Hours on, and the
 * Calling Days and Hours, in each zone the callee's phone may ring in), and the zone a callback
 * time without one is read in: where most of the number's people live. No windows: any time.
 */
function windowsOf(
	context: IExecuteFunctions,
	itemIndex: number,
	document: IDataObject,
	book: CallingHours,
): { window: CalleeWindows; hours?: RowHours } {
	const own = ownZoneOf(document);
	if (typeof own === 'object')
		throw new NodeOperationError(context.getNode(), `Item ${itemIndex + 1}: ${own.message}`, { itemIndex });
	const hours = rowHours(book, hoursSettingsOf(context, itemIndex), document, own, 'schedule');
	const zone = hours?.callee.zones[0] ?? own ?? (userWindowOf(context, itemIndex).timeZone || context.getTimezone());
	return { window: { windows: hours?.callee.windows ?? [], zone, clock: book.clock }, hours };
}

/** Reads each input item as a call and decides; an item that is no call at all fails, naming it. */
function planItems(
	context: IExecuteFunctions,
	gate: CallGate,
	items: INodeExecutionData[],
	fromUnpod: Map<string, IDataObject>,
): { planned: Planned[]; failed: Array<{ itemIndex: number; error: NodeOperationError }> } {
	const planned: Planned[] = [];
	const failed: Array<{ itemIndex: number; error: NodeOperationError }> = [];
	const maxCalls = numberOption(context, maxCallsOption);
	const retryAfterHours = numberOption(context, retryAfterOption);
	const slotMinutes = numberOption(context, slotOption);
	const now = gate.now;
	const book = new CallingHours();
	items.forEach((item, itemIndex) => {
		try {
			const call = readEndedCall(item.json);
			const stored = fromUnpod.get(call.taskId);
			if (stored) {
				call.document = contactColumns(stored.input);
				// Calls made since the item was read count too.
				call.attempt = Math.max(call.attempt, callChain(stored).attempt);
			}
			if (!call.taskId) throw new Error('has no task_id: give it an ended call as the triggers or Get Many put it out');
			// The next call is asked of the gate as a first call is: its number, do-not-call, consent, who calls.
			const answer = call.document.contact_number ? gate.check(itemIndex, call.document) : undefined;
			// An opt-out and a withdrawn consent hold whatever else stopped the call: they decide what
			// the item says of Unpod's own next call.
			const optOut = call.document.contact_number ? gate.optOutOf(itemIndex, call.document) : undefined;
			if (optOut) call.doNotCall ??= optOut;
			const revoked = call.document.contact_number ? gate.revocationOf(itemIndex, call.document) : undefined;
			const first = answer && 'stop' in answer ? answer.stop : undefined;
			// An opt-out decides first (do_not_call); then a withdrawn consent; then what the gate stopped.
			const stop =
				call.doNotCall !== undefined
					? undefined
					: revoked && 'missing' in revoked
						? { by: 'consent' as const, reason: '', revoked: true }
						: first;
			const { window, hours } = windowsOf(context, itemIndex, call.document, book);
			const decided = unknownZone(call, hours) ?? decideFollowUp(call, { window, retryAfterHours, maxCalls }, now);
			const decision = stop ? stopped(decided, stop) : decided;
			const due = decision.follow_up === 'callback' || decision.follow_up === 'retry';
			// A value to fix (who calls, a date that is none) fails the item only where a next call is due.
			const bad = answer && 'bad' in answer ? answer.bad : revoked && 'bad' in revoked ? revoked.bad : undefined;
			if (bad && due)
				throw new NodeOperationError(context.getNode(), `Item ${itemIndex + 1}: ${bad.message}`, {
					itemIndex,
					...(bad.description ? { description: bad.description } : {}),
				});
			const slot = due && decision.at !== undefined ? slotOf(decision.at, slotMinutes, now, window) : undefined;
			const go = answer && 'go' in answer ? answer.go : undefined;
			planned.push({ itemIndex, call, decision, slot, hours, ...(go ? { go } : {}) });
		} catch (error) {
			const e = error as Error;
			// readEndedCall's messages go on from the item ("has no task_id"); any other is a sentence of its own.
			const message =
				e instanceof NodeOperationError
					? e.message
					: `Item ${itemIndex + 1}${/^[a-z]/.test(e.message) ? ' ' : ': '}${e.message}`;
			const description = e instanceof NodeOperationError ? e.description : undefined;
			failed.push({
				itemIndex,
				error: new NodeOperationError(context.getNode(), message, {
					itemIndex,
					...(description ? { description } : {}),
				}),
			});
		}
	});
	return { planned, failed };
}

/**
 * No next call for a callee whose zone is not known (Keep to Calling Hours on), where one would
 * be due: the item says why. Undefined where the call is decided as usual.
 */
function unknownZone(call: EndedCall, hours: RowHours | undefined) {
	if (!hours || hours.callee.zones.length || call.doNotCall !== undefined) return undefined;
	return {
		follow_up: 'none' as const,
		reason:
			"calling_hours: the number's time zone is not known (set the contact's timezone, or Time Zone for Unknown Numbers)",
		attempt: call.attempt + 1,
	};
}

/** A follow-up row: the contact's document (as the gate let it go) with the chain, scheduled at the plan's slot. */
function followUpRow(context: IExecuteFunctions, items: INodeExecutionData[], gate: CallGate, p: Planned): Row {
	const space = spaceOf(context, p.itemIndex);
	const agent = context.getNodeParameter('agent', p.itemIndex, '', { extractValue: true }) as string;
	const callContext = callContextOf(context, p.itemIndex, `Item ${p.itemIndex + 1}`);
	const go = p.go!;
	return contactRow({
		itemIndex: p.itemIndex,
		where: `Item ${p.itemIndex + 1}`,
		inputJson: items[p.itemIndex].json,
		document: { ...go.document, attempt: p.decision.attempt, previous_task_id: p.call.taskId },
		request: callRequest(space, agent, scheduleAt(p.slot!), gate.contextOf(go, callContext)),
		countryCode: '',
		says: go.says,
		...(p.hours ? { hours: p.hours } : {}),
	});
}

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const items = this.getInputData();
	const continueOnFail = this.continueOnFail();
	const budget = rateLimitBudget(this);
	const gate = new CallGate(this);
	const read = planItems(this, gate, items, await tasksFromUnpod(this, items, budget));
	if (read.failed.length && !continueOnFail) throw read.failed[0].error;

	const next = await nextCalls(this, read.planned, budget);
	const planned = read.planned.map((p) => (next.get(p) ? toUnpods(p, next.get(p)!) : p));
	const out: INodeExecutionData[] = items.map((_, itemIndex) => ({ json: {}, pairedItem: { item: itemIndex } }));
	const rows = new Map<Row, Planned>();
	planned.forEach((plan, i) => {
		const found = next.get(read.planned[i]);
		if (plan.decision.reason === 'do_not_call' || plan.decision.reason === CONSENT_REVOKED) {
			out[plan.itemIndex].json = decided(plan, optedOut(plan, found));
		} else if (plan.decision.follow_up === 'unpod' || plan.slot === undefined) {
			out[plan.itemIndex].json = decided(plan, taskRef(plan.decision.follow_up === 'unpod' ? found : undefined));
		} else if (found) {
			out[plan.itemIndex].json = decided(plan, {
				...taskRef(found),
				unpod_skipped: `Not sent: follow-up ${String(found.task_id)} of task ${plan.call.taskId} is already scheduled`,
			});
		} else rows.set(followUpRow(this, items, gate, plan), plan);
	});

	const sent = await sendRows(this, [...rows.keys()], {
		batchSize: DEFAULT_BATCH_SIZE,
		budget,
		continueOnFail,
		skipCalledContacts: false,
		// The limits' read of the space's tasks, up to 30 days and more, is then only what is new.
		rememberTasks: true,
		maxCallsPerDay: numberOption(this, maxCallsPerDayOption),
	});
	for (const [row, plan] of rows) {
		const result = sent.get(row)!;
		if (result.kind === 'held') {
			// A limit of calls, the callee's or the space's: no next call now; the item says when one may be.
			const reason = result.by === 'cap' ? 'max_calls_per_day' : 'calling_hours: limit of calls';
			const none = { ...plan, slot: undefined, decision: { ...plan.decision, follow_up: 'none' as const, reason } };
			out[row.itemIndex] = { json: decided(none, result.answer), pairedItem: { item: row.itemIndex } };
			continue;
		}
		out[row.itemIndex] = sentRowItem(this, row, result, (created) =>
			decided(plan, {
				...taskRef(created.answer),
				...(created.answer.scheduled_at ? { follow_up_at: created.answer.scheduled_at } : {}),
			}),
		);
	}
	for (const bad of read.failed)
		out[bad.itemIndex] = failedItem(this, items[bad.itemIndex].json, bad.itemIndex, bad.error);
	return out;
}
