/**
 * The local server's tables: users, organizations, bridges, credentials, agents, spaces, runs,
 * tasks, the number pool and the call log, and how rows are added to them (as Unpod adds them).
 */
import { hex, isoNoZone, objectId, runId, slugify, taskId } from './ids';
import { SEED } from './seed';
import type {
	Agent,
	AgentSettings,
	Bridge,
	CallLog,
	Org,
	PoolNumber,
	ProviderCredential,
	Run,
	Space,
	Task,
	User,
} from './types';

export const BRIDGE_STATUSES = ['ACTIVE', 'DRAFT', 'INACTIVE'];
export const BRIDGE_REGIONS = ['IN', 'US', 'EU', 'AUS', 'UAE'];

export class Tables {
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
	/** Agents' post-call settings (Enable Followup, Enable Callback, analysis plan), by handle. */
	agentSettings = new Map<string, AgentSettings>();

	private nextBridgeId = 1;
	private nextCallLogId = 39_100;
	private lastUs = 0;

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
}
