/**
 * Unpod's post-call workflow, played per agent as its source does (`super/core/voice/workflows/
 * post_call.py`, `common/services.py`, 3328cc5 and later): the analysis plan fills
 * `structured_data` and `success_evaluator`; Enable Followup saves a new scheduled task in the
 * same run (`referenced_task`, `followup_count`, none once the count reaches max calls,
 * deduplicated among scheduled tasks by `ref_id`, else `referenced_task`); Enable Callback
 * reschedules a dropped call two minutes later (at most twice). The "LLM" here is a rule: a
 * follow-up is required when the person asked for a callback or nobody was reached.
 */
import { callTime, hex } from './ids';
import type { AgentSettings, Task } from './types';

/** The source's default (`FollowUpAnalyzer`): the first call and two follow-ups. */
const FOLLOW_UP_MAX_CALLS = 3;
/** How long after a call that reached no one Unpod's follow-up engine tries again. */
const FOLLOW_UP_RETRY_MS = 2 * 3600_000;
const REDIAL_AFTER_MS = 2 * 60_000;
const MAX_REDIALS = 2;

/**
 * Settings of an agent as a user sets it up in Studio: Unpod's follow-ups and redials on, and an
 * analysis plan that extracts a budget, a meeting date, the decision maker and the opt-out
 * (docs/task.md, do-not-call) and rates success.
 */
export const ANALYSED_AGENT: AgentSettings = {
	follow_up_enabled: true,
	callback_enabled: true,
	post_call_playbook: [
		{ success_evaluation: { prompt: 'Did the person agree to a demo?', success_evaluation_rubric: 'PassFail' } },
		{
			structured_data: {
				prompt: 'Extract what the person told us',
				options: {
					properties: {
						budget: { type: 'number' },
						meeting_date: { type: 'string' },
						decision_maker: { type: 'boolean' },
						caller_requested_do_not_call: { type: 'boolean' },
						do_not_call_reason: { type: 'string' },
					},
				},
			},
		},
	],
};

/** What the post-call asks the store to do once the ended task is saved. */
export interface PostCallSteps {
	/** A new scheduled task to save (Enable Followup). */
	followUp?: { atMs: number; followupCount: number };
	/** The same task again at this time (Enable Callback). */
	redialAtMs?: number;
}

/** The opt-out fields an agent's Analysis settings may list (the convention's name, and the short one). */
const OPT_OUT_FIELDS = ['caller_requested_do_not_call', 'do_not_call'];

/** The agent's fields, each given a value the way an extractor would read them from the call. */
function extract(properties: Record<string, { type?: string; enum?: unknown[] }>, task: Task, endMs: number) {
	const seed = parseInt(task.task_id.slice(5, 9), 16) || 1;
	const values: Record<string, unknown> = {};
	const optedOut = task.outcome === 'do_not_call';
	Object.entries(properties).forEach(([name, spec], i) => {
		const type = String(spec?.type ?? 'string');
		if (OPT_OUT_FIELDS.includes(name)) values[name] = optedOut;
		else if (name === 'do_not_call_reason') values[name] = optedOut ? 'Asked to be taken off the list' : null;
		else if (Array.isArray(spec?.enum) && spec.enum.length) values[name] = spec.enum[(seed + i) % spec.enum.length];
		else if (type === 'number' || type === 'integer') values[name] = 1000 * (1 + ((seed + i) % 20));
		else if (type === 'boolean') values[name] = (seed + i) % 2 === 0;
		else if (/date|time/i.test(name)) values[name] = callTime(endMs + 7 * 86400_000).slice(0, 10);
		else values[name] = `${name.replace(/_/g, ' ')} of ${String(task.input.name ?? 'the contact')}`;
	});
	return values;
}

/** A rubric's verdict, as the evaluator's LLM writes it: text. */
function verdict(rubric: unknown, reached: boolean, interested: boolean): string {
	if (rubric === 'NumericScale') return String(reached ? (interested ? 8 : 5) : 1);
	return String(reached && interested);
}

const plan = (settings: AgentSettings, key: 'structured_data' | 'success_evaluation') => {
	const entry = settings.post_call_playbook?.find((p) => p && typeof p === 'object' && key in p);
	const value = entry?.[key];
	return value && typeof value === 'object' ? (value as Record<string, any>) : undefined;
};

/** A zoned time as Python's `str(datetime)` writes it: `2026-12-02 10:00:00+00:00`. */
const pythonTime = (ms: number) =>
	new Date(ms)
		.toISOString()
		.replace('T', ' ')
		.replace(/\.\d+Z$/, '+00:00');

/** The first time at or after `ms` on a weekday between 8:00 and 20:00 UTC: the source's default slots. */
function inDefaultSlots(ms: number): number {
	let at = ms;
	for (let i = 0; i < 8; i++) {
		const d = new Date(at);
		const weekend = d.getUTCDay() === 0 || d.getUTCDay() === 6;
		if (!weekend && d.getUTCHours() >= 8 && d.getUTCHours() < 20) return at;
		at = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + (d.getUTCHours() >= 8 ? 1 : 0), 8);
	}
	return at;
}

