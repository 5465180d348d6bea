/**
 * Task > Follow Up: for each ended call, one decision (a callback at the time asked, another try
 * later, or nothing) and, where one is due, a new call scheduled in the calling window. The chain
 * travels in the new task's document (`attempt`, `previous_task_id`): no n8n state.
 */
import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { agentLocator, optionsCollection, spaceLocator } from '../../../shared/descriptions';
import { asNodeError } from '../../../shared/errors';
import { failedItem } from '../../../shared/itemLoop';
import { bounded, runOption } from '../../../shared/parameters';
import { readRunTasks } from '../../../shared/runTasks';
import type { WaitBudget } from '../../../shared/retry';
import { isFinal } from '../../../shared/tasks';
import { recentTasks } from './create.guard';
import type { Row } from './create.rows';
import { rateLimitBudget, sendRows } from './create.send';
import { DEFAULT_BATCH_SIZE } from './create.operation';
import { decideFollowUp, DEFAULT_WINDOW, readEndedCall, slotOf } from './followUp.plan';
import type { CallingWindow, Decision, EndedCall } from './followUp.plan';
import { callContextField, rateLimitWaitOption } from './task.fields';

const show = { operation: ['followUp'] };

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
/** How far back a follow-up already scheduled for a call is looked for: two weeks. */
const FOLLOW_UP_LOOKBACK_HOURS = 14 * 24;

export const description: INodeProperties[] = [
	{
		displayName:
			'This operation schedules real, paid calls for later: a callback where the person asked for one, another try where nobody was reached',
		name: 'followUpNotice',
		type: 'notice',
		default: '',
		displayOptions: { show },
	},
	spaceLocator(show),
	agentLocator(show),
	callContextField(show),
	optionsCollection(show, [
		{
			displayName: 'Calling Days',
			name: 'callingDays',
			type: 'multiOptions',
			options: DAYS.map((name, value) => ({ name, value })),
			default: [1, 2, 3, 4, 5],
			description: 'Days follow-up calls may be placed on',
		},
		{
			displayName: 'Calling Hours From',
			name: 'callingFrom',
			type: 'string',
			default: '09:00',
			placeholder: 'e.g. 09:00',
			description: 'The earliest time of day a follow-up call starts (HH:MM, in the Time Zone)',
		},
		{
			displayName: 'Calling Hours To',
			name: 'callingTo',
			type: 'string',
			default: '19:00',
			placeholder: 'e.g. 19:00',
			description: 'The time of day by which a follow-up call has started (HH:MM, in the Time Zone)',
		},
		{
			displayName: 'Max Calls',
			name: 'maxCalls',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 20 },
			default: 3,
			description: 'Calls per contact in all, the first one included',
		},
		rateLimitWaitOption,
		{
			displayName: 'Retry After (Hours)',
			name: 'retryAfterHours',
			type: 'number',
			typeOptions: { minValue: 0.25 },
			default: 4,
			description: 'How long after a call that reached no one to call again; doubles with each attempt',
		},
		{
			displayName: 'Slot (Minutes)',
			name: 'slotMinutes',
			type: 'number',
			typeOptions: { minValue: 5, maxValue: 240 },
			default: 15,
			description: 'Follow-ups due within the same slot go in one request',
		},
		{
			displayName: 'Time Zone',
			name: 'timeZone',
			type: 'string',
			default: '',
			placeholder: 'e.g. Europe/Berlin',
			description: "The calling window's zone; empty: the workflow's",
			hint: "A contact's own `timezone` field, where present, wins",
		},
	]),
];

/** The calling window an item is held to: the options', in the contact's own zone when it has one. */
function windowOf(context: IExecuteFunctions, itemIndex: number, document: IDataObject): CallingWindow {
	const options = context.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const days = Array.isArray(options.callingDays) ? options.callingDays.map(Number) : DEFAULT_WINDOW.days;
	const zone = String(document.timezone ?? '') || String(options.timeZone ?? '') || context.getTimezone();
	const window: CallingWindow = {
		days,
		start: String(options.callingFrom ?? DEFAULT_WINDOW.start),
		end: String(options.callingTo ?? DEFAULT_WINDOW.end),
		timeZone: zone,
	};
	const bad = (what: string) =>
		new NodeOperationError(context.getNode(), `Item ${itemIndex + 1}: ${what}`, { itemIndex });
	if (!days.length) throw bad('Calling Days has no day');
	for (const hhmm of [window.start, window.end])
		if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(hhmm)) throw bad(`"${hhmm}" is not a time of day (HH:MM)`);
	if (window.start >= window.end) throw bad(`Calling Hours From (${window.start}) must come before To (${window.end})`);
	try {
		new Intl.DateTimeFormat('en-US', { timeZone: zone });
	} catch {
		throw bad(`"${zone}" is not a time zone (use an IANA name such as Europe/Berlin)`);
	}
	return window;
}

