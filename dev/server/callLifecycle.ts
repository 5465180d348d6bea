/**
 * The call lifecycle of the local server, as Unpod's dialer and post-call flow play it: a task's
 * call starts, may fail an attempt and go back to pending, ends with an output, is logged, and
 * (with an agent's post-call settings) gets its follow-up or redial. Planned steps (auto-finish,
 * call scripts) run on the server's ticker.
 */
import { failedOutput, completedOutput, failureReason } from './outcomes';
import { followUpTask, postCall } from './postCall';
import { Tables } from './tables';
import type { AgentSettings, CallScript, PlannedStep, Task, TaskChange, TaskStatus } from './types';

export const FINAL_STATUSES: TaskStatus[] = ['completed', 'failed', 'partially_completed'];
export const isOpen = (task: Task) => !FINAL_STATUSES.includes(task.status);

/** The chain Unpod keeps in a follow-up's output (`create_scheduled_task`). */
const chainOf = (task: Task): Record<string, unknown> =>
	Object.fromEntries(
		['scheduled_time', 'followup_count', 'referenced_task']
			.filter((key) => task.output[key] !== undefined)
			.map((key) => [key, task.output[key]]),
	);

/**
 * Whether a call of an agent with post-call settings drops after the greeting: one in six, by the
 * contact's number and the call's place in its chain (the same campaign drops the same calls).
 */
export function droppedCall(task: Pick<Task, 'input' | 'output'>): boolean {
	const digits =
		Number(
			String(task.input.contact_number ?? '')
				.replace(/\D/g, '')
				.slice(-4),
		) || 0;
	const place =
		Number(task.input.attempt ?? 1) + Number(task.output.followup_count ?? 0) + Number(task.input.redial_count ?? 0);
	return (digits + 7 * place) % 6 === 0;
}

export class CallLifecycle extends Tables {
	/** Tasks with a planned lifecycle (auto-finish), for the ticker. */
	planned = new Set<Task>();

	/**
	 * The random source of call lifecycles and outcomes: seeded, so that a run (a failing
	 * test) can be replayed with the same calls failing (the server's `randomSeed`).
	 */
	random: () => number = Math.random;

	/** Auto-finished calls planned so far: the fail share counts them. */
	private autoPlanned = 0;

	/**
	 * How many times faster than real time a scheduled call's wait passes (1: real time). The
	 * call then reports the times it would have had (scheduled for Friday 10:00, it ends on
	 * Friday 10:01), so that a campaign of days plays out in seconds while every request and
	 * check still runs on the real clock.
	 */
	timeScale = 1;

	/**
	 * When a task's call may start, in real time: now, or its custom schedule's time (UTC, as
	 * Unpod reads it), reached `timeScale` times faster.
	 */
	private startOf(task: Task): number {
		const now = Date.now();
		const stamp = task.scheduled_timestamp;
		const scheduled = typeof stamp === 'number' ? stamp * 1000 : stamp ? Date.parse(`${stamp}Z`) : Number.NaN;
		if (Number.isNaN(scheduled) || scheduled <= now) return now;
		const start = now + (scheduled - now) / this.timeScale;
		task.clockAheadMs = scheduled - start;
		return start;
	}

	/** A real time as the task's call tells it: ahead for a call whose wait was shortened. */
	private callTime(task: Task, realMs: number): number {
		return realMs + (task.clockAheadMs ?? 0);
	}

	/** Told of each step of a call (the server's agent webhooks listen). */
	onChange?: (task: Task, change: TaskChange) => void;
	/** Told of a call Unpod scheduled itself (a follow-up or a redial), so that its lifecycle is planned. */
	onScheduled?: (task: Task) => void;
	/** The lifecycle the server plays (its behaviour, which tests switch). */
	lifecycle: () => 'source' | 'newer' = () => 'source';

	/** Where ended calls' recordings are said to live; the server sets its own address on start. */
	recordingBase = 'https://recordings.unpod.local';