export interface PostCallInput {
	settings: AgentSettings;
	task: Task;
	/** The call's output as the voice engine wrote it, its analysis in `post_call_data`. */
	output: Record<string, unknown>;
	endMs: number;
	reached: boolean;
	/** The scheduled tasks, among which `create_scheduled_task` looks for the agent's duplicate. */
	scheduled: Task[];
}

/** The post-call data of an ended call and what Unpod does next. */
export function postCall({ settings, task, output, endMs, reached, scheduled }: PostCallInput): {
	post: Record<string, unknown>;
	steps: PostCallSteps;
} {
	const post = { ...((output.post_call_data as Record<string, unknown>) ?? {}) };
	const summary = (post.summary ?? {}) as Record<string, unknown>;
	const interested = /interested|callback/i.test(String(summary.status ?? '')) && !/not/i.test(String(summary.status));
	const steps: PostCallSteps = {};

	const success = plan(settings, 'success_evaluation');
	post.success_evaluator = success ? verdict(success.success_evaluation_rubric, reached, interested) : null;
	const structured = plan(settings, 'structured_data');
	const properties = structured?.options?.properties;
	post.structured_data =
		reached && properties && typeof properties === 'object' ? extract(properties, task, endMs) : null;
	post.call_evaluation = {
		session_id: task.thread_id,
		evaluation_results: [],
		quality_metrics: { overall_quality_score: reached ? 0.8 : 0 },
		audio_file_path: null,
	};

	post.follow_up = followUp(settings, task, endMs, reached, scheduled, summary, steps);
	if (!(post.follow_up as Record<string, unknown>).status && /^(abandoned|dropped)$/i.test(String(summary.status))) {
		const redials = Number(task.input.redial_count ?? 0) + 1;
		if (!settings.callback_enabled) post.redial = 'instant redial not enabled';
		else if (redials > MAX_REDIALS) post.redial = 'unable to instant redial';
		else {
			post.redial = 'call_scheduled_for_redial';
			post.is_redial = true;
			steps.redialAtMs = endMs + REDIAL_AFTER_MS;
		}
	}
	return { post, steps };
}

function followUp(
	settings: AgentSettings,
	task: Task,
	endMs: number,
	reached: boolean,
	scheduled: Task[],
	summary: Record<string, unknown>,
	steps: PostCallSteps,
): Record<string, unknown> {
	if (!settings.follow_up_enabled) return { required: 'follow_up disabled' };
	const count = Number(task.output.followup_count ?? 0);
	const allowed = FOLLOW_UP_MAX_CALLS - 1;
	if (count >= allowed) {
		return {
			required: false,
			time: null,
			reason: `Follow-up suppressed: followup_count=${count} already reached retry_limit=${allowed} derived from max_calls=${FOLLOW_UP_MAX_CALLS}.`,
			status: null,
		};
	}
	const callback = typeof summary.callback_datetime === 'string' ? Date.parse(`${summary.callback_datetime}Z`) : NaN;
	const required = !reached || !Number.isNaN(callback);
	if (!required)
		return { required: false, time: null, reason: 'The call reached its end; nothing to follow up', status: null };
	const atMs = inDefaultSlots(Number.isNaN(callback) ? endMs + FOLLOW_UP_RETRY_MS : callback);
	const time = new Date(atMs)
		.toISOString()
		.replace('T', ' ')
		.replace(/\.\d+Z$/, '+00:00');
	const reason = reached ? 'The person asked to be called back' : 'Nobody was reached; try again later';
	const duplicate = scheduled.some(
		(t) =>
			t.assignee === task.assignee &&
			(task.ref_id ? t.ref_id === task.ref_id : t.output.referenced_task === task.task_id),
	);
	if (duplicate) return { required: true, time, reason, status: 'call_already_scheduled' };
	steps.followUp = { atMs, followupCount: count + 1 };
	return { required: true, time, reason, status: 'call_scheduled' };
}

/** The task `create_scheduled_task` saves: the input copied whole, the chain in `output`. */
export function followUpTask(task: Task, atMs: number, followupCount: number, nowUs: number): Task {
	return {
		...task,
		_id: hex(24),
		task_id: `T${hex(32)}`,
		task: { objective: '' },
		input: { ...task.input },
		output: {
			scheduled_time: new Date(atMs).toISOString(),
			followup_count: followupCount,
			referenced_task: task.task_id,
		},
		status: 'scheduled',
		ref_id: '',
		failure_count: 0,
		last_failure_reason: null,
		retry_attempt: 0,
		scheduled_timestamp: Math.floor(atMs / 1000),
		createdUs: nowUs,
		modifiedUs: nowUs,
		lastStatusChangeUs: nowUs,
		startedMs: undefined,
		answer: undefined,
		clockAheadMs: undefined,
		plan: undefined,
	};
}