interface Planned {
	itemIndex: number;
	call: EndedCall;
	decision: Decision;
	/** The slot the follow-up goes in (epoch ms), when one is due. */
	slot?: number;
}

/**
 * The documents of the calls that came in flat (Simplify on), read back from Unpod: their run's
 * tasks carry the whole document, custom fields and `attempt` included. One request per run
 * (100 tasks a page); a run Unpod does not know leaves the item's own fields.
 */
async function documentsFromUnpod(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
	budget: WaitBudget,
): Promise<Map<string, IDataObject>> {
	const runs = new Map<string, { space: string; itemIndex: number }>();
	items.forEach((item, itemIndex) => {
		const json = item.json;
		if ('input' in json || typeof json.run_id !== 'string' || !json.run_id) return;
		const space = context.getNodeParameter('space', itemIndex, '', { extractValue: true }) as string;
		runs.set(`${space}/${json.run_id}`, { space, itemIndex });
	});
	const documents = new Map<string, IDataObject>();
	for (const [key, { space, itemIndex }] of runs) {
		const runId = key.slice(space.length + 1);
		try {
			const tasks = await readRunTasks(context, space, runId, { itemIndex, budget });
			for (const task of tasks) {
				if (task.input && typeof task.input === 'object')
					documents.set(String(task.task_id), task.input as IDataObject);
			}
		} catch (error) {
			// A run of another space, or one Unpod no longer lists: the item's own fields serve.
			const failure = asNodeError(context.getNode(), error, itemIndex);
			const status = String((failure as { httpCode?: unknown }).httpCode ?? '');
			if (status !== '206' && status !== '404') throw failure;
		}
	}
	return documents;
}

/** Reads each input item as an ended call and decides; an item that is not one fails, naming it. */
function planItems(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
	now: number,
	fromUnpod: Map<string, IDataObject>,
) {
	const planned: Planned[] = [];
	const failed: Array<{ itemIndex: number; error: NodeOperationError }> = [];
	const maxCalls = bounded(context, runOption(context, 'maxCalls', 'Max Calls'), 'Max Calls', 3, 1, 20);
	const retryAfterHours = bounded(
		context,
		runOption(context, 'retryAfterHours', 'Retry After (Hours)'),
		'Retry After (Hours)',
		4,
		0.25,
	);
	const slotMinutes = bounded(
		context,
		runOption(context, 'slotMinutes', 'Slot (Minutes)'),
		'Slot (Minutes)',
		15,
		5,
		240,
	);
	items.forEach((item, itemIndex) => {
		try {
			const call = readEndedCall(item.json);
			const stored = fromUnpod.get(call.taskId);
			if (stored) {
				call.document = { ...stored };
				const attempt = Number(stored.attempt);
				if (Number.isInteger(attempt) && attempt > 0) call.attempt = attempt;
			}
			if (!call.taskId) throw new Error('has no task_id: give it an ended call as the triggers or Get Many put it out');
			if (!isFinal(call.status)) {
				throw new Error(`is a call that has not ended (status "${call.status || 'unknown'}")`);
			}
			const window = windowOf(context, itemIndex, call.document);
			const decision = decideFollowUp(call, { window, retryAfterHours, maxCalls }, now);
			const slot = decision.at === undefined ? undefined : slotOf(decision.at, slotMinutes, now, window);
			planned.push({ itemIndex, call, decision, slot });
		} catch (error) {
			const e = error as Error;
			const message = e instanceof NodeOperationError ? e.message : `Item ${itemIndex + 1} ${e.message}`;
			failed.push({ itemIndex, error: new NodeOperationError(context.getNode(), message, { itemIndex }) });
		}
	});
	return { planned, failed };
}

