/**
 * A local, stateful Unpod server: every endpoint of the platform spec plus the
 * organizations list, on 127.0.0.1. Tests, the demo and the benchmark use it.
 * Control endpoints for tests and the demo live under `/__sim/`.
 */
import { createServer, IncomingMessage, Server, ServerResponse } from 'http';
import type { AddressInfo } from 'net';
import { Faults, FaultRule, RandomFaults, RateLimiter } from './faults';
import { BRIDGE_STATUSES, Bridge, Org, SEED, Space, Store, Task, User } from './store';

export interface RecordedRequest {
	method: string;
	path: string;
	query: Record<string, string>;
	headers: Record<string, string>;
	body: unknown;
	status?: number;
	at: number;
}

export interface AutoFinish {
	/** Calls end this many ms after creation (a random point between the two). */
	minMs: number;
	maxMs: number;
	/** Share of calls that fail (0..1). */
	failRate: number;
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
}

interface Reply {
	status: number;
	body: unknown;
	headers?: Record<string, string>;
}

class HttpError extends Error {
	constructor(public reply: Reply) {
		super(`HTTP ${reply.status}`);
	}
}

const fail = (status: number, body: unknown): never => {
	throw new HttpError({ status, body });
};

const PREFIX = '/api/v2/platform';

export class UnpodServer {
	store: Store;
	faults = new Faults();
	rateLimiter: RateLimiter;
	requests: RecordedRequest[] = [];
	/** Bodies posted to `/__sim/sink`: where test workflows report what they received. */
	sink: unknown[] = [];
	maxDocuments: number;
	autoFinish?: AutoFinish;
	private server?: Server;
	private ticker?: NodeJS.Timeout;
	port = 0;

