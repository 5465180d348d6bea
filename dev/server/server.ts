/**
 * A local, stateful twin of Unpod's platform API on 127.0.0.1: it answers as Unpod's real
 * backend does (see the README's "Spec and real service"), and the specification's shapes
 * can be switched on (`behaviour`). Tests, the demo and the benchmark use it. Control
 * endpoints live under `/__sim/` (control.ts).
 */
import { setTimeout as networkDelay } from 'timers/promises';
import { createServer, IncomingMessage, Server, ServerResponse } from 'http';
import type { AddressInfo } from 'net';
import { control } from './control';
import { RECORDING } from './recordings';
import { Faults, FaultRule, prng, RateLimiter } from './faults';
import { HttpError, parseJson, readBody, RecordedRequest, Reply, send } from './http';
import { agentRoutes } from './routes/agents';
import { bridgeRoutes } from './routes/bridges';
import { callLogRoutes } from './routes/callLogs';
import { Behaviour, Ctx, REAL_BACKEND, Route } from './routes/context';
import { organizationRoutes } from './routes/organizations';
import { reportRoutes } from './routes/reports';
import { runRoutes } from './routes/runs';
import { spaceRoutes } from './routes/spaces';
import { taskRoutes } from './routes/tasks';
import { telephonyRoutes } from './routes/telephony';
import { pilotRoute, PILOTS_PREFIX } from './routes/pilots';
import { AgentWebhooks } from './webhooks';
import { isOpen, Store } from './store';
import type { AgentSettings, CallLog, CallScript, Task } from './types';
import { SEED } from './seed';

export type { RecordedRequest } from './http';
export type { Behaviour } from './routes/context';
export type { DeliveryFaults, DeliveryRecord, WebhookForm } from './webhooks';

export interface AutoFinish {
	/** A call's whole lifecycle takes this many ms after creation (a random point between the two). */
	minMs: number;
	maxMs: number;
	/** Share of calls that fail for good (0..1), exactly: 0.2 fails the 5th, 10th, 15th... call planned. */
	failRate: number;
	/** Share of completed calls whose first attempt failed and went back to pending (0..1; default 0.2). */
	retryRate?: number;
}

export interface ServerOptions {
	port?: number;
	seed?: boolean;
	/** Requests a minute per token; 0 = unlimited. */
	rateLimit?: number;
	rateLimitBurst?: number;
	/** Largest `documents` array accepted by task creation. */
	maxDocuments?: number;
	autoFinish?: AutoFinish;
	behaviour?: Partial<Behaviour>;
	/**
	 * Seeds which calls fail or retry and how long they take: the same seed, the same calls
	 * (default UNPOD_SERVER_SEED, else 1).
	 */
	randomSeed?: number;
	/** How many times faster a scheduled call's wait passes (default 1: real time); see `Store.timeScale`. */
	timeScale?: number;
	/** Agents' post-call settings by handle (Unpod's Enable Followup, Enable Callback, analysis plan); none: plain outcomes. */
	agentSettings?: Record<string, AgentSettings>;
}

/** Which open tasks a control call acts on: the oldest first. */
export interface CallSelection {
	count?: number;
	space?: string;
}

const PREFIX = '/api/v2/platform';
const ROUTES: Route[] = [
	organizationRoutes,
	bridgeRoutes,
	telephonyRoutes,
	callLogRoutes,
	agentRoutes,
	taskRoutes,
	runRoutes,
	spaceRoutes,
	reportRoutes,
];

export class UnpodServer {
	store: Store;
	faults = new Faults();
	rateLimiter: RateLimiter;
	requests: RecordedRequest[] = [];
	/** Called with each platform request as it is recorded (a test acting at a given request). */
	onRequest?: (request: RecordedRequest) => void;
	/** Bodies posted to `/__sim/sink`: where test workflows report what they received. */
	sink: unknown[] = [];
	/** When each sink body arrived (epoch ms), for latency figures. */
	sinkAt: number[] = [];
	/** Agents' webhooks: where Unpod pushes ended tasks and live call events. */
	webhooks: AgentWebhooks;
	/** What every recording URL serves, and whether its length is announced (a storage host may not). */
	recording: Buffer = RECORDING;
	recordingLength = true;
	maxDocuments: number;
	autoFinish?: AutoFinish;
	/** Calls to these numbers go as scripted, whatever `autoFinish` says. */
	callScripts: CallScript[] = [];
	behaviour: Behaviour;
	/** The seed of this server's random source: start another with it to replay its calls. */
	readonly randomSeed: number;
	private server?: Server;
	private ticker?: NodeJS.Timeout;
	port = 0;

