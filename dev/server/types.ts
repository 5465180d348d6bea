/** The local server's records: what its store holds and its routes answer with. */

export interface Org {
	name: string;
	token: string;
	domain: string;
	domain_handle: string;
	is_private_domain: boolean;
	logo: string;
	account_type: string;
	seeking: string[];
	tags: string[];
	org_id: number;
	created: string;
	modified: string;
	privacy_type: string;
	color: string;
	org_type: string;
	status: string;
}

export interface User {
	token: string;
	email: string;
	full_name: string;
	/** org handle -> role */
	orgs: Record<string, string>;
}

export interface PhoneNumber {
	id: number;
	number_id: number;
	number: string;
	state: string;
	active: boolean;
	channels_count: number;
	status: string;
	/** The provider credential connected to this number, if any. */
	provider_credential: number | null;
	agent_id: string | null;
}

export interface ProviderCredential {
	id: number;
	org: string;
	name: string;
	provider: number;
	provider_details: { id: number; name: string; type: string };
	active: boolean;
	/** The carrier's secrets, which the February source's list and detail show in clear. */
	api_key?: string;
	api_secret?: string;
	meta_json?: Array<{ meta_key: string; meta_value: string }>;
	sip_url?: string;
	/** OpenAPI 2.0.0's fields: the account is shown, the token is stored and never shown. */
	account_sid?: string;
	auth_token?: string;
	created_at?: string;
}

/** A number of Unpod's pool (`TelephonyNumber`): `GET telephony/numbers/` lists the free ones. */
export interface PoolNumber {
	id: number;
	number: string;
	active: boolean;
	state: 'NOT_ASSIGNED' | 'ASSIGNED';
	/** The organization it is reserved for; null: any organization may take it. */
	org: string | null;
	/** An agent's own number: never listed. */
	agent_number: boolean;
	/** The agent it is attached to (`telephony/numbers/attach/`), if any. */
	agent?: string | null;
}

/**
 * A row of Unpod's call log (`metrics_calllog`): written when a call ends, inbound or
 * outbound. `source_number` is the agent's side and `destination_number` the other party.
 */
export interface CallLog {
	id: number;
	org: string;
	product_id: string;
	call_status: string;
	end_reason: string;
	call_type: 'inbound' | 'outbound';
	bridge: number | null;
	agent: string | null;
	space: string | null;
	createdUs: number;
	startMs: number;
	endMs: number;
	source_number: string;
	destination_number: string;
}

export interface Bridge {
	id: number;
	org: string;
	name: string;
	description: string;
	status: string;
	documents_status: string;
	slug: string;
	numbers: PhoneNumber[];
	hub: number;
	region: string;
	provider_credential: number | null;
	created_at?: string;
}

export interface Agent {
	org: string;
	handle: string;
	name: string;
	type: string;
	state: string;
	purpose: string;
	description: string;
}

export interface Space {
	org: string;
	name: string;
	slug: string;
	token: string;
	description: string;
	logo: string | null;
	privacy_type: string;
	space_type: string;
	content_type: string;
	agents: string[];
	createdUs: number;
}

/** Unpod's task states (`TaskStatusEnum`). */
export type TaskStatus =
	'pending' | 'scheduled' | 'in_progress' | 'processing' | 'hold' | 'completed' | 'failed' | 'partially_completed';

/** A step of a call that Unpod tells the agent's webhook about. */
export type TaskChange = 'started' | 'attemptFailed' | 'ended';

/** Where an auto-finishing call goes next, and when (epoch ms). */
export interface PlannedStep {
	at: number;
	step: 'start' | 'failAttempt' | 'complete' | 'partial' | 'fail';
}

/**
 * How the call to one number goes, for tests that need a given call: it ends in `afterMs`
 * (picked up at a quarter of it), completed, failed, failed after a first attempt went back
 * to pending, or it never ends (picked up, then open for good).
 */
/** What the person says to an approval call, as the agent's post-call analysis records it. */
export type ApprovalAnswer = 'approved' | 'declined' | 'unclear';

export interface CallScript {
	number: string;
	end: 'completed' | 'failed' | 'partially_completed' | 'failedAfterRetry' | 'never';
	afterMs?: number;
	/** A completed call's decision (an approval call): its labels, status, outcome and structured data say it. */
	answer?: ApprovalAnswer;
	/** A completed call's post-call verdict, instead of the one the task id picks. */
	outcome?: CallOutcome;
	/** The agent greets as it likes, leaving out the opening its context tells it to say first. */
	skipsOpening?: boolean;
	/** The line drops after the greeting (a call of an agent with post-call settings): Unpod's summary says `Dropped`. */
	dropped?: boolean;
}

/** The verdicts of a completed call's analysis; `do_not_call`: the person asked not to be called again. */
export type CallOutcome = 'interested' | 'callback' | 'not_interested' | 'do_not_call';

export interface Run {
	run_id: string;
	space: string;
	org: string;
	collection_ref: string;
	run_mode: string;
	createdUs: number;
	tasks: Task[];
}

export interface Task {
	_id: string;
	thread_id: string;
	user_info: { email: string; full_name: string };
	task_id: string;
	run_id: string;
	task: { objective: string };
	input: Record<string, unknown>;
	output: Record<string, unknown>;
	attachments: unknown[];
	assignee: string;
	status: TaskStatus;
	execution_type: string;
	ref_id: string;
	run_mode: string;
	failure_count: number;
	last_failure_reason: string | null;
	retry_attempt: number;
	/** The store's own schedules: ISO without a zone (UTC); Unpod's follow-ups and redials: unix seconds, as its source writes. */
	scheduled_timestamp: string | number | null;
	space: string;
	org: string;
	createdUs: number;
	modifiedUs: number;
	lastStatusChangeUs: number;
	/** When the call was put through (`in_progress`), epoch ms. */
	startedMs?: number;
	/** The decision a scripted approval call ends with. */
	answer?: ApprovalAnswer;
	/** The verdict a scripted call ends with. */
	outcome?: CallOutcome;
	/** A scripted agent that leaves out the opening its context tells it to say. */
	skipsOpening?: boolean;
	/** A scripted call that drops after the greeting. */
	dropped?: boolean;
	/** How far ahead of the real clock the call's own times run (a wait shortened by the server's time scale). */
	clockAheadMs?: number;
	/** The rest of an auto-finishing call's lifecycle, soonest first. */
	plan?: PlannedStep[];
}

/**
 * An agent's post-call settings, named as in its model config (Unpod's source): Enable Followup,
 * Enable Callback, and the Analysis plan (`post_call_playbook`: `{success_evaluation: {prompt,
 * success_evaluation_rubric}}`, `{structured_data: {prompt, options: {properties}}}`). An agent
 * without settings keeps the local server's plain outcomes.
 */
export interface AgentSettings {
	follow_up_enabled: boolean;
	callback_enabled: boolean;
	post_call_playbook?: Array<Record<string, unknown>>;
}