	private touch(task: Task, status: TaskStatus): void {
		const us = this.nowUs();
		if (status !== task.status) task.lastStatusChangeUs = us;
		task.status = status;
		task.modifiedUs = us;
	}

	/** The dialer picks the call up: `pending`/`scheduled` -> `in_progress`. */
	startTask(task: Task, atMs = Date.now()): boolean {
		if (!['pending', 'scheduled', 'hold', 'processing'].includes(task.status)) return false;
		task.startedMs = this.callTime(task, atMs);
		this.touch(task, 'in_progress');
		this.onChange?.(task, 'started');
		return true;
	}

	/**
	 * An attempt that did not reach the contact and will be retried: back to `pending`,
	 * with the failure written to `output`. Not an ending.
	 */
	failAttempt(task: Task, reason?: string, atMs = Date.now()): boolean {
		if (!isOpen(task)) return false;
		const endMs = this.callTime(task, atMs);
		task.retry_attempt += 1;
		task.failure_count += 1;
		task.last_failure_reason = reason ?? failureReason(task);
		task.output = { ...failedOutput(task, endMs), call_end_reason: task.last_failure_reason, ...chainOf(task) };
		this.touch(task, 'pending');
		this.onChange?.(task, 'attemptFailed');
		task.startedMs = undefined;
		return true;
	}

	/** Ends an open task's call with a realistic output, then plays the agent's post-call (if it has settings). */
	finishTask(task: Task, outcome: 'completed' | 'failed' | 'partially_completed', atMs = Date.now()): boolean {
		if (!isOpen(task)) return false;
		const endMs = this.callTime(task, atMs);
		task.startedMs ??= endMs;
		const settings = this.agentSettings.get(task.assignee);
		const output =
			outcome === 'failed'
				? failedOutput(task, endMs)
				: completedOutput(
						task,
						endMs,
						this.recordingBase,
						!!settings && !task.answer && (task.dropped === true || droppedCall(task)),
					);
		const steps = settings ? this.playPostCall(settings, task, output, endMs, outcome !== 'failed') : {};
		// Unpod's chain stays on a follow-up when its call ends: the next follow-up counts from it.
		task.output = { ...output, ...chainOf(task) };
		if (outcome === 'failed') {
			task.failure_count += 1;
			task.last_failure_reason = String(task.output.call_end_reason);
		}
		task.plan = undefined;
		this.planned.delete(task);
		this.touch(task, outcome);
		this.logCall(task, outcome);
		if (steps.followUp) this.saveFollowUp(task, steps.followUp.atMs, steps.followUp.followupCount);
		this.onChange?.(task, 'ended');
		if (steps.redialAtMs !== undefined) this.redial(task, steps.redialAtMs);
		return true;
	}

	private playPostCall(
		settings: AgentSettings,
		task: Task,
		output: Record<string, unknown>,
		endMs: number,
		reached: boolean,
	) {
		const scheduled = this.tasks.filter((t) => t.status === 'scheduled' && t !== task);
		const { post, steps } = postCall({ settings, task, output, endMs, reached, scheduled });
		output.post_call_data = post;
		return steps;
	}

	/** `create_scheduled_task`: a new scheduled task in the same run, the input copied whole. */
	private saveFollowUp(task: Task, atMs: number, followupCount: number): void {
		const next = followUpTask(task, atMs, followupCount, this.nowUs());
		this.tasks.push(next);
		this.tasksById.set(next.task_id, next);
		this.runs.get(task.run_id)?.tasks.push(next);
		this.onScheduled?.(next);
	}

	/** `schedule_redial_task`: the same task, scheduled again, its redial counted in its input. */
	private redial(task: Task, atMs: number): void {
		task.input = {
			...task.input,
			redial_count: Number(task.input.redial_count ?? 0) + 1,
			transcript: task.output.transcript,
		};
		task.scheduled_timestamp = Math.floor(atMs / 1000);
		task.clockAheadMs = undefined;
		task.startedMs = undefined;
		this.touch(task, 'scheduled');
		this.onScheduled?.(task);
	}