	constructor(private options: ServerOptions = {}) {
		this.store = new Store(options.seed !== false);
		this.randomSeed = options.randomSeed ?? (Number(process.env.UNPOD_SERVER_SEED) || 1);
		this.store.random = prng(this.randomSeed);
		this.store.timeScale = options.timeScale ?? 1;
		this.webhooks = new AgentWebhooks(this.store, () => this.store.random());
		this.store.onChange = (task, change) => this.webhooks.onTaskChange(task, change);
		this.store.onScheduled = (task) => this.planCalls([task]);
		for (const [agent, settings] of Object.entries(options.agentSettings ?? {}))
			this.store.agentSettings.set(agent, settings);
		this.store.lifecycle = () => this.behaviour.lifecycle;
		this.rateLimiter = new RateLimiter(options.rateLimit ?? 0, options.rateLimitBurst ?? options.rateLimit ?? 0);
		this.maxDocuments = options.maxDocuments ?? 1000;
		this.autoFinish = options.autoFinish;
		this.behaviour = { ...REAL_BACKEND, ...options.behaviour };
	}

	get url(): string {
		return `http://127.0.0.1:${this.port}`;
	}

	async start(): Promise<this> {
		this.server = createServer((req, res) => void this.handle(req, res));
		this.server.keepAliveTimeout = 1000;
		await new Promise<void>((resolve, reject) => {
			this.server!.once('error', reject);
			this.server!.listen(this.options.port ?? 0, '127.0.0.1', () => resolve());
		});
		this.port = (this.server.address() as AddressInfo).port;
		this.store.recordingBase = this.url;
		this.ticker = setInterval(() => this.store.advancePlans(), 100);
		this.ticker.unref();
		return this;
	}

	async stop(): Promise<void> {
		if (this.ticker) clearInterval(this.ticker);
		if (!this.server) return;
		this.server.closeAllConnections();
		await new Promise<void>((resolve) => this.server!.close(() => resolve()));
		this.server = undefined;
	}

	/** Forgets recorded requests, faults, rate-limit state, call scripts and backend-shape switches; keeps the data. */
	resetTraffic(): void {
		this.requests = [];
		this.faults.clear();
		this.rateLimiter.configure(0);
		this.rateLimiter.limited = 0;
		this.behaviour = { ...REAL_BACKEND, ...this.options.behaviour };
		this.recording = RECORDING;
		this.recordingLength = true;
		this.callScripts = [];
		this.webhooks.clear();
	}

	/**
	 * A call someone made to an agent, ended now: logged as Unpod logs it, its live events sent
	 * to the agent's webhook. (Unpod also opens a task for it, which its current voice handler
	 * never completes: see the README.)
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

	/** Recorded platform requests (control requests are not recorded). */
	requestsTo(method: string, pathPart: string | RegExp): RecordedRequest[] {
		return this.requests.filter(
			(r) => r.method === method && (typeof pathPart === 'string' ? r.path.includes(pathPart) : pathPart.test(r.path)),
		);
	}

