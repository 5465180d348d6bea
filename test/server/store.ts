import { callTime, hex, isoNoZone, objectId, runId, slugify, taskId } from './ids';

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
}

export interface ProviderCredential {
	id: number;
	org: string;
	name: string;
	provider: number;
	provider_details: { id: number; name: string; type: string };
	active: boolean;
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

export type TaskStatus = 'pending' | 'completed' | 'failed';

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
	scheduled_timestamp: string | null;
	space: string;
	org: string;
	createdUs: number;
	modifiedUs: number;
	lastStatusChangeUs: number;
	/** When the simulated call ends (epoch ms), if auto-finish is on. */
	finishAt?: number;
}

export const BRIDGE_STATUSES = ['ACTIVE', 'DRAFT', 'INACTIVE'];

/** Tokens and handles of the seeded data, for tests and the demo. */
export const SEED = {
	token: 'local-dev-token',
	orgHandle: 'acme',
	productId: 'unpod.dev',
	otherToken: 'globex-dev-token',
	otherOrgHandle: 'globex',
	bridgeSlug: 'main-line-a1b2c3',
	activeCredentialId: 101,
	inactiveCredentialId: 102,
	otherOrgCredentialId: 201,
	agentHandle: 'sales-assistant',
	secondAgentHandle: 'support-bot',
	draftAgentHandle: 'draft-agent',
	spaceToken: 'outbound-leads-7f3a9c',
	secondSpaceToken: 'renewals-2b8e41',
	otherSpaceToken: 'globex-space-9d0e11',
};

export class Store {
	users = new Map<string, User>();
	orgs = new Map<string, Org>();
	bridges = new Map<string, Bridge>();
	credentials = new Map<number, ProviderCredential>();
	agents = new Map<string, Agent>();
	spaces = new Map<string, Space>();
	/** All tasks, in creation order (oldest first). */
	tasks: Task[] = [];
	tasksById = new Map<string, Task>();

	private nextBridgeId = 1;
	private lastUs = 0;