	private logCall(task: Task, outcome: string): void {
		const output = task.output;
		const startMs = Date.parse(String(output.start_time ?? '').replace(' ', 'T') + 'Z') || Date.now();
		this.addCallLog({
			org: task.org,
			call_status: outcome,
			end_reason: String(output.call_end_reason ?? ''),
			call_type: 'outbound',
			agent: task.assignee,
			space: task.space,
			startMs,
			endMs: startMs + Number(output.duration ?? 0) * 1000,
			source_number: String(output.assistant_number ?? ''),
			destination_number: String(task.input.contact_number ?? ''),
		});
	}

	/**
	 * A whole lifecycle for an auto-finishing call, spread over `totalMs`: picked up, maybe
	 * an attempt that fails and goes back to pending, then completed or failed.
	 */
	planLifecycle(task: Task, totalMs: number, failRate: number, retryRate: number): void {
		// Exactly that share fails, not about it: with 0.2, the 5th, 10th, 15th... call planned.
		const planned = ++this.autoPlanned;
		const fails = Math.floor(planned * failRate + 1e-9) > Math.floor((planned - 1) * failRate + 1e-9);
		// A call that fails for good has used its retries; some completed calls needed one (where
		// Unpod retries: in the newer lifecycle a failed attempt ends the call, so none is planned).
		const retried = fails || (this.lifecycle() !== 'newer' && this.random() < retryRate);
		this.plan(task, totalMs, retried, fails ? 'fail' : 'complete', this.startOf(task));
	}

	/** The lifecycle a script gives a call, from now. */
	planScripted(task: Task, script: CallScript): void {
		if (script.answer) task.answer = script.answer;
		if (script.outcome) task.outcome = script.outcome;
		if (script.skipsOpening) task.skipsOpening = true;
		if (script.dropped) task.dropped = true;
		const ends = {
			completed: 'complete',
			failed: 'fail',
			partially_completed: 'partial',
			failedAfterRetry: 'fail',
			never: undefined,
		} as const;
		this.plan(task, script.afterMs ?? 2000, script.end === 'failedAfterRetry', ends[script.end], this.startOf(task));
	}

	/**
	 * Picked up at a quarter of `totalMs`; with `retried`, an attempt fails at half and the call is
	 * picked up again at 70%; it ends with `end` at `totalMs`, or stays open without one.
	 */
	private plan(
		task: Task,
		totalMs: number,
		retried: boolean,
		end: 'complete' | 'fail' | 'partial' | undefined,
		now = Date.now(),
	): void {
		const steps: PlannedStep[] = [{ at: now + totalMs * 0.25, step: 'start' }];
		if (retried) {
			steps.push({ at: now + totalMs * 0.5, step: 'failAttempt' }, { at: now + totalMs * 0.7, step: 'start' });
		}
		if (end) steps.push({ at: now + totalMs, step: end });
		task.plan = steps;
		this.planned.add(task);
	}

	/** Carries out the planned steps that are due, each at its planned time. */
	advancePlans(now = Date.now()): void {
		for (const task of this.planned) {
			while (task.plan?.length && task.plan[0].at <= now) {
				const { step, at } = task.plan.shift()!;
				if (step === 'start') this.startTask(task, at);
				// The newer lifecycle does not retry: a failed dispatch ends the task.
				else if (step === 'failAttempt' && this.lifecycle() === 'newer') this.finishTask(task, 'failed', at);
				else if (step === 'failAttempt') this.failAttempt(task, undefined, at);
				else
					this.finishTask(
						task,
						step === 'complete' ? 'completed' : step === 'partial' ? 'partially_completed' : 'failed',
						at,
					);
			}
			if (!task.plan?.length) this.planned.delete(task);
		}
	}
}
