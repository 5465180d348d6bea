/**
 * The flat outcome of a call: what every node that puts out calls gives with Simplify on (both
 * triggers, Get Many, Call and Wait, approvals). One key per fact, named once here; docs/task.md
 * (Simplify: the flat outcome) lists them all. Pure: reads a task in any shape Unpod writes it (docs sample, source, nulls,
 * JSON text where an object is expected).
 *
 * `post_call_data` comes in three shapes, each read by the keys it has (docs/unpod-quirks.md):
 * flat (`summary`, `outcome`, `sentiment` as text: OpenAPI 2.0.0's examples), nested (`summary`,
 * `profile_summary`, `classification`: the webhook guide and the backend) and grouped
 * (`schema_version: 2`, `analytics`, `lead`, `next_action`, `follow_up.state`: openapi 677bf31).
 */
import type { IDataObject } from 'n8n-workflow';
import { aiDisclosure } from './disclosure/evidence';
import { optOutOf } from './doNotCall';
import { WAIT_FIELDS, withoutWaitFields } from './resume';
import { isoTime } from './time';
import { isObject, objectOf, textOf } from './values';

const positiveInt = (value: unknown): number | undefined => {
	const n = typeof value === 'string' && value.trim() ? Number(value) : value;
	return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : undefined;
};

/** Who speaks for the agent in a transcript: `assistant` (backend), `agent` (OpenAPI 2.0.0's examples). */
const AGENT_ROLES = ['assistant', 'agent', 'bot'];

/** The transcript as readable lines: `Assistant: ...` / `Contact: ...`. */
export function transcriptText(transcript: unknown): string {
	if (!Array.isArray(transcript)) return '';
	return transcript
		.map((entry) => {
			const e = objectOf(entry);
			const who = AGENT_ROLES.includes(String(e.role))
				? 'Assistant'
				: e.role === 'user'
					? 'Contact'
					: String(e.role ?? 'Unknown');
			return `${who}: ${String(e.content ?? '').trim()}`;
		})
		.join('\n');
}

/** Fields of a contact document that Task > Follow Up writes to chain its calls. */
export const CHAIN_FIELDS = ['attempt', 'previous_task_id'];
/** Fields Unpod adds to a task's document when it redials (`schedule_redial_task`). */
const UNPOD_INPUT_FIELDS = ['redial_count', 'transcript'];

/**
 * The contact's own columns: every field the document was created with, the chain, Unpod's
 * additions and n8n's wait fields aside.
 */
export function contactColumns(input: unknown): IDataObject {
	const fields = { ...objectOf(input) };
	for (const key of [...CHAIN_FIELDS, ...UNPOD_INPUT_FIELDS, ...WAIT_FIELDS]) delete fields[key];
	return fields;
}

const REDIAL_SCHEDULED = 'call_scheduled_for_redial';

/**
 * Which call of its contact's chain a task is, counting every call, Unpod's and the package's:
 * the package's `attempt` in the document (what came before it), plus Unpod's own follow-ups
 * since (`output.followup_count`, kept on the task when its call ends) and redials
 * (`input.redial_count`, raised when a redial is scheduled, so one still to come is not counted).
 * `previous_task_id`: the task this one follows, Unpod's `referenced_task` before the package's.
 */
export function callChain(task: IDataObject): { attempt: number; previous_task_id: string | null } {
	const input = objectOf(task.input);
	const output = objectOf(task.output);
	const post = objectOf(output.post_call_data);
	const redialPending = redialOf(post) === REDIAL_SCHEDULED || post.is_redial === true;
	const base = positiveInt(input.attempt) ?? 1;
	// The grouped shape keeps the count on the task (`follow_up_count`), the backend in the output.
	const followUps = positiveInt(output.followup_count) ?? positiveInt(task.follow_up_count) ?? 0;
	const redials = Math.max(0, (positiveInt(input.redial_count) ?? 0) - (redialPending ? 1 : 0));
	const previous = output.referenced_task || input.previous_task_id;
	return { attempt: base + followUps + redials, previous_task_id: typeof previous === 'string' ? previous : null };
}

/** What a `required` reads as: Unpod writes a boolean, `yes`/`no`, or `follow_up disabled`. */
function requiredFlag(value: unknown): boolean | null {
	if (typeof value === 'boolean') return value;
	if (typeof value !== 'string' || !value.trim()) return null;
	if (/^\s*(true|yes|1)\b/i.test(value)) return true;
	if (/^\s*(false|no|0)\b|disabled/i.test(value)) return false;
	return null;
}

/** A redial's status: text in the backend's shape, `redial.status` in the grouped one. */
const redialOf = (post: IDataObject) => textOf(post.redial) ?? textOf(objectOf(post.redial).status);

/** Unpod's own next step after the call: its follow-up (`post_call_data.follow_up`) and its redial. */
export function unpodNextStep(post: IDataObject): IDataObject {
	const raw = post.follow_up;
	const followUp = objectOf(raw);
	const required = Object.keys(followUp).length ? followUp.required : raw;
	const disabled = typeof required === 'string' && /disabled/i.test(required);
	// The grouped shape names them `state` and `next_at`, the backend's `status` and `time`.
	const at = followUp.time || followUp.next_at;
	return {
		unpod_follow_up: requiredFlag(required),
		unpod_follow_up_at: at ? isoTime(at) : null,
		unpod_follow_up_status: disabled ? 'disabled' : (textOf(followUp.status) ?? textOf(followUp.state)),
		unpod_follow_up_reason: textOf(followUp.reason),
		unpod_redial: redialOf(post) ?? (post.is_redial === true ? REDIAL_SCHEDULED : null),
	};
}

