import { hex, isoNoZone, objectId, runId, slugify, taskId } from './ids';
import { completedOutput, failedOutput, failureReason } from './outcomes';
import { followUpTask, postCall } from './postCall';
import { seed, SEED } from './seed';
import type {
	Org,
	User,
	ProviderCredential,
	Bridge,
	Agent,
	Space,
	TaskStatus,
	TaskChange,
	PlannedStep,
	Run,
	Task,
	CallScript,
	CallLog,
	PoolNumber,
	AgentSettings,
} from './types';

export type * from './types';

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

export const BRIDGE_STATUSES = ['ACTIVE', 'DRAFT', 'INACTIVE'];
export const BRIDGE_REGIONS = ['IN', 'US', 'EU', 'AUS', 'UAE'];

export class Store {
	users = new Map<string, User>();
	/** Studio logins (JWT) -> the user's API token, for the v1 endpoints that take only a JWT. */
	jwts = new Map<string, string>();
	orgs = new Map<string, Org>();
	bridges = new Map<string, Bridge>();
	credentials = new Map<number, ProviderCredential>();
	agents = new Map<string, Agent>();
	spaces = new Map<string, Space>();
	/** All tasks, in creation order (oldest first). */
	tasks: Task[] = [];
	tasksById = new Map<string, Task>();
	runs = new Map<string, Run>();
	/** Unpod's number pool, of which `telephony/numbers/` lists the free ones. */
	poolNumbers: PoolNumber[] = [];
	/** The call log, oldest first: one row per ended call, inbound or outbound. */
	callLogs: CallLog[] = [];
	/** Tasks with a planned lifecycle (auto-finish), for the ticker. */
	planned = new Set<Task>();
	/** Agents' post-call settings (Enable Followup, Enable Callback, analysis plan), by handle. */
	agentSettings = new Map<string, AgentSettings>();

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

	private nextBridgeId = 1;
	private nextCallLogId = 39_100;
	private lastUs = 0;

	constructor(withSeed = true) {
		if (withSeed) seed(this);
	}

	/** A strictly increasing microsecond clock, so list order is never ambiguous. */
	nowUs(): number {
		this.lastUs = Math.max(Date.now() * 1000, this.lastUs + 1);
		return this.lastUs;
	}

	addOrg(handle: string, name: string): Org {
		const now = isoNoZone(this.nowUs()) + 'Z';
		const org: Org = {
			name,
			token: hex(20),
			domain: `${handle}.unpod.local`,
			domain_handle: handle,
			is_private_domain: false,
			logo: `https://media.unpod.local/${handle}.png`,
			account_type: 'business',
			seeking: [],
			tags: [],
			org_id: this.orgs.size + 1,
			created: now,
			modified: now,
			privacy_type: 'private',
			color: '#4f46e5',
			org_type: 'company',
			status: 'active',
		};
		this.orgs.set(handle, org);
		return org;
	}

	addBridge(org: string, fields: Partial<Bridge> & { name: string }): Bridge {
		const bridge: Bridge = {
			id: this.nextBridgeId++,
			org,
			description: '',
			status: 'DRAFT',
			documents_status: 'pending',
			slug: slugify(fields.name),
			numbers: [],
			hub: 1,
			region: 'IN',
			provider_credential: null,
			...fields,
		};
		this.bridges.set(bridge.slug, bridge);
		return bridge;
	}

	addSpace(org: string, token: string, name: string, agents: string[]): Space {
		const space: Space = {
			org,
			name,
			slug: name.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
			token,
			description: `${name} call list`,
			logo: null,
			privacy_type: 'shared',
			space_type: 'general',
			content_type: 'contact',
			agents,
			createdUs: this.nowUs(),
		};
		this.spaces.set(token, space);
		return space;
	}

	addAgent(org: string, handle: string, name: string, state = 'published', purpose = ''): Agent {
		const agent: Agent = {
			org,
			handle,
			name,
			type: 'Voice',
			state,
			purpose,
			description: purpose ? `${name}: ${purpose}` : name,
		};
		this.agents.set(handle, agent);
		return agent;
	}

