/**
 * What Task > Follow Up reads from Unpod before it sends anything: the ended calls' whole
 * documents (an item that came in flat carries only some of its fields), and who calls next
 * (a follow-up already scheduled, by this node or by Unpod itself).
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { asNodeError, httpStatusOf } from '../../../shared/errors';
import { objectOf } from '../../../shared/values';
import type { WaitBudget } from '../../../shared/retry';
import { readTaskList } from '../../../shared/taskLists';
import { platformTime } from '../../../shared/time';
import { recentTasks } from '../../placeCalls/existingTasks';
import type { RowHours } from '../../mayCall/contactRow';
import type { Go } from '../../mayCall/gate';
import type { Decision, EndedCall } from './followUp.plan';
import { CONSENT_REVOKED } from './followUp.plan';

/** How far back a follow-up already scheduled for a call is looked for: two weeks. */
const FOLLOW_UP_LOOKBACK_HOURS = 14 * 24;

export const spaceOf = (context: IExecuteFunctions, itemIndex: number) =>
	context.getNodeParameter('space', itemIndex, '', { extractValue: true }) as string;

export interface Planned {
	itemIndex: number;
	call: EndedCall;
	decision: Decision;
	/** The slot the follow-up goes in (epoch ms), when one is due. */
	slot?: number;
	/** With Keep to Calling Hours: the callee, whose limit of calls in 24 hours the send step keeps. */
	hours?: RowHours;
	/** The next call as the gate lets it go (mayCall/gate.ts): its document, who calls, what its item says. */
	go?: Go;
}

/**
 * The calls that came in flat (Simplify on), read back from Unpod: their run's tasks carry the
 * whole document (custom fields too) and the chain. One request per run (100 tasks a page); a
 * run Unpod does not know leaves the item's own fields.
 */
export async function tasksFromUnpod(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
	budget: WaitBudget,
): Promise<Map<string, IDataObject>> {
	const runs = new Map<string, { space: string; itemIndex: number }>();
	items.forEach((item, itemIndex) => {
		const json = item.json;
		if ('input' in json || typeof json.run_id !== 'string' || !json.run_id) return;
		const space = spaceOf(context, itemIndex);
		runs.set(`${space}/${json.run_id}`, { space, itemIndex });
	});
	const stored = new Map<string, IDataObject>();
	for (const [key, { space, itemIndex }] of runs) {
		const runId = key.slice(space.length + 1);
		try {
			const tasks = await readTaskList(context, { scope: 'run', space, runId }, { itemIndex, budget });
			for (const task of tasks) if (task.task_id) stored.set(String(task.task_id), task);
		} catch (error) {
			// A run of another space, or one Unpod no longer lists: the item's own fields serve.
			const failure = asNodeError(context.getNode(), error, itemIndex);
			const status = httpStatusOf(failure);
			if (status !== 206 && status !== 404) throw failure;
		}
	}
	return stored;
}

/**
 * Who calls next for each plan, read from the space's recent tasks: a follow-up that names the
 * ended call (`referenced_task` for Unpod's, `previous_task_id` for this node's) is the next call,
 * so nothing is sent for it; a call Unpod said it calls again is named where found. One list read
 * per space, only when something is due or Unpod calls again.
 */
export async function nextCalls(
	context: IExecuteFunctions,
	planned: Planned[],
	budget: WaitBudget,
): Promise<Map<Planned, IDataObject | undefined>> {
	const asking = planned.filter((p) => p.slot !== undefined || p.decision.follow_up === 'unpod' || optingOut(p));
	const found = new Map<Planned, IDataObject | undefined>();
	if (!asking.length) return found;
	const existing = await recentTasks(
		context,
		asking.map((p) => ({ request: { space: spaceOf(context, p.itemIndex) }, lookbackHours: FOLLOW_UP_LOOKBACK_HOURS })),
		budget,
	);
	for (const plan of asking) {
		const tasks = existing.get(spaceOf(context, plan.itemIndex));
		const next = tasks?.followUpOf(plan.call.taskId);
		if (next) found.set(plan, next);
		else if (plan.decision.follow_up === 'unpod' || optingOut(plan)) {
			// A redial calls the same task again; a deduplicated follow-up is the contact's open task.
			const redial = plan.decision.reason === 'unpod_redial' || plan.decision.unpodCallsAgain === 'redial';
			found.set(plan, tasks?.openTaskOf(plan.call.document) ?? (redial ? { task_id: plan.call.taskId } : undefined));
		}
	}
	return found;
}

/** A contact who opted out, or withdrew consent: Unpod's own next call for them is looked for, to warn. */
const optingOut = (plan: Planned) => plan.decision.reason === 'do_not_call' || plan.decision.reason === CONSENT_REVOKED;

/** When a scheduled task calls (epoch ms), as Unpod's follow-ups and the store's schedules write it. */
export const nextCallAt = (next: IDataObject) =>
	platformTime(objectOf(next.output).scheduled_time) ?? platformTime(next.scheduled_timestamp);

/** The same, as an ISO time, if the task says. */
export function nextCallTime(next: IDataObject): string | undefined {
	const at = nextCallAt(next);
	return at === undefined ? undefined : new Date(at).toISOString();
}

/** A follow-up Unpod made for the ended call turns a due plan into Unpod's (never a do-not-call one). */
export function toUnpods(plan: Planned, next: IDataObject): Planned {
	const output = objectOf(next.output);
	if (!output.referenced_task || optingOut(plan)) return plan;
	const at = nextCallAt(next);
	return {
		...plan,
		slot: undefined,
		decision: { ...plan.decision, follow_up: 'unpod', reason: 'unpod_follow_up', at },
	};
}