	private record(
		req: IncomingMessage,
		method: string,
		path: string,
		query: Record<string, string>,
		body: unknown,
	): RecordedRequest {
		const headers = Object.fromEntries(
			Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)]),
		);
		const record: RecordedRequest = { method, path, query, headers, body, at: Date.now() };
		this.requests.push(record);
		this.onRequest?.(record);
		return record;
	}

	/**
	 * A recording, as a storage host serves it: no Unpod headers needed, and every request
	 * recorded, so tests can see which headers reached it. Only ended calls have one.
	 */
	private async serveRecording(method: string, path: string, req: IncomingMessage, res: ServerResponse) {
		const record = this.record(req, method, path, {}, undefined);
		const fault = this.faults.take(method, path);
		if (fault && (await this.applyFault(fault, res, record, {}))) return;
		const task = this.store.tasksById.get(path.slice('/recordings/'.length).replace(/\.mp3$/, ''));
		if (method !== 'GET') record.status = 405;
		else record.status = task?.output?.recording_url ? 200 : 404;
		if (record.status !== 200) {
			res.writeHead(record.status, { 'Content-Type': 'text/plain' });
			res.end(record.status === 404 ? 'Not Found' : 'Error');
			return;
		}
		const length = this.recordingLength ? { 'Content-Length': this.recording.length } : {};
		res.writeHead(200, { 'Content-Type': 'audio/mpeg', ...length });
		if (fault?.kind === 'dropAfter') {
			record.status = 0;
			res.socket?.destroy();
			return;
		}
		res.end(this.recording);
	}

	/** Requests received and not answered yet (a client may be gone; the work still happens). */
	inFlight(): number {
		return this.requests.filter((r) => r.status === undefined).length;
	}

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
		const user = this.store.users.get(SEED.token);
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

	private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const url = new URL(req.url ?? '/', 'http://127.0.0.1');
		const raw = await readBody(req);
		const method = (req.method ?? 'GET').toUpperCase();
		const path = url.pathname;

		if (path.startsWith('/__sim/')) return control(this, method, path, raw, res);
		if (path.startsWith('/recordings/')) return this.serveRecording(method, path, req, res);

		const record = this.record(req, method, path, Object.fromEntries(url.searchParams), parseJson(raw));

		const limit = this.rateLimiter.check(String(req.headers.authorization ?? 'anonymous'));
		if (!limit.allowed) {
			record.status = 429;
			return send(res, 429, throttled(limit.headers['Retry-After']), limit.headers);
		}

		const fault = this.faults.take(method, path);
		if (fault && (await this.applyFault(fault, res, record, limit.headers))) return;

		let reply: Reply;
		try {
			reply = this.route(method, url, record.body, req.headers);
		} catch (error) {
			if (error instanceof HttpError) reply = error.reply;
			else reply = { status: 500, body: { status_code: 500, message: 'Internal server error' } };
		}
		record.status = reply.status;
		if (fault?.kind === 'dropAfter') {
			record.status = 0;
			res.socket?.destroy();
			return;
		}
		send(res, reply.status, reply.body, { ...limit.headers, ...reply.headers });
	}

	private route(method: string, url: URL, body: unknown, headers: IncomingMessage['headers']): Reply {
		const notFound = { status: 404, body: { status_code: 404, message: 'Not found.' } };
		if (url.pathname.startsWith(PILOTS_PREFIX)) {
			const fields = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
			return pilotRoute(this.store, this.webhooks, method, url.pathname, fields, headers);
		}
		if (!url.pathname.startsWith(`${PREFIX}/`)) return notFound;
		const parts = url.pathname.slice(PREFIX.length + 1).split('/');
		// Every platform path ends with a slash.
		if (parts.pop() !== '') return notFound;
		const ctx: Ctx = {
			store: this.store,
			behaviour: this.behaviour,
			method,
			parts,
			query: url.searchParams,
			body: (body && typeof body === 'object' ? body : {}) as Record<string, unknown>,
			headers,
			maxDocuments: this.maxDocuments,
			onTasksCreated: (tasks) => this.planCalls(tasks),
		};
		for (const route of ROUTES) {
			const reply = route(ctx);
			if (reply) return reply;
		}
		return notFound;
	}

	/** Returns true when the fault answered the request itself. */
	private async applyFault(
		fault: FaultRule,
		res: ServerResponse,
		record: RecordedRequest,
		headers: Record<string, string>,
	): Promise<boolean> {
		switch (fault.kind) {
			case 'slow':
				// A slow network is wall-clock time, even where a test's clock runs the rest.
				await networkDelay(fault.delayMs ?? 2000);
				return false;
			case 'dropAfter':
				return false;
			case 'drop':
				record.status = 0;
				res.socket?.destroy();
				return true;
			case 'rateLimit': {
				record.status = 429;
				const retryAfter = String(fault.retryAfter ?? 1);
				send(res, 429, throttled(retryAfter), { ...headers, 'Retry-After': retryAfter });
				return true;
			}
			case 'serverError':
				record.status = 500;
				send(res, 500, { status_code: 500, message: 'Internal server error' });
				return true;
			case 'html':
				record.status = 502;
				res.writeHead(502, { 'Content-Type': 'text/html' });
				res.end(
					'<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1><hr>nginx</body></html>',
				);
				return true;
			case 'malformed':
				record.status = 200;
				res.writeHead(200, { 'Content-Type': 'application/json' });
				res.end('{"status_code": 200, "message": "OK", "data": [{"task_id": "T');
				return true;
			case 'status':
				record.status = fault.status ?? 500;
				send(res, fault.status ?? 500, fault.body ?? {});
				return true;
		}
	}
}

const throttled = (retryAfter: string) => ({
	status_code: 429,
	message: 'Request was throttled.',
	errors: `Expected available in ${retryAfter} seconds.`,
});

export async function startServer(options: ServerOptions = {}): Promise<UnpodServer> {
	return new UnpodServer(options).start();
}
