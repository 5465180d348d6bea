/** What every route receives, and the checks of who is asking that routes share. */
import type { IncomingMessage } from 'http';
import { businessFailure, fail, Reply } from '../http';
import type { Store } from '../store';
import type { Org, Space, User } from '../types';

/**
 * Where Unpod's answers have differed, which way the server answers. The defaults are Unpod's
 * OpenAPI 2.0.0 (`SPEC`); `SOURCE_BACKEND` is the February 2026 source, and tests switch to it,
 * to the 2026 docs' shapes and to the first specification's to keep every shape covered.
 */
export interface Behaviour {
	/** Paths that create tasks: `tasks` (`POST /spaces/{t}/tasks/`), `create` (`.../tasks/create/`). */
	createPaths: Array<'tasks' | 'create'>;
	/** `status` of a create answer: a map task_id -> status (real backend), or one string (specification). */
	createStatus: 'map' | 'string';
	/** Whether a create answer lists `task_ids` (older services did not). */
	createTaskIds: boolean;
	/** Bridge delete: 204 with no body (real backend), or 200 with `data: {}` (specification). */
	deleteAnswer: 204 | 200;
	/** Spaces and organizations: `token` accepts the API token, `jwt` refuses it as the February source does. */
	spacesAuth: 'token' | 'jwt';
	/**
	 * Request shapes: `spec` (OpenAPI 2.0.0: the call log at `cdr/` only, provider credentials
	 * `{provider, account_sid, auth_token}` at `providers-configurations`, bridges created with
	 * `name` and `slug`, connect by `phone_number` and `provider_config_id`), `source` (the
	 * February 2026 source: connect by `number_id` and `provider_credential_id`, the call log at
	 * `call-logs/` with times `start_time` / `end_time` as `%d-%m-%Y %H:%M:%S`) or `docs` (the May
	 * 2026 docs: `phone_number` and `provider_config_id`, `start_date` / `end_date` as
	 * `YYYY-MM-DD`). Each reads only its own keys.
	 */
	shapes: 'spec' | 'source' | 'docs';
	/**
	 * Task lifecycle: `source` (a failed attempt goes back to pending and is retried; failures are
	 * pushed) or `newer` (5f97d21: a failed dispatch goes straight to `failed`, and only completed
	 * tasks are pushed).
	 */
	lifecycle: 'source' | 'newer';
}

/** Unpod's OpenAPI 2.0.0 (16c4309): tasks created at `tasks/create/` only, one status string. */
export const SPEC: Behaviour = {
	createPaths: ['create'],
	createStatus: 'string',
	createTaskIds: true,
	deleteAnswer: 204,
	spacesAuth: 'token',
	shapes: 'spec',
	lifecycle: 'source',
};

/** Unpod's backend as its February 2026 source answers (`parvbhullar/unpod` 15cd2ef). */
export const SOURCE_BACKEND: Partial<Behaviour> = {
	createPaths: ['tasks', 'create'],
	createStatus: 'map',
	shapes: 'source',
};

export interface Ctx {
	store: Store;
	behaviour: Behaviour;
	method: string;
	/** Path segments after `/api/v2/platform/`, without the trailing empty one. */
	parts: string[];
	query: URLSearchParams;
	body: Record<string, unknown>;
	headers: IncomingMessage['headers'];
	/** Largest `documents` array a create accepts. */
	maxDocuments: number;
	/** Plans an auto-finishing lifecycle for new tasks, when the server has one. */
	onTasksCreated(tasks: import('../types').Task[]): void;
}

export type Route = (ctx: Ctx) => Reply | undefined;

const NOT_PROVIDED = { status_code: 401, message: 'Authentication credentials were not provided.' };

/** The caller, from `Authorization: Token <key>`; `jwtOnly` refuses that scheme as the JWT-only views do. */
export function authenticate(ctx: Ctx, jwtOnly = false): User {
	const auth = ctx.headers.authorization;
	if (!auth) return fail(401, NOT_PROVIDED);
	const match = /^Token\s+(\S+)$/.exec(String(auth));
	// A JWT-only view does not read the Token scheme at all: to it, no credentials came.
	if (jwtOnly && match) return fail(401, NOT_PROVIDED);
	const user = match ? ctx.store.users.get(match[1]) : undefined;
	if (!user) return fail(401, { status_code: 401, message: 'Invalid token.' });
	return user;
}

/**
 * Bridge endpoints report header problems as 206 in the renderer's envelope. The February source
 * needs Product-Id there; OpenAPI 2.0.0 lists it as optional, and only on other paths.
 */
export function bridgeOrg(ctx: Ctx, user: User): Org {
	const refuse = (message: string, errors: string) => fail(206, { status_code: 206, message, data: null, errors });
	if (!ctx.headers['product-id'] && ctx.behaviour.shapes !== 'spec')
		refuse('Please provide Product-Id in headers', 'Product-Id header is missing');
	const handle = ctx.headers['org-handle'];
	if (!handle) refuse('Please provide Org-Handle in headers', 'Org-Handle header is missing');
	const org = ctx.store.orgs.get(String(handle));
	// The source never answers 403: an organization the caller is not in is not found.
	if (!org || !user.orgs[org.domain_handle])
		refuse('Organization not found', `No organization with handle '${handle}'`);
	return org!;
}

/** Agents and spaces: Org-Handle required (400), unknown organization 404. */
export function platformOrg(ctx: Ctx, user: User): Org {
	const handle = ctx.headers['org-handle'];
	if (!handle) fail(400, { message: 'Org-Handle header is required' });
	const org = ctx.store.orgs.get(String(handle));
	if (!org || !user.orgs[org.domain_handle]) fail(404, { message: 'Organization not found' });
	return org!;
}

/** The space of a task or run endpoint: 206 when the token is unknown or the caller may not use it. */
export function taskSpace(ctx: Ctx, user: User, token: string): Space {
	const space = ctx.store.spaces.get(decodeURIComponent(token));
	if (!space) return businessFailure('Invalid Space Token');
	const role = user.orgs[space.org];
	if (role !== 'owner' && role !== 'editor') return businessFailure("You Don't have Access to this Space");
	return space;
}
