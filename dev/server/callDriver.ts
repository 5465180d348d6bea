/**
 * Driving the local server's calls from outside, as tests, the demo and the control API do:
 * calls put through, attempts failed, calls ended, tasks added without a request, inbound calls,
 * and the lifecycle each new call gets (a call script's, else auto-finish's, else none).
 */
import { isOpen } from './callLifecycle';
import { SEED } from './seed';
import type { Store } from './store';
import type { CallLog, CallScript, Task } from './types';
import type { AgentWebhooks } from './webhooks';

export interface AutoFinish {
	/** A call's whole lifecycle takes this many ms after creation (a random point between the two). */
	minMs: number;
	maxMs: number;
	/** Share of calls that fail for good (0..1), exactly: 0.2 fails the 5th, 10th, 15th... call planned. */
	failRate: number;
	/** Share of completed calls whose first attempt failed and went back to pending (0..1; default 0.2). */
	retryRate?: number;
}

/** Which open tasks a driver call acts on: the oldest first. */
export interface CallSelection {
	count?: number;
	space?: string;
}

export class CallDriver {
	/** Calls to these numbers go as scripted, whatever `autoFinish` says. */
	callScripts: CallScript[] = [];

	constructor(
		private store: Store,
		private webhooks: AgentWebhooks,
		public autoFinish?: AutoFinish,
	) {}

	private openCalls(selection: CallSelection, statuses?: string[]): Task[] {
		const open = this.store.tasks.filter(
			(t) =>
				isOpen(t) && (!statuses || statuses.includes(t.status)) && (!selection.space || t.space === selection.space),
		);
		return open.slice(0, selection.count ?? open.length);
	}

	/** Puts calls through (`pending`/`scheduled` -> `in_progress`), the oldest first. */
	startCalls(selection: CallSelection = {}): Task[] {
		const chosen = this.openCalls(selection, ['pending', 'scheduled', 'hold', 'processing']);
		chosen.forEach((t) => this.store.startTask(t));
		return chosen;
	}

	/** Fails the current attempt of open calls: back to `pending`, the failure in `output`. */
	failAttempts(selection: CallSelection & { reason?: string } = {}): Task[] {
		const chosen = this.openCalls(selection);
		chosen.forEach((t) => this.store.failAttempt(t, selection.reason));
		return chosen;
	}

	/** Ends open calls now, the oldest first. */
	finishCalls(
		options: CallSelection & { failRate?: number; outcome?: 'completed' | 'failed' | 'partially_completed' } = {},
	): Task[] {
		const chosen = this.openCalls(options);
		for (const task of chosen) {
			const outcome = options.outcome ?? (this.store.random() < (options.failRate ?? 0) ? 'failed' : 'completed');
			this.store.finishTask(task, outcome);
		}
		return chosen;
	}

	/**
	 * Creates tasks as the seed user's create request would (one run), for tests that need
	 * calls to exist before a workflow runs. Nothing is planned for them: end them with
	 * `finishCalls` or the store.
	 */
	addTasks(
		contacts: Array<Record<string, unknown>>,
		options: { space?: string; pilot?: string; context?: string; scheduleType?: string } = {},
	): Task[] {
		const space = this.store.spaces.get(options.space ?? SEED.spaceToken);
		// The seed organization's owner, under whichever API token it has now (rotateToken).
		const user = [...this.store.users.values()].find((u) => u.orgs[SEED.orgHandle] === 'owner');
		if (!space || !user) throw new Error(`No space ${options.space ?? SEED.spaceToken} or seed user`);
		const { tasks } = this.store.createTasks(
			space,
			options.pilot ?? SEED.agentHandle,
			contacts,
			options.context ?? 'test',
			user,
			null,
			options.scheduleType,
		);
		return tasks;
	}

	/**
	 * A copy of `task`'s document put into a new run of its space, as anyone who can read the
	 * space's tasks and create one could (the resume address and wait token included). End it
	 * with the store: Unpod pushes its end as any other.
	 */
	copyTask(task: Task, options: { space?: string } = {}): Task {
		const [copy] = this.addTasks([{ ...task.input }], { space: options.space ?? task.space, pilot: task.assignee });
		return copy;
	}

	/**
	 * Plans each call's lifecycle: a call script's for its number, else `autoFinish`'s, else
	 * none. New tasks get it at creation; a test that created calls with no plan (to let them
	 * end only once its workflow is ready) plans them itself.
	 */
	planCalls(tasks: Task[]): void {
		const auto = this.autoFinish;
		for (const t of tasks) {
			const script = this.callScripts.find((s) => s.number === t.input.contact_number);
			if (script) {
				this.store.planScripted(t, script);
				continue;
			}
			if (!auto) continue;
			const total = auto.minMs + this.store.random() * (auto.maxMs - auto.minMs);
			this.store.planLifecycle(t, total, auto.failRate, auto.retryRate ?? 0.2);
		}
	}

	/**
	 * A call someone made to an agent, ended now: logged as Unpod logs it, its live events sent
	 * to the agent's webhook. (Unpod also opens a task for it, which its current voice handler
	 * never completes: see docs/unpod-quirks.md, Inbound calls.)
	 */
	inboundCall(call: { from?: string; status?: string; seconds?: number; agent?: string } = {}): CallLog {
		const seconds = call.seconds ?? 48;
		const endMs = Date.now();
		const agent = this.store.agents.get(call.agent ?? SEED.secondAgentHandle);
		const space = [...this.store.spaces.values()].find((s) => agent && s.agents.includes(agent.handle));
		const log = this.store.addCallLog({
			org: agent?.org ?? SEED.orgHandle,
			call_status: call.status ?? 'completed',
			end_reason: seconds ? 'Customer Ended The Call' : 'No Answer',
			call_type: 'inbound',
			agent: agent?.handle ?? null,
			space: space?.token ?? null,
			startMs: endMs - seconds * 1000,
			endMs,
			source_number: SEED.agentNumber,
			destination_number: call.from ?? SEED.inboundCaller,
		});
		this.webhooks.onInboundCall(log);
		return log;
	}
}