/** Unpod's follow-up statuses that mean it will call the contact again itself. */
const UNPOD_CALLS_AGAIN = ['call_scheduled', 'call_already_scheduled'];
/**
 * Follow-up states and statuses that say no call comes, whatever else is set: each as a source
 * writes it (docs/unpod-quirks.md, "post_call_data").
 */
const NO_CALL_STATES: ReadonlyArray<{ matches: RegExp; source: string }> = [
	{ matches: /skip/i, source: 'openapi 677bf31: follow_up.state `skipped_inbound_call`' },
	{ matches: /disabl/i, source: 'backend post_call.py follow_up(): `{required: "follow_up disabled"}`' },
	{ matches: /fail/i, source: 'backend post_call.py follow_up(): status `failed to schedule_call`' },
];

/**
 * Whether Unpod itself calls again after this call, read from the flat outcome. A follow-up
 * with a time and a state that does not say otherwise counts as scheduled: the grouped shape's
 * states are not all documented, and a call placed twice costs more than one not placed by the
 * node.
 */
export function unpodCallsAgain(flat: IDataObject): 'follow_up' | 'redial' | undefined {
	const status = String(flat.unpod_follow_up_status ?? '');
	if (UNPOD_CALLS_AGAIN.includes(status)) return 'follow_up';
	if (flat.unpod_follow_up_at && flat.unpod_follow_up !== false && !NO_CALL_STATES.some((s) => s.matches.test(status)))
		return 'follow_up';
	if (flat.unpod_redial === REDIAL_SCHEDULED) return 'redial';
	return undefined;
}

/** What the agent was told to extract: an object of its own keys, or null when it extracts nothing. */
function extracted(value: unknown): IDataObject | null {
	if (value === null || value === undefined || value === '') return null;
	const fields = objectOf(value);
	if (Object.keys(fields).length) return fields;
	// Text or a list the extractor wrote instead of an object is kept, not lost.
	return isObject(value) ? null : { value: value as IDataObject[string] };
}

const numberOrNull = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const orNull = (value: unknown) => (value === undefined || value === '' ? null : (value as IDataObject[string]));
/** Unpod's analysis writes `N/A` or `None` where it has nothing to say. */
const said = (value: unknown) =>
	typeof value === 'string' && /^\s*(n\/?a|none|null)?\s*$/i.test(value) ? null : orNull(value);

/** The flat fields a CRM or a sheet wants from a task. */
export function simplifyTask(task: IDataObject): IDataObject {
	const input = objectOf(task.input);
	const output = objectOf(task.output);
	const post = objectOf(output.post_call_data);
	const profile = objectOf(post.profile_summary);
	const summary = objectOf(post.summary);
	const analytics = objectOf(post.analytics);
	const next = objectOf(post.next_action);
	const labels = objectOf(post.classification).labels ?? objectOf(post.lead).labels ?? input.labels ?? [];
	const nextLabels = Array.isArray(next.label) ? next.label.filter((l) => typeof l === 'string' && l.trim()) : [];
	const structured = extracted(post.structured_data);
	return {
		task_id: task.task_id ?? null,
		run_id: task.run_id ?? null,
		status: task.status ?? null,
		contact_name: input.name ?? null,
		contact_number: input.contact_number ?? null,
		contact_email: input.email ?? null,
		contact_company: input.company_name ?? null,
		document_id: input.document_id ?? task.ref_id ?? null,
		contact_fields: contactColumns(input),
		...callChain(task),
		call_status: output.call_status ?? null,
		call_end_reason: output.call_end_reason ?? null,
		duration: output.duration ?? null,
		// What Unpod says the call cost: its live service writes 0 here (docs/campaigns.md, Spend).
		cost: typeof output.cost === 'number' ? output.cost : (numberOrNull(objectOf(output.metadata).cost) ?? null),
		start_time: isoTime(output.start_time ?? null),
		end_time: isoTime(output.end_time ?? null),
		recording_url: output.recording_url || null,
		call_summary: output.call_summary ?? textOf(post.summary) ?? summary.summary ?? summary.headline ?? null,
		outcome: profile.outcome ?? summary.status ?? textOf(post.outcome) ?? analytics.outcome ?? null,
		sentiment: said(post.sentiment) ?? said(analytics.sentiment),
		interest_level: profile.interest_level ?? null,
		next_action:
			profile.next_action ??
			(typeof post.next_action === 'string' ? post.next_action : null) ??
			(nextLabels.join(', ') || null),
		callback_requested: profile.callback_requested ?? next.callback_requested ?? null,
		callback_time: said(profile.callback_time) ?? said(summary.callback_datetime) ?? said(next.scheduled_at),
		structured_data: structured,
		...optOutOf(structured),
		success_evaluation: orNull(post.success_evaluator),
		call_evaluation: orNull(post.call_evaluation),
		...unpodNextStep(post),
		labels: Array.isArray(labels) ? labels : [labels],
		transcript: transcriptText(output.transcript),
		// Whether the agent's first turns said it is an AI, and the line (disclosure/evidence.ts).
		...aiDisclosure(output.transcript),
		created: isoTime(task.created ?? null),
		modified: isoTime(task.modified ?? task.last_status_change ?? null),
	};
}

/** A task as a node puts it out: the flat outcome with Simplify on, else the task itself, n8n's wait fields off either way. */
export const taskOutput = (task: IDataObject, simplify: boolean): IDataObject =>
	simplify ? simplifyTask(task) : withoutWaitFields(task);