/** Unpod's custom schedule, in UTC (its task service reads a time without a zone in its own, UTC). */
const scheduleAt = (slot: number) => {
	const iso = new Date(slot).toISOString();
	return { type: 'custom', calling_date: iso.slice(0, 10), calling_time: iso.slice(11, 16) };
};

/** What one input item comes out as: the decision, and the follow-up task when one was scheduled. */
function decided(plan: Planned, extra: IDataObject): IDataObject {
	return {
		task_id: plan.call.taskId,
		contact_name: plan.call.document.name ?? null,
		contact_number: plan.call.document.contact_number ?? null,
		attempt: plan.call.attempt,
		follow_up: plan.decision.follow_up,
		follow_up_reason: plan.decision.reason,
		follow_up_at: plan.slot === undefined ? null : new Date(plan.slot).toISOString(),
		follow_up_attempt: plan.decision.follow_up === 'none' ? null : plan.decision.attempt,
		...extra,
	};
}

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const items = this.getInputData();
	const continueOnFail = this.continueOnFail();
	const budget = rateLimitBudget(this);
	const { planned, failed } = planItems(this, items, Date.now(), await documentsFromUnpod(this, items, budget));
	if (failed.length && !continueOnFail) throw failed[0].error;

	const planOf = new Map(planned.map((p) => [p.itemIndex, p]));
	const due = planned.filter((p) => p.slot !== undefined);
	const rows: Row[] = due.map((p) => {
		const space = this.getNodeParameter('space', p.itemIndex, '', { extractValue: true }) as string;
		const agent = this.getNodeParameter('agent', p.itemIndex, '', { extractValue: true }) as string;
		const context = String(this.getNodeParameter('callContext', p.itemIndex, '') ?? '').trim();
		if (!context) {
			throw new NodeOperationError(this.getNode(), `Item ${p.itemIndex + 1}: Call Context is empty`, {
				itemIndex: p.itemIndex,
			});
		}
		const body: IDataObject = { pilot: agent, schedule: scheduleAt(p.slot!), context };
		return {
			itemIndex: p.itemIndex,
			echo: items[p.itemIndex].json,
			document: { ...p.call.document, attempt: p.decision.attempt, previous_task_id: p.call.taskId },
			group: JSON.stringify([space, body]),
			request: { space, body },
			countryCode: '',
		};
	});

	// One follow-up per ended call: a task that names it as previous_task_id was scheduled already.
	const existing = rows.length
		? await recentTasks(
				this,
				rows.map((r) => ({ ...r, lookbackHours: FOLLOW_UP_LOOKBACK_HOURS })),
				budget,
			)
		: new Map();
	const already = new Map<Row, IDataObject>();
	for (const row of rows) {
		const found = existing.get(row.request.space)?.followUpOf(String(row.document.previous_task_id));
		if (found) already.set(row, found);
	}
	const toSend = rows.filter((r) => !already.has(r));
	const sent = await sendRows(this, toSend, { batchSize: DEFAULT_BATCH_SIZE, budget, continueOnFail });

	const out: INodeExecutionData[] = items.map((item, itemIndex) => ({ json: {}, pairedItem: { item: itemIndex } }));
	for (const plan of planned)
		out[plan.itemIndex].json = decided(plan, { follow_up_task_id: null, follow_up_run_id: null });
	for (const row of rows) {
		const plan = planOf.get(row.itemIndex)!;
		const found = already.get(row);
		if (found) {
			out[row.itemIndex].json = decided(plan, {
				follow_up_task_id: found.task_id ?? null,
				follow_up_run_id: found.run_id ?? null,
				unpod_skipped: `Not sent: follow-up ${String(found.task_id)} of task ${plan.call.taskId} is already scheduled`,
			});
			continue;
		}
		const result = sent.get(row)!;
		out[row.itemIndex] =
			result.kind === 'failed'
				? failedItem(this, row.echo, row.itemIndex, result.error, { unpod_created: result.created })
				: {
						json: decided(plan, {
							follow_up_task_id: result.answer.task_id ?? null,
							follow_up_run_id: result.answer.run_id ?? null,
						}),
						pairedItem: { item: row.itemIndex },
					};
	}
	for (const bad of failed) out[bad.itemIndex] = failedItem(this, items[bad.itemIndex].json, bad.itemIndex, bad.error);
	return out;
}
