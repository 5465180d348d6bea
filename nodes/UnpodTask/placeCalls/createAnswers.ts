/**
 * What Unpod's create answer says of each row: its task, run and status, paired in order. The
 * specification and Unpod's backend word it differently; both are read.
 */
import type { IDataObject } from 'n8n-workflow';

/**
 * Each row's answer from a create answer: `task_ids` follow the order of the documents; without
 * one id per document no row can be paired, and each row says so.
 */
export function pairedAnswers(count: number, response: IDataObject): IDataObject[] {
	const data = (response.data ?? {}) as IDataObject;
	const taskIds = Array.isArray(data.task_ids) ? (data.task_ids as string[]) : [];
	const paired = taskIds.length === count;
	return Array.from({ length: count }, (_, i) => {
		const taskId = paired ? taskIds[i] : null;
		const answer: IDataObject = {
			task_id: taskId,
			run_id: data.run_id ?? null,
			task_status: statusOf(data.status, taskId),
		};
		if (!paired) {
			answer.unpod_warning =
				`Unpod created the tasks of this request (run ${String(data.run_id ?? 'unknown')}) but its answer ` +
				(taskIds.length ? `listed ${taskIds.length} task IDs for ${count} contacts` : 'listed no task IDs') +
				", so this row's task ID is not known. Find it with Unpod Task > Get Many, Search: the contact's name.";
		}
		return answer;
	});
}

/**
 * A task's status from a create answer: one string for all (the specification), or a map
 * task_id -> status (Unpod's backend). Without its id a row gets the status all tasks share.
 */
export function statusOf(status: unknown, taskId: string | null): string | null {
	if (typeof status === 'string') return status;
	if (status && typeof status === 'object' && !Array.isArray(status)) {
		const map = status as Record<string, unknown>;
		if (taskId && typeof map[taskId] === 'string') return map[taskId] as string;
		const values = [...new Set(Object.values(map).map(String))];
		return values.length === 1 ? values[0] : null;
	}
	return status === undefined || status === null ? 'pending' : String(status);
}