	constructor(private options: ServerOptions = {}) {
		this.store = new Store(options.seed !== false);
		this.rateLimiter = new RateLimiter(options.rateLimit ?? 0, options.rateLimitBurst ?? options.rateLimit ?? 0);
		this.maxDocuments = options.maxDocuments ?? 1000;
		this.autoFinish = options.autoFinish;
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
		this.ticker = setInterval(() => this.tick(), 100);
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

	/** Forgets recorded requests, faults and rate-limit state; keeps the data. */
	resetTraffic(): void {
		this.requests = [];
		this.faults.clear();
		this.rateLimiter.configure(0);
		this.rateLimiter.limited = 0;
	}

	/** Recorded platform requests (control requests are not recorded). */
	requestsTo(method: string, pathPart: string | RegExp): RecordedRequest[] {
		return this.requests.filter(
			(r) => r.method === method && (typeof pathPart === 'string' ? r.path.includes(pathPart) : pathPart.test(r.path)),
		);
	}

	/** Ends pending calls now: the oldest first, `count` of them (all when absent). */
	finishCalls(
		options: { count?: number; space?: string; failRate?: number; outcome?: 'completed' | 'failed' } = {},
	): Task[] {
		const pending = this.store.tasks.filter(
			(t) => t.status === 'pending' && (!options.space || t.space === options.space),
		);
		const chosen = pending.slice(0, options.count ?? pending.length);
		for (const task of chosen) {
			const outcome = options.outcome ?? (Math.random() < (options.failRate ?? 0) ? 'failed' : 'completed');
			this.store.finishTask(task, outcome);
		}
		return chosen;
	}

	private tick(): void {
		const now = Date.now();
		for (const task of this.store.tasks) {
			if (task.status === 'pending' && task.finishAt !== undefined && task.finishAt <= now) {
				const failed = Math.random() < (this.autoFinish?.failRate ?? 0);
				this.store.finishTask(task, failed ? 'failed' : 'completed');
			}
		}
	}

	private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const url = new URL(req.url ?? '/', 'http://127.0.0.1');
		const raw = await readBody(req);
		const method = (req.method ?? 'GET').toUpperCase();
		const path = url.pathname;

		if (path.startsWith('/__sim/')) {
			this.control(method, path, raw, res);
			return;
		}

		const record: RecordedRequest = {
			method,
			path,
			query: Object.fromEntries(url.searchParams),
			headers: Object.fromEntries(
				Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)]),
			),
			body: parseJson(raw),
			at: Date.now(),
		};
		this.requests.push(record);

		const key = String(req.headers.authorization ?? 'anonymous');
		const limit = this.rateLimiter.check(key);
		if (!limit.allowed) {
			record.status = 429;
			send(
				res,
				429,
				{
					status_code: 429,
					message: 'Request was throttled.',
					errors: `Expected available in ${limit.headers['Retry-After']} seconds.`,
				},
				limit.headers,
			);
			return;
		}

		const fault = this.faults.take(method, path);
		if (fault && (await this.applyFault(fault, res, record, limit.headers))) return;

		let reply: Reply;
		try {
			reply = this.route(method, path, url.searchParams, record.body, req.headers);
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

	/** Returns true when the fault answered the request itself. */
	private async applyFault(
		fault: FaultRule,
		res: ServerResponse,
		record: RecordedRequest,
		headers: Record<string, string>,
	): Promise<boolean> {
		switch (fault.kind) {
			case 'slow':
				await new Promise((r) => setTimeout(r, fault.delayMs ?? 2000));
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
				send(
					res,
					429,
					{
						status_code: 429,
						message: 'Request was throttled.',
						errors: `Expected available in ${retryAfter} seconds.`,
					},
					{
						...headers,
						'Retry-After': retryAfter,
					},
				);
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

	private control(method: string, path: string, raw: string, res: ServerResponse): void {
		const body = (parseJson(raw) ?? {}) as Record<string, any>;
		const op = path.slice('/__sim/'.length).replace(/\/$/, '');
		if (method === 'GET' && op === 'requests') return send(res, 200, this.requests);
		if (method === 'POST' && op === 'sink') {
			this.sink.push(parseJson(raw));
			return send(res, 200, { received: this.sink.length });
		}
		if (method === 'GET' && op === 'sink') return send(res, 200, this.sink);
		if (method === 'GET' && op === 'tasks') {
			return send(res, 200, {
				total: this.store.tasks.length,
				pending: this.store.tasks.filter((t) => t.status === 'pending').length,
				completed: this.store.tasks.filter((t) => t.status === 'completed').length,
				failed: this.store.tasks.filter((t) => t.status === 'failed').length,
				tasks: this.store.tasks.map((t) => ({ task_id: t.task_id, status: t.status, name: t.input.name })),
			});
		}
		if (method === 'POST' && op === 'finish')
			return send(
				res,
				200,
				this.finishCalls(body).map((t) => t.task_id),
			);
		if (method === 'POST' && op === 'auto-finish') {
			this.autoFinish = body.minMs === undefined ? undefined : (body as AutoFinish);
			return send(res, 200, { autoFinish: this.autoFinish ?? null });
		}
		if (method === 'POST' && op === 'rate-limit') {
			this.rateLimiter.configure(
				Number(body.perMinute ?? 0),
				body.burst === undefined ? undefined : Number(body.burst),
			);
			return send(res, 200, { perMinute: this.rateLimiter.perMinute });
		}
		if (method === 'POST' && op === 'faults') {
			const rule = body as FaultRule & { random?: RandomFaults };
			if (rule.random) this.faults.setRandom(rule.random);
			else this.faults.add(rule);
			return send(res, 200, { ok: true });
		}
		if (method === 'POST' && op === 'reset') {
			this.resetTraffic();
			return send(res, 200, { ok: true });
		}
		send(res, 404, { message: `Unknown control endpoint ${method} ${path}` });
	}

	// ---- the platform API ----

	private route(
		method: string,
		path: string,
		query: URLSearchParams,
		body: unknown,
		headers: IncomingMessage['headers'],
	): Reply {
		if (!path.startsWith(`${PREFIX}/`)) fail(404, { status_code: 404, message: 'Not found.' });
		const parts = path.slice(PREFIX.length + 1).split('/');
		// Every platform path ends with a slash.
		if (parts[parts.length - 1] !== '') fail(404, { status_code: 404, message: 'Not found.' });
		parts.pop();
		const user = this.authenticate(headers);
		const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;

		const [a0, a1, a2, a3] = parts;
		if (a0 === 'organizations' && parts.length === 1 && method === 'GET') return this.listOrganizations(user);
		if (a0 === 'telephony' && a1 === 'bridges') {
			const org = this.bridgeOrg(user, headers);
			if (parts.length === 2 && method === 'POST') return this.createBridge(org, b);
			if (parts.length === 2 && method === 'GET') return this.listBridges(org, query);
			if (parts.length === 3) {
				const bridge = this.findBridge(org, a2);
				if (method === 'GET')
					return { status: 200, body: envelope(200, 'Bridge fetched successfully', this.fullBridge(bridge)) };
				if (method === 'PATCH') return this.updateBridge(bridge, b);
				if (method === 'DELETE') {
					this.store.bridges.delete(bridge.slug);
					return { status: 200, body: envelope(200, 'Bridge deleted successfully', {}) };
				}
			}
			if (parts.length === 4 && method === 'POST' && (a3 === 'connect-provider' || a3 === 'disconnect-provider')) {
				return this.providerConnection(this.findBridge(org, a2), a3 === 'connect-provider', b);
			}
		}
		if (a0 === 'agents') {
			const org = this.platformOrg(user, headers);
			if (parts.length === 1 && method === 'GET') return this.listAgents(org);
			if (parts.length === 3 && a2 === 'tasks' && method === 'GET') return this.agentTasks(org, a1, query);
		}
		if (a0 === 'spaces') {
			const org = this.platformOrg(user, headers);
			if (parts.length === 1 && method === 'GET') return this.listSpaces(org);
			if (parts.length === 2 && method === 'GET') return this.getSpace(this.findSpace(org, a1));
			if (parts.length === 3 && a2 === 'tasks' && method === 'GET')
				return this.spaceTasks(this.findSpace(org, a1), query);
			if (parts.length === 3 && a2 === 'tasks' && method === 'POST')
				return this.createTasks(this.findSpace(org, a1), user, b);
		}
		return fail(404, { status_code: 404, message: 'Not found.' });
	}

	private authenticate(headers: IncomingMessage['headers']): User {
		const auth = headers.authorization;
		if (!auth) fail(401, { status_code: 401, message: 'Authentication credentials were not provided.' });
		const match = /^Token\s+(\S+)$/.exec(String(auth));
		const user = match ? this.store.users.get(match[1]) : undefined;
		if (!user) fail(401, { status_code: 401, message: 'Invalid token.' });
		return user!;
	}

	/** Bridge endpoints report header problems as 206 business failures, as the platform does. */
	private bridgeOrg(user: User, headers: IncomingMessage['headers']): Org {
		if (!headers['product-id'])
			fail(206, { message: 'Please provide Product-Id in headers', errors: 'Product-Id header is missing' });
		const handle = headers['org-handle'];
		if (!handle) fail(206, { message: 'Please provide Org-Handle in headers', errors: 'Org-Handle header is missing' });
		const org = this.store.orgs.get(String(handle));
		if (!org) fail(206, { message: 'Organization not found', errors: `No organization with handle '${handle}'` });
		this.checkMember(user, org!);
		return org!;
	}

	private platformOrg(user: User, headers: IncomingMessage['headers']): Org {
		const handle = headers['org-handle'];
		if (!handle) fail(400, { message: 'Org-Handle header is required' });
		const org = this.store.orgs.get(String(handle));
		if (!org) fail(404, { message: 'Organization not found' });
		this.checkMember(user, org!);
		return org!;
	}

	private checkMember(user: User, org: Org): void {
		if (!user.orgs[org.domain_handle]) {
			fail(403, { status_code: 403, message: 'You do not have permission to perform this action.' });
		}
	}

	private listOrganizations(user: User): Reply {
		const data = Object.entries(user.orgs).map(([handle, role]) => {
			const org = this.store.orgs.get(handle)!;
			return {
				name: org.name,
				token: org.token,
				domain: org.domain,
				domain_handle: org.domain_handle,
				is_private_domain: org.is_private_domain,
				role,
			};
		});
		return {
			status: 200,
			body: { status_code: 200, message: 'Organizations fetched successfully', count: data.length, data },
		};
	}

	private createBridge(org: Org, body: Record<string, unknown>): Reply {
		const errors: Record<string, string[]> = {};
		if (typeof body.name !== 'string' || !body.name.trim()) errors.name = ['This field is required.'];
		if (body.description !== undefined && typeof body.description !== 'string')
			errors.description = ['Not a valid string.'];
		if (body.region !== undefined && (typeof body.region !== 'string' || body.region.length > 8))
			errors.region = ['Enter a valid region code.'];
		if (Object.keys(errors).length) fail(400, { status_code: 400, message: 'Invalid data', errors });
		const bridge = this.store.addBridge(org.domain_handle, {
			name: String(body.name).trim(),
			description: (body.description as string) ?? '',
			region: (body.region as string) ?? '',
		});
		return {
			status: 201,
			body: envelope(201, 'Bridge created successfully', { ...this.fullBridge(bridge), organization: { ...org } }),
		};
	}

	private listBridges(org: Org, query: URLSearchParams): Reply {
		const all = [...this.store.bridges.values()].filter((b) => b.org === org.domain_handle).reverse();
		const { page, pageSize } = pageParams(query, 10);
		const data = all.slice((page - 1) * pageSize, page * pageSize).map((b) => ({
			id: b.id,
			name: b.name,
			slug: b.slug,
			status: b.status,
			description: b.description,
		}));
		return {
			status: 200,
			body: { status_code: 200, message: 'Bridges fetched successfully', count: all.length, data },
		};
	}

	private findBridge(org: Org, slug: string): Bridge {
		const bridge = this.store.bridges.get(decodeURIComponent(slug));
		if (!bridge || bridge.org !== org.domain_handle) {
			fail(404, {
				status_code: 404,
				message: 'Bridge not found',
				errors: `No bridge with slug '${decodeURIComponent(slug)}'`,
			});
		}
		return bridge!;
	}

	private updateBridge(bridge: Bridge, body: Record<string, unknown>): Reply {
		const errors: Record<string, string[]> = {};
		if (body.name !== undefined && (typeof body.name !== 'string' || !body.name.trim()))
			errors.name = ['This field may not be blank.'];
		if (body.status !== undefined && !BRIDGE_STATUSES.includes(String(body.status))) {
			errors.status = [`"${String(body.status)}" is not a valid choice.`];
		}
		if (Object.keys(errors).length) fail(400, { status_code: 400, message: 'Invalid data', errors });
		if (body.name !== undefined) bridge.name = String(body.name).trim();
		if (body.description !== undefined) bridge.description = String(body.description);
		if (body.status !== undefined) bridge.status = String(body.status);
		return { status: 200, body: envelope(200, 'Bridge updated successfully', this.fullBridge(bridge)) };
	}

	private providerConnection(bridge: Bridge, connect: boolean, body: Record<string, unknown>): Reply {
		const id = body.provider_credential_id;
		if (typeof id !== 'number' || !Number.isInteger(id)) {
			fail(400, {
				status_code: 400,
				message: 'Invalid data',
				errors: { provider_credential_id: ['A valid integer is required.'] },
			});
		}
		const credential = this.store.credentials.get(id as number);
		if (connect) {
			if (!credential || credential.org !== bridge.org) {
				fail(400, {
					status_code: 400,
					message: 'Provider credential not found',
					errors: `No provider credential with id ${id}`,
				});
			}
			if (!credential!.active) {
				fail(400, {
					status_code: 400,
					message: 'Provider credential is inactive',
					errors: `Provider credential ${id} is not active`,
				});
			}
			bridge.provider_credential = id as number;
		} else {
			if (bridge.provider_credential === null || bridge.provider_credential !== id) {
				fail(400, {
					status_code: 400,
					message: 'Provider is not connected to this bridge',
					errors: `Provider credential ${id} is not connected to bridge '${bridge.slug}'`,
				});
			}
			bridge.provider_credential = null;
		}
		const current =
			bridge.provider_credential === null ? null : this.store.credentials.get(bridge.provider_credential)!;
		return {
			status: 200,
			body: envelope(200, connect ? 'Provider connected successfully' : 'Provider disconnected successfully', {
				id: bridge.id,
				name: bridge.name,
				slug: bridge.slug,
				provider_credential: current && {
					id: current.id,
					name: current.name,
					provider: current.provider,
					provider_details: current.provider_details,
					active: current.active,
				},
			}),
		};
	}

	private fullBridge(bridge: Bridge): Record<string, unknown> {
		return {
			id: bridge.id,
			name: bridge.name,
			description: bridge.description,
			status: bridge.status,
			documents_status: bridge.documents_status,
			slug: bridge.slug,
			numbers: bridge.numbers,
			hub: bridge.hub,
			region: bridge.region,
		};
	}

	private listAgents(org: Org): Reply {
		const data = [...this.store.agents.values()]
			.filter((a) => a.org === org.domain_handle && a.state === 'published')
			.map(({ handle, name, type, state, purpose, description }) => ({
				handle,
				name,
				type,
				state,
				purpose,
				description,
			}));
		return {
			status: 200,
			body: { status_code: 200, message: 'Agents fetched successfully', count: data.length, data },
		};
	}

	private agentTasks(org: Org, handle: string, query: URLSearchParams): Reply {
		const agent = this.store.agents.get(decodeURIComponent(handle));
		if (!agent || agent.org !== org.domain_handle) fail(404, { message: 'Agent not found' });
		return this.taskList(
			(t) => t.assignee === agent!.handle && t.org === org.domain_handle,
			query,
			(t) => this.store.agentForm(t),
		);
	}

	private listSpaces(org: Org): Reply {
		const data = [...this.store.spaces.values()]
			.filter((s) => s.org === org.domain_handle)
			.sort((x, y) => y.createdUs - x.createdUs)
			.map((s) => this.spaceRecord(s, org));
		return {
			status: 200,
			body: { status_code: 200, message: 'Spaces fetched successfully', count: data.length, data },
		};
	}

	private getSpace(space: Space): Reply {
		const org = this.store.orgs.get(space.org)!;
		const agents = space.agents
			.map((h) => this.store.agents.get(h))
			.filter(Boolean)
			.map((a) => ({ handle: a!.handle, name: a!.name }));
		return {
			status: 200,
			body: envelope(200, 'Space fetched successfully', { ...this.spaceRecord(space, org), agents }),
		};
	}

	private spaceRecord(space: Space, org: Org): Record<string, unknown> {
		return {
			name: space.name,
			slug: space.slug,
			token: space.token,
			description: space.description,
			logo: space.logo,
			privacy_type: space.privacy_type,
			space_type: space.space_type,
			content_type: space.content_type,
			organization: { name: org.name, domain_handle: org.domain_handle },
		};
	}

	private findSpace(org: Org, token: string): Space {
		const space = this.store.spaces.get(decodeURIComponent(token));
		if (!space || space.org !== org.domain_handle) fail(404, { status_code: 404, message: 'Space not found' });
		return space!;
	}

	private spaceTasks(space: Space, query: URLSearchParams): Reply {
		return this.taskList(
			(t) => t.space === space.token,
			query,
			(t) => this.store.spaceForm(t),
		);
	}

	/** Task lists: newest first, `page`/`page_size`, and the source's undocumented filters. */
	private taskList(
		scope: (t: Task) => boolean,
		query: URLSearchParams,
		form: (t: Task) => Record<string, unknown>,
	): Reply {
		const { page, pageSize } = pageParams(query, 20);
		const search = query.get('search')?.toLowerCase();
		const status = query.get('status');
		const callType = query.get('call_type');
		const from = query.has('from_ts') ? Number(query.get('from_ts')) * 1e6 : undefined;
		const to = query.has('to_ts') ? Number(query.get('to_ts')) * 1e6 : undefined;
		const matched: Task[] = [];
		for (let i = this.store.tasks.length - 1; i >= 0; i--) {
			const t = this.store.tasks[i];
			if (!scope(t)) continue;
			if (status && t.status !== status) continue;
			if (callType && (t.output.call_type ?? 'outbound') !== callType) continue;
			if (from !== undefined && t.createdUs < from) continue;
			if (to !== undefined && t.createdUs > to) continue;
			if (search) {
				const hay = [t.input.name, t.input.contact_number, t.input.email, t.task_id].join(' ').toLowerCase();
				if (!hay.includes(search)) continue;
			}
			matched.push(t);
		}
		const data = matched.slice((page - 1) * pageSize, page * pageSize).map(form);
		return {
			status: 200,
			body: { status_code: 200, message: 'Tasks fetched successfully', count: matched.length, data },
		};
	}

	private createTasks(space: Space, user: User, body: Record<string, unknown>): Reply {
		const errors: Record<string, unknown> = {};
		if (typeof body.pilot !== 'string' || !body.pilot) errors.pilot = ['This field is required.'];
		const documents = body.documents;
		if (!Array.isArray(documents)) errors.documents = ['This field is required.'];
		else if (documents.length === 0) errors.documents = ['This list may not be empty.'];
		else if (documents.length > this.maxDocuments)
			errors.documents = [`Ensure this list has at most ${this.maxDocuments} items.`];
		else {
			documents.forEach((doc, i) => {
				if (!doc || typeof doc !== 'object') {
					errors[`documents[${i}]`] = ['Expected a document object.'];
					return;
				}
				const d = doc as Record<string, unknown>;
				if (typeof d.name !== 'string' || !d.name.trim()) errors[`documents[${i}].name`] = ['This field is required.'];
				if (typeof d.contact_number !== 'string' || !d.contact_number.trim()) {
					errors[`documents[${i}].contact_number`] = ['This field is required.'];
				}
				if (d.labels !== undefined && !Array.isArray(d.labels))
					errors[`documents[${i}].labels`] = ['Expected a list of items.'];
			});
		}
		if (body.context !== undefined && body.context !== null && typeof body.context !== 'string')
			errors.context = ['Not a valid string.'];
		let scheduled: string | null = null;
		if (body.schedule !== undefined && body.schedule !== null) {
			const s = body.schedule as Record<string, unknown>;
			if (!['now', 'auto', 'custom'].includes(String(s.type)))
				errors.schedule = [`"${String(s.type)}" is not a valid schedule type.`];
			else if (s.type === 'custom') {
				if (
					!/^\d{4}-\d{2}-\d{2}$/.test(String(s.calling_date ?? '')) ||
					!/^\d{2}:\d{2}(:\d{2})?$/.test(String(s.calling_time ?? ''))
				) {
					errors.schedule = ['A custom schedule needs calling_date (YYYY-MM-DD) and calling_time (HH:MM).'];
				} else scheduled = `${s.calling_date}T${s.calling_time}`;
			}
		}
		if (Object.keys(errors).length) fail(206, { message: 'Task creation failed', errors });
		const agent = this.store.agents.get(String(body.pilot));
		if (!agent || agent.org !== space.org)
			fail(206, { message: 'Task creation failed', errors: `Pilot '${String(body.pilot)}' not found` });
		if (agent!.state !== 'published')
			fail(206, { message: 'Task creation failed', errors: `Pilot '${agent!.handle}' is not published` });

		const { runId, tasks } = this.store.createTasks(
			space,
			agent!.handle,
			documents as Array<Record<string, unknown>>,
			typeof body.context === 'string' ? body.context : '',
			user,
			scheduled,
		);
		if (this.autoFinish) {
			const { minMs, maxMs } = this.autoFinish;
			for (const t of tasks) t.finishAt = Date.now() + minMs + Math.random() * (maxMs - minMs);
		}
		return {
			status: 200,
			body: {
				status_code: 200,
				message: 'Task Created Successfully',
				data: {
					run_id: runId,
					space_id: space.token,
					task_ids: tasks.map((t) => t.task_id),
					status: 'pending',
					created: new Date().toISOString().slice(0, 19),
				},
			},
		};
	}
}

function envelope(status: number, message: string, data: unknown) {
	return { status_code: status, message, data };
}

function pageParams(query: URLSearchParams, defaultSize: number): { page: number; pageSize: number } {
	const page = query.has('page') ? Number(query.get('page')) : 1;
	const pageSize = query.has('page_size') ? Number(query.get('page_size')) : defaultSize;
	if (!Number.isInteger(page) || page < 1 || !Number.isInteger(pageSize) || pageSize < 1) {
		fail(400, {
			status_code: 400,
			message: 'Invalid page parameters',
			errors: 'page and page_size must be positive integers',
		});
	}
	return { page, pageSize };
}

function parseJson(raw: string): unknown {
	if (!raw) return undefined;
	try {
		return JSON.parse(raw);
	} catch {
		return raw;
	}
}

function readBody(req: IncomingMessage): Promise<string> {
	return new Promise((resolve) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
		req.on('error', () => resolve(''));
	});
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
	if (res.destroyed) return;
	const text = JSON.stringify(body);
	res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), ...headers });
	res.end(text);
}

export { SEED };

export async function startServer(options: ServerOptions = {}): Promise<UnpodServer> {
	return new UnpodServer(options).start();
}