	constructor(seed = true) {
		if (seed) this.seed();
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
			status: 'ACTIVE',
			documents_status: 'pending',
			slug: slugify(fields.name),
			numbers: [],
			hub: 1,
			region: '',
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

	createTasks(
		space: Space,
		pilot: string,
		documents: Array<Record<string, unknown>>,
		context: string,
		user: User,
		scheduled: string | null,
	): { runId: string; tasks: Task[] } {
		const run = runId();
		const tasks = documents.map((document) => {
			const us = this.nowUs();
			const task: Task = {
				_id: objectId(),
				thread_id: hex(16),
				user_info: { email: user.email, full_name: user.full_name },
				task_id: taskId(),
				run_id: run,
				task: { objective: context },
				input: { ...document },
				output: {},
				attachments: [],
				assignee: pilot,
				status: 'pending',
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
			return task;
		});
		return { runId: run, tasks };
	}

	/** Ends a pending task's call with a realistic output. */
	finishTask(task: Task, outcome: 'completed' | 'failed'): void {
		if (task.status !== 'pending') return;
		const endMs = Date.now();
		const us = this.nowUs();
		task.status = outcome;
		task.modifiedUs = us;
		task.lastStatusChangeUs = us;
		task.output = outcome === 'completed' ? completedOutput(task, endMs) : failedOutput(task, endMs);
		if (outcome === 'failed') {
			task.failure_count += 1;
			task.last_failure_reason = String(task.output.call_end_reason);
		}
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

	private seed(): void {
		this.users.set(SEED.token, {
			token: SEED.token,
			email: 'ops@acme.example',
			full_name: 'Acme Operations',
			orgs: { [SEED.orgHandle]: 'owner' },
		});
		this.users.set(SEED.otherToken, {
			token: SEED.otherToken,
			email: 'it@globex.example',
			full_name: 'Globex IT',
			orgs: { [SEED.otherOrgHandle]: 'owner' },
		});
		this.addOrg(SEED.orgHandle, 'Acme Calls');
		this.addOrg(SEED.otherOrgHandle, 'Globex');

		this.credentials.set(SEED.activeCredentialId, {
			id: SEED.activeCredentialId,
			org: SEED.orgHandle,
			name: 'Twilio Main',
			provider: 1,
			provider_details: { id: 1, name: 'Twilio', type: 'TELEPHONY' },
			active: true,
		});
		this.credentials.set(SEED.inactiveCredentialId, {
			id: SEED.inactiveCredentialId,
			org: SEED.orgHandle,
			name: 'Plivo Legacy',
			provider: 2,
			provider_details: { id: 2, name: 'Plivo', type: 'TELEPHONY' },
			active: false,
		});
		this.credentials.set(SEED.otherOrgCredentialId, {
			id: SEED.otherOrgCredentialId,
			org: SEED.otherOrgHandle,
			name: 'Globex Twilio',
			provider: 1,
			provider_details: { id: 1, name: 'Twilio', type: 'TELEPHONY' },
			active: true,
		});

		this.addBridge(SEED.orgHandle, {
			name: 'Main Line',
			slug: SEED.bridgeSlug,
			description: 'Outbound sales line',
			region: 'US',
			documents_status: 'verified',
			numbers: [
				{
					id: 1,
					number_id: 5001,
					number: '+14155550100',
					state: 'ASSIGNED',
					active: true,
					channels_count: 2,
					status: 'active',
				},
			],
		});
		this.addBridge(SEED.orgHandle, { name: 'Support Line', status: 'DRAFT', region: 'GB' });
		this.addBridge(SEED.otherOrgHandle, { name: 'Globex Line', region: 'DE' });

		this.addAgent(SEED.orgHandle, SEED.agentHandle, 'Sales Assistant', 'published', 'Qualify inbound leads');
		this.addAgent(SEED.orgHandle, SEED.secondAgentHandle, 'Support Bot', 'published', 'Renewal reminders');
		this.addAgent(SEED.orgHandle, SEED.draftAgentHandle, 'Draft Agent', 'draft');
		this.addAgent(SEED.otherOrgHandle, 'globex-agent', 'Globex Agent');

		this.addSpace(SEED.orgHandle, SEED.spaceToken, 'Outbound Leads', [SEED.agentHandle]);
		this.addSpace(SEED.orgHandle, SEED.secondSpaceToken, 'Renewals', [SEED.secondAgentHandle]);
		this.addSpace(SEED.otherOrgHandle, SEED.otherSpaceToken, 'Globex Space', ['globex-agent']);
	}
}

const OUTCOMES = [
	{ interest: 'high', outcome: 'interested', next: 'Send pricing and book a demo', labels: ['hot-lead'] },
	{ interest: 'medium', outcome: 'callback', next: 'Call back next week', labels: ['callback'] },
	{ interest: 'low', outcome: 'not_interested', next: 'Close the lead', labels: ['not-interested'] },
];

function completedOutput(task: Task, endMs: number): Record<string, unknown> {
	const name = String(task.input.name ?? 'there');
	const pick = OUTCOMES[parseInt(task.task_id.slice(1, 3), 16) % OUTCOMES.length];
	const duration = 45 + (parseInt(task.task_id.slice(3, 5), 16) % 200);
	const startMs = endMs - duration * 1000;
	const at = (s: number) => callTime(startMs + s * 1000);
	const callback = pick.outcome === 'callback';
	return {
		call_id: `call_${hex(24)}`,
		call_end_reason: 'customer-ended-call',
		start_time: at(0),
		end_time: at(duration),
		assistant_number: '+14155550100',
		call_summary: `${name} spoke with the assistant; outcome: ${pick.outcome.replace('_', ' ')}.`,
		duration,
		recording_url: `https://recordings.unpod.local/${task.task_id}.mp3`,
		transcript: [
			{
				role: 'assistant',
				content: `Hello ${name}, this is Acme calling about your enquiry.`,
				timestamp: at(1),
				message_id: `msg_${hex(8)}`,
			},
			{
				role: 'user',
				content: 'Hi, yes, tell me more.',
				timestamp: at(6),
				participant: String(task.input.contact_number ?? ''),
			},
			{
				role: 'assistant',
				content: 'I can send details and set up a follow-up.',
				timestamp: at(12),
				message_id: `msg_${hex(8)}`,
			},
			{
				role: 'user',
				content: callback ? 'Call me back next week.' : 'Thanks, bye.',
				timestamp: at(20),
				participant: String(task.input.contact_number ?? ''),
			},
		],
		post_call_data: {
			classification: { labels: pick.labels },
			summary: {
				status: pick.outcome,
				summary: `Call with ${name}: ${pick.outcome.replace('_', ' ')}.`,
				callback_datetime: callback ? callTime(endMs + 7 * 86400000) : '',
				hours_from_now: callback ? '168' : '',
			},
			call_back: null,
			follow_up: { required: callback ? 'yes' : 'no' },
			profile_summary: {
				tone: 'friendly',
				engagement: pick.interest,
				interest_level: pick.interest,
				outcome: pick.outcome,
				next_action: pick.next,
				summary_text: `${name} is ${pick.interest} interest.`,
				objections: pick.outcome === 'not_interested' ? ['price'] : [],
				questions_asked: ['What does it cost?'],
				pain_points: [],
				callback_requested: callback,
				callback_time: callback ? callTime(endMs + 7 * 86400000) : null,
			},
			structured_data: null,
		},
		metadata: {
			cost: Math.round(duration * 0.2) / 100,
			usage: { llm_tokens: duration * 12, tts_characters: duration * 15 },
		},
		call_type: 'outbound',
		call_status: 'completed',
	};
}

const FAILURES = ['no-answer', 'busy', 'failed'];

function failedOutput(task: Task, endMs: number): Record<string, unknown> {
	const reason = FAILURES[parseInt(task.task_id.slice(1, 3), 16) % FAILURES.length];
	return {
		call_id: `call_${hex(24)}`,
		call_end_reason: reason,
		start_time: callTime(endMs - 30000),
		end_time: callTime(endMs),
		assistant_number: '+14155550100',
		call_summary: null,
		duration: 0,
		recording_url: '',
		transcript: [],
		post_call_data: {},
		metadata: { cost: 0, usage: {} },
		call_type: 'outbound',
		call_status: reason,
	};
}
