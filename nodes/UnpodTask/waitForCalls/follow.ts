/**
 * Following the calls of Call and Wait until they end or the time is up. The steps that decide
 * (when to check next, which runs to read, what a run's list says of each call, what comes
 * out) are pure; `followCalls` strings them together with the requests and the waits.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { asNodeError } from '../../shared/errors';
import { readTaskList } from '../../shared/taskLists';
import { classifyFailure, pause, WaitBudget } from '../../shared/retry';
import { taskOutput } from '../../shared/outcome';
import { isFinal } from '../../shared/tasks';
import { ExistingTasks } from '../placeCalls/existingTasks';

/** One call being followed: the task of one contact row. */
export interface Followed {
	space: string;
	runId: string | null;
	/** Unknown when Unpod's create answer did not list one id per contact: found in the run by the contact. */
	taskId: string | null;
	document: IDataObject;
	/** The task as last read (or as the duplicate guard found it). */
	task?: IDataObject;
	status: string | null;
	/** Said on the output item: why the call was not placed again, what is not known. */
	notes: IDataObject;
}

/** A task as read from Unpod, as a followed call. */
export function followedTask(task: IDataObject): Followed {
	const text = (value: unknown) => (typeof value === 'string' ? value : null);
	return {
		space: '',
		runId: text(task.run_id),
		taskId: text(task.task_id),
		document: (task.input as IDataObject) ?? {},
		task,
		status: text(task.status),
		notes: {},
	};
}

/** A call has ended when its task's status is final (the polling trigger's notion). */
export const hasEnded = (call: Pick<Followed, 'status'>) => isFinal(call.status);

/**
 * Checks slow down by half again for each check that saw no change, up to twice Check Every:
 * at 4 times (measured) a 2-minute call was seen 35 to 39 s after it ended for one check fewer.
 */
export const BACKOFF_FACTOR = 1.5;
export const MAX_BACKOFF = 2;

/**
 * The wait before the next check: Check Every after a change (a call picked up or ended),
 * longer after each quiet check, never past the deadline.
 */
export function nextCheckDelay(intervalMs: number, quietChecks: number, msToDeadline: number): number {
	const backedOff = intervalMs * Math.min(MAX_BACKOFF, BACKOFF_FACTOR ** quietChecks);
	return Math.max(0, Math.min(backedOff, msToDeadline));
}

/** The runs that hold calls still open, each once: one list read per run per check. */
export function runsToRead(followed: Followed[]): Array<{ space: string; runId: string; calls: Followed[] }> {
	const runs = new Map<string, { space: string; runId: string; calls: Followed[] }>();
	for (const call of followed) {
		if (hasEnded(call) || !call.runId) continue;
		const key = JSON.stringify([call.space, call.runId]);
		const run = runs.get(key) ?? { space: call.space, runId: call.runId, calls: [] };
		run.calls.push(call);
		runs.set(key, run);
	}
	return [...runs.values()];
}

/** Tasks of the run these calls were sent in: numbers stored as sent, any age. */
const SAME_RUN = { countryCode: '', since: 0 };

/** Whether a listed task is one of `calls`: by task id, or by contact for a call whose id is not known. */
export function taskMatcher(calls: Followed[]): (task: IDataObject) => boolean {
	const ids = new Set(calls.map((c) => c.taskId).filter(Boolean));
	const unpaired = calls.filter((c) => !c.taskId);
	return (task) =>
		ids.has(String(task.task_id)) ||
		unpaired.some((c) => new ExistingTasks([task]).match(c.document, SAME_RUN)?.task.task_id === task.task_id);
}

/**
 * Takes what a run's list says of `calls`; returns whether any call's status changed. A call
 * without a task id takes the newest listed task of its contact that no other call holds.
 */
export function applyRunTasks(calls: Followed[], tasks: IDataObject[]): boolean {
	let changed = false;
	const byId = new Map(tasks.map((t) => [String(t.task_id), t]));
	for (const call of calls) {
		if (!call.taskId) {
			const held = new Set(calls.map((c) => c.taskId));
			const found = new ExistingTasks(tasks.filter((t) => !held.has(String(t.task_id)))).match(call.document, SAME_RUN);
			if (found) call.taskId = found.task.task_id;
		}
		const task = call.taskId ? byId.get(call.taskId) : undefined;
		if (!task) continue;
		call.task = task;
		if (task.status !== call.status) changed = true;
		call.status = typeof task.status === 'string' ? task.status : null;
	}
	return changed;
}

export type WaitStatus = 'ended' | 'timed_out';

/** The output of one call: its outcome (flat with Simplify) and where the wait stands. */
export function outcomeOf(call: Followed, simplify: boolean): IDataObject {
	// A call not read yet is described by what the create answer and the row said.
	const task = call.task ?? { task_id: call.taskId, run_id: call.runId, status: call.status, input: call.document };
	return {
		...taskOutput(task, simplify),
		task_id: call.taskId,
		run_id: call.runId,
		unpod_wait_status: (hasEnded(call) ? 'ended' : 'timed_out') satisfies WaitStatus,
		...call.notes,
	};
}

export interface FollowSettings {
	intervalMs: number;
	/** Epoch ms: no wait and no request after it. */
	deadline: number;
	signal?: AbortSignal;
}

/**
 * Checks the runs of the open calls until every call has ended or the deadline passed. A
 * check that fails on a rate limit or a server fault (after the shared retries) is skipped;
 * the next one may succeed and the calls go on either way. Any other failure ends the wait.
 */
export async function followCalls(
	context: IExecuteFunctions,
	followed: Followed[],
	settings: FollowSettings,
): Promise<void> {
	const budget = new WaitBudget(Number.MAX_SAFE_INTEGER, settings.signal);
	budget.deadline = settings.deadline;
	let quietChecks = 0;
	let failedCheck: string | undefined;
	// Calls without a run (an answer that named none) cannot be followed: they are not waited for.
	while (runsToRead(followed).length && Date.now() < settings.deadline) {
		const delay = nextCheckDelay(settings.intervalMs, quietChecks, settings.deadline - Date.now());
		await pause(context.getNode(), delay, settings.signal);
		let changed = false;
		failedCheck = undefined;
		for (const run of runsToRead(followed)) {
			try {
				// A run listed newest first stops being read once all its followed calls were seen.
				const tasks = await readTaskList(
					context,
					{ scope: 'run', space: run.space, runId: run.runId },
					{ budget, limit: run.calls.length, key: 'task_id', match: taskMatcher(run.calls) },
				);
				if (applyRunTasks(run.calls, tasks)) changed = true;
			} catch (error) {
				const kind = classifyFailure(error, true).kind;
				if (kind !== 'rateLimited' && kind !== 'transient') throw asNodeError(context.getNode(), error);
				failedCheck = (error as Error).message;
			}
		}
		quietChecks = changed ? 0 : quietChecks + 1;
	}
	if (failedCheck) {
		for (const call of followed.filter((c) => !hasEnded(c))) {
			call.notes.unpod_warning = `The last check of this call failed (${failedCheck}); its status is from an earlier check`;
		}
	}
}
