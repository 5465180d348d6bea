/**
 * A local, stateful twin of Unpod's platform API on 127.0.0.1: it answers as Unpod's real
 * backend does (see docs/unpod-quirks.md, Spec and real service), and the specification's
 * shapes can be switched on (`behaviour`). Tests, the demo and the benchmark use it. This file
 * takes the requests and dispatches them: to the platform routes (routes/), the control API
 * under `/__sim/` (control.ts), the recording host (recordings.ts), past rate limits and faults
 * (faults.ts). The calls are driven by `calls` (callDriver.ts).
 */
import { createServer, IncomingMessage, Server, ServerResponse } from 'http';
import { createServer as createTlsServer } from 'https';
import type { AddressInfo } from 'net';
import { CallDriver } from './callDriver';
import type { AutoFinish } from './callDriver';
import { control } from './control';
import { RECORDING, serveRecording } from './recordings';
import { answerFault, Faults, prng, RateLimiter, throttled } from './faults';
import { headersOf, HttpError, parseJson, readBody, RecordedRequest, Reply, send } from './http';
import { agentRoutes } from './routes/agents';
import { bridgeRoutes } from './routes/bridges';
import { callLogRoutes } from './routes/callLogs';
import { Behaviour, Ctx, SPEC, Route } from './routes/context';
import { organizationRoutes } from './routes/organizations';
import { overviewRoutes } from './routes/overview';
import { peopleRoutes } from './routes/people';
import { reportRoutes } from './routes/reports';
import { runRoutes } from './routes/runs';
import { spaceRoutes } from './routes/spaces';
import { taskRoutes } from './routes/tasks';
import { telephonyRoutes } from './routes/telephony';
import { pilotRoute, PILOTS_PREFIX } from './routes/pilots';
import { AgentWebhooks } from './webhooks';
import { Store } from './store';
import type { AgentSettings } from './types';

export type { RecordedRequest } from './http';
export type { Behaviour } from './routes/context';
export type { DeliveryFaults, DeliveryRecord, WebhookForm } from './webhooks';

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
	/** Serve https with this key and certificate (for 127.0.0.1; see dev/twins/tls.ts), as Unpod does. */
	tls?: { key: Buffer; cert: Buffer };
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
	peopleRoutes,
	overviewRoutes,
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
	/** The calls: put through, failed, ended, added, planned (callDriver.ts). */
	calls: CallDriver;
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
		this.calls = new CallDriver(this.store, this.webhooks, options.autoFinish);
		this.store.onScheduled = (task) => this.calls.planCalls([task]);
		for (const [agent, settings] of Object.entries(options.agentSettings ?? {}))
			this.store.agentSettings.set(agent, settings);
		this.store.lifecycle = () => this.behaviour.lifecycle;
		this.rateLimiter = new RateLimiter(options.rateLimit ?? 0, options.rateLimitBurst ?? options.rateLimit ?? 0);
		this.maxDocuments = options.maxDocuments ?? 1000;
		this.behaviour = { ...SPEC, ...options.behaviour };
	}

	get url(): string {
		return `${this.options.tls ? 'https' : 'http'}://127.0.0.1:${this.port}`;
	}

	async start(): Promise<this> {
		const handle = (req: IncomingMessage, res: ServerResponse) => void this.handle(req, res);
		this.server = this.options.tls ? createTlsServer(this.options.tls, handle) : createServer(handle);
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

	/**
	 * A new API token for the user of `token`, which stops working at once, as after a leak: the
	 * user's organizations, spaces and tasks stay. Returns the new token.
	 */
	rotateToken(token: string, next = `${token}-rotated`): string {
		const user = this.store.users.get(token);
		if (!user) throw new Error(`No user has the token ${token}`);
		this.store.users.delete(token);
		this.store.users.set(next, { ...user, token: next });
		return next;
	}

	/** Forgets recorded requests, faults, rate-limit state, call scripts and backend-shape switches; keeps the data. */
	resetTraffic(): void {
		this.requests = [];
		this.faults.clear();
		this.rateLimiter.configure(0);
		this.rateLimiter.limited = 0;
		this.behaviour = { ...SPEC, ...this.options.behaviour };
		this.recording = RECORDING;
		this.recordingLength = true;
		this.calls.callScripts = [];
		this.webhooks.clear();
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
		const record: RecordedRequest = { method, path, query, headers: headersOf(req), body, at: Date.now() };
		this.requests.push(record);
		this.onRequest?.(record);
		return record;
	}

	/** Requests received and not answered yet (a client may be gone; the work still happens). */
	inFlight(): number {
		return this.requests.filter((r) => r.status === undefined).length;
	}

	private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const url = new URL(req.url ?? '/', 'http://127.0.0.1');
		const raw = await readBody(req);
		const method = (req.method ?? 'GET').toUpperCase();
		const path = url.pathname;

		if (path.startsWith('/__sim/')) return control(this, method, path, raw, res);
		if (path.startsWith('/recordings/')) {
			const { recording, recordingLength, faults } = this;
			const host = { recording, recordingLength, faults, tasksById: this.store.tasksById };
			return serveRecording(host, this.record(req, method, path, {}, undefined), res);
		}

		const record = this.record(req, method, path, Object.fromEntries(url.searchParams), parseJson(raw));

		const limit = this.rateLimiter.check(String(req.headers.authorization ?? 'anonymous'));
		if (!limit.allowed) {
			record.status = 429;
			return send(res, 429, throttled(limit.headers['Retry-After']), limit.headers);
		}

		const fault = this.faults.take(method, path);
		if (fault && (await answerFault(fault, res, record, limit.headers))) return;

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
			onTasksCreated: (tasks) => this.calls.planCalls(tasks),
		};
		for (const route of ROUTES) {
			const reply = route(ctx);
			if (reply) return reply;
		}
		return notFound;
	}
}

export async function startServer(options: ServerOptions = {}): Promise<UnpodServer> {
	return new UnpodServer(options).start();
}