	/**
	 * Logs an ended call, as Unpod's post-call flow does (`insert_call_log`): the bridge is
	 * the one holding the agent's number, the product that bridge's (else `unpod.ai`).
	 */
	addCallLog(fields: Omit<CallLog, 'id' | 'createdUs' | 'bridge' | 'product_id'> & Partial<CallLog>): CallLog {
		const bridge = [...this.bridges.values()].find(
			(b) => b.org === fields.org && b.numbers.some((n) => n.number === fields.source_number),
		);
		const log: CallLog = {
			id: this.nextCallLogId++,
			createdUs: this.nowUs(),
			bridge: bridge?.id ?? null,
			product_id: bridge ? SEED.productId : 'unpod.ai',
			...fields,
		};
		this.callLogs.push(log);
		return log;
	}

	createTasks(
		space: Space,
		pilot: string,
		documents: Array<Record<string, unknown>>,
		context: string,
		user: User,
		scheduled: string | null,
		scheduleType = 'now',
	): { runId: string; tasks: Task[] } {
		const run: Run = {
			run_id: runId(),
			space: space.token,
			org: space.org,
			collection_ref: `collection_data_${space.token}`,
			run_mode: 'prod',
			createdUs: this.nowUs(),
			tasks: [],
		};
		this.runs.set(run.run_id, run);
		const tasks = documents.map((document) => {
			const us = this.nowUs();
			const task: Task = {
				_id: objectId(),
				thread_id: hex(16),
				user_info: { email: user.email, full_name: user.full_name },
				task_id: taskId(),
				run_id: run.run_id,
				task: { objective: context },
				input: { ...document },
				output: {},
				attachments: [],
				assignee: pilot,
				// `auto` and `custom` schedules wait for their time; `now` goes to the dialer queue.
				status: scheduleType === 'now' ? 'pending' : 'scheduled',
				execution_type: space.content_type === 'email' ? 'email' : 'call',
				ref_id: typeof document.document_id === 'string' ? document.document_id : objectId(),
				run_mode: 'prod',
				failure_count: 0,
				last_failure_reason: null,
				retry_attempt: 0,
				scheduled_timestamp: scheduled,
				space: space.token,
				org: space.org,
				createdUs: us,
				modifiedUs: us,
				lastStatusChangeUs: us,
			};
			this.tasks.push(task);
			this.tasksById.set(task.task_id, task);
			run.tasks.push(task);
			return task;
		});
		return { runId: run.run_id, tasks };
	}

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
				: completedOutput(task, endMs, this.recordingBase, !!settings && !task.answer && droppedCall(task));
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

	/** A run's status, derived from its tasks as the platform does. */
	runStatus(run: Run): string {
		const statuses = run.tasks.map((t) => t.status);
		if (statuses.every((s) => s === 'pending' || s === 'scheduled')) return 'pending';
		if (statuses.some((s) => !FINAL_STATUSES.includes(s))) return 'running';
		if (statuses.every((s) => s === 'completed')) return 'completed';
		if (statuses.every((s) => s === 'failed')) return 'failed';
		return 'partially_completed';
	}

	runForm(run: Run): Record<string, unknown> {
		const modifiedUs = Math.max(run.createdUs, ...run.tasks.map((t) => t.modifiedUs));
		return {
			run_id: run.run_id,
			collection_ref: run.collection_ref,
			run_mode: run.run_mode,
			batch_count: run.tasks.length,
			status: this.runStatus(run),
			created: isoNoZone(run.createdUs),
			modified: isoNoZone(modifiedUs),
		};
	}

	spaceForm(task: Task): Record<string, unknown> {
		return {
			...this.commonForm(task),
			run_mode: task.run_mode,
			created: isoNoZone(task.createdUs),
			modified: isoNoZone(task.modifiedUs),
		};
	}

	agentForm(task: Task): Record<string, unknown> {
		return {
			...this.commonForm(task),
			failure_count: task.failure_count,
			last_failure_reason: task.last_failure_reason,
			retry_attempt: task.retry_attempt,
			last_status_change: isoNoZone(task.lastStatusChangeUs),
			scheduled_timestamp: task.scheduled_timestamp,
			created: isoNoZone(task.createdUs),
			modified: isoNoZone(task.modifiedUs),
		};
	}

	private commonForm(task: Task): Record<string, unknown> {
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
}
