/**
 * The shapes the local server answers in: a run as the runs list gives it, a task as the
 * space's and the run's lists give it, and as the agent's list gives it (a few fields more).
 */
import { FINAL_STATUSES } from './callLifecycle';
import { isoNoZone } from './ids';
import type { Run, Task } from './types';

/** A run's status, derived from its tasks as the platform does. */
export function runStatus(run: Run): string {
	const statuses = run.tasks.map((t) => t.status);
	if (statuses.every((s) => s === 'pending' || s === 'scheduled')) return 'pending';
	if (statuses.some((s) => !FINAL_STATUSES.includes(s))) return 'running';
	if (statuses.every((s) => s === 'completed')) return 'completed';
	if (statuses.every((s) => s === 'failed')) return 'failed';
	return 'partially_completed';
}

export function runForm(run: Run): Record<string, unknown> {
	const modifiedUs = Math.max(run.createdUs, ...run.tasks.map((t) => t.modifiedUs));
	return {
		run_id: run.run_id,
		collection_ref: run.collection_ref,
		run_mode: run.run_mode,
		batch_count: run.tasks.length,
		status: runStatus(run),
		created: isoNoZone(run.createdUs),
		modified: isoNoZone(modifiedUs),
	};
}

function commonForm(task: Task): Record<string, unknown> {
	return {
		_id: task._id,
		thread_id: task.thread_id,
		user_info: task.user_info,
		task_id: task.task_id,
		run_id: task.run_id,
		task: task.task,
		input: task.input,
		output: task.output,
		attachments: task.attachments,
		assignee: task.assignee,
		status: task.status,
		execution_type: task.execution_type,
		ref_id: task.ref_id,
	};
}

export function spaceForm(task: Task): Record<string, unknown> {
	return {
		...commonForm(task),
		run_mode: task.run_mode,
		created: isoNoZone(task.createdUs),
		modified: isoNoZone(task.modifiedUs),
	};
}

export function agentForm(task: Task): Record<string, unknown> {
	return {
		...commonForm(task),
		failure_count: task.failure_count,
		last_failure_reason: task.last_failure_reason,
		retry_attempt: task.retry_attempt,
		last_status_change: isoNoZone(task.lastStatusChangeUs),
		scheduled_timestamp: task.scheduled_timestamp,
		created: isoNoZone(task.createdUs),
		modified: isoNoZone(task.modifiedUs),
	};
}
