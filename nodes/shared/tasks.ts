import type { IDataObject } from 'n8n-workflow';
import type { RowMatch } from './pagination';
import { platformTime, userTime } from './time';
import { objectOf } from './outcome';

/** Which task list: a space's, an agent's, or a run's (which applies no filter itself). */
export type TaskScope = 'space' | 'agent' | 'run';

/** Unpod's task states; the last three are final. */
export const TASK_STATUSES = [
	{ name: 'Pending', value: 'pending' },
	{ name: 'Scheduled', value: 'scheduled' },
	{ name: 'In Progress', value: 'in_progress' },
	{ name: 'Processing', value: 'processing' },
	{ name: 'On Hold', value: 'hold' },
	{ name: 'Completed', value: 'completed' },
	{ name: 'Failed', value: 'failed' },
	{ name: 'Partially Completed', value: 'partially_completed' },
];

/**
 * Final task states. Every other status (pending, scheduled, in_progress, processing, hold,
 * and any the node does not know) is open: the call may still end. A failed attempt goes
 * back to pending, so it is not an ending.
 */
export const FINAL_STATUSES = ['completed', 'failed', 'partially_completed'] as const;
export type FinalStatus = (typeof FINAL_STATUSES)[number];
export const isFinal = (status: unknown): status is FinalStatus =>
	(FINAL_STATUSES as readonly unknown[]).includes(status);

/** The endings a trigger can start on, named the same by both triggers. */
export const CALL_ENDINGS: Array<{ name: string; value: FinalStatus }> = [
	{ name: 'Call Completed', value: 'completed' },
	{ name: 'Call Failed', value: 'failed' },
	{ name: 'Call Partially Completed', value: 'partially_completed' },
];

export function taskListPath(scope: 'space' | 'agent', id: string): string {
	return scope === 'space' ? `/spaces/${encodeURIComponent(id)}/tasks/` : `/agents/${encodeURIComponent(id)}/tasks/`;
}

/** The tasks of one run (a create request's calls), 100 a page. */
export function runTasksPath(space: string, runId: string): string {
	return `/spaces/${encodeURIComponent(space)}/runs/${encodeURIComponent(runId)}/tasks/`;
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
	const direction = String(filters.direction ?? 'all');
	const callType = direction === 'all' ? '' : direction;
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
