/**
 * The one reader of Unpod's task lists: a space's, an agent's and a run's (a create request's
 * calls). Get Many, the Unpod Trigger, the duplicate guard, the waits and Follow Up read through
 * it; the declarative Space and Agent operations take its path and query for the routing engine.
 */
import type { IDataObject } from 'n8n-workflow';
import { callTypeQuery } from './callLogs';
import { collectPages, toPage } from './pagination';
import type { FetchPage, RowMatch } from './pagination';
import { objectOf } from './values';
import type { WaitBudget } from './retry';
import { platformTime, userTime } from './time';
import { unpodApiRequest } from './transport';
import type { UnpodContext } from './transport';

/** Which task list: a space's, an agent's, or a run's (which applies no filter itself). */
export type TaskScope = 'space' | 'agent' | 'run';

export type TaskList = { scope: 'space' | 'agent'; id: string } | { scope: 'run'; space: string; runId: string };

export function taskListPath(list: TaskList): string {
	if (list.scope === 'run')
		return `/spaces/${encodeURIComponent(list.space)}/runs/${encodeURIComponent(list.runId)}/tasks/`;
	return `/${list.scope === 'space' ? 'spaces' : 'agents'}/${encodeURIComponent(list.id)}/tasks/`;
}

/** How an error names the list when Unpod's answer does not. */
const subjectOf = (list: TaskList) => (list.scope === 'run' ? `run ${list.runId}` : `${list.scope} "${list.id}"`);

export interface TaskListRead {
	/** Query parameters besides the page (a list's own filters, `taskListQuery`'s `qs`). */
	qs?: IDataObject;
	itemIndex?: number;
	/** Wait out rate limits and retry transient failures within this budget; without it, fail at once. */
	budget?: WaitBudget;
}

/** One page of a task list at a time, for a reader that walks the pages itself (the trigger's scan). */
export function taskListPages(context: UnpodContext, list: TaskList, read: TaskListRead = {}): FetchPage {
	return async (page, pageSize) =>
		toPage(
			await unpodApiRequest.call(context, {
				method: 'GET',
				path: taskListPath(list),
				qs: { ...read.qs, page, page_size: pageSize },
				subject: subjectOf(list),
				itemIndex: read.itemIndex,
				budget: read.budget,
			}),
		);
}

/**
 * The rows of a task list through the one paginator: up to `limit` rows that `match` (all
 * when unset), each `key` once.
 */
export async function readTaskList(
	context: UnpodContext,
	list: TaskList,
	read: TaskListRead & { limit?: number; key?: string; match?: RowMatch } = {},
): Promise<IDataObject[]> {
	return await collectPages(taskListPages(context, list, read), read.limit, read.key, read.match);
}

const commaList = (value: unknown): string[] =>
	(Array.isArray(value) ? value : String(value ?? '').split(',')).map((v) => String(v).trim()).filter(Boolean);

/** A search as the space list reads it: a case-insensitive pattern, or the plain text if it is not one. */
function searchPattern(search: string): RegExp {
	try {
		return new RegExp(search, 'i');
	} catch {
		return new RegExp(search.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i');
	}
}

/**
 * The `filters` collection of a task list as what to send and what to check. Task status is
 * always checked by the node: the space list reads its `status` as the call outcome, the agent
 * list ignores it. The space list applies the other filters itself (Call Outcome is its
 * `status`); the agent and run lists ignore every filter, so the node applies them there,
 * with the same meaning.
 */
export function taskListQuery(scope: TaskScope, filters: IDataObject): { qs: IDataObject; match?: RowMatch } {
	const qs: IDataObject = {};
	const checks: RowMatch[] = [];
	const statuses = commaList(filters.status);
	if (statuses.length) checks.push((task) => statuses.includes(String(task.status)));

	const outcomes = commaList(filters.outcome);
	const search = String(filters.search ?? '').trim();
	const { call_type: callType } = callTypeQuery(filters.direction);
	const after = userTime(filters.from);
	const before = userTime(filters.to);
	if (scope === 'space') {
		if (outcomes.length) qs.status = outcomes.join(',');
		if (search) qs.search = search;
		if (callType) qs.call_type = callType;
		if (after !== undefined) qs.from_ts = Math.floor(after / 1000);
		if (before !== undefined) qs.to_ts = Math.floor(before / 1000);
	} else {
		if (outcomes.length) {
			const wanted = outcomes.map((o) => o.toLowerCase());
			checks.push((task) => {
				const outcome = objectOf(objectOf(objectOf(task.output).post_call_data).summary).status;
				return typeof outcome === 'string' && wanted.includes(outcome.trim().toLowerCase());
			});
		}
		if (search) {
			const pattern = searchPattern(search);
			checks.push((task) => {
				const input = objectOf(task.input);
				const output = objectOf(task.output);
				const fields = [input.name, input.contact_number, input.phone, output.customer, output.contact_number];
				return fields.some((f) => typeof f === 'string' && pattern.test(f));
			});
		}
		if (callType) {
			checks.push((task) => {
				const output = objectOf(task.output);
				const type = String(output.call_type ?? output.type ?? '');
				return type === callType || type === `${callType}PhoneCall`;
			});
		}
		if (after !== undefined || before !== undefined) {
			checks.push((task) => {
				const created = platformTime(task.created);
				// A row that does not say when it was created is not hidden on that ground.
				if (created === undefined) return true;
				return (after === undefined || created >= after) && (before === undefined || created <= before);
			});
		}
	}
	return { qs, match: checks.length ? (task) => checks.every((check) => check(task)) : undefined };
}
