/**
 * `telephony/numbers/`, `telephony/providers/` and the provider configurations (the credentials
 * of a telephony carrier). Lists as the platform API views of Unpod's source (15cd2ef) answer
 * them: not paginated, and no check that the caller belongs to the organization the Org-Handle
 * names. The configurations answer in two shapes: OpenAPI 2.0.0's (`spec`: `{provider,
 * account_sid, auth_token}` in, `{id, provider, account_sid, created_at}` out, the token never
 * shown) and the February source's (`source` and `docs`: `{name, provider, api_key, api_secret}`,
 * the secrets shown in clear), at `providers-configurations` but in `source`
 * (`provider-configurations`).
 * Numbers attach / detach are known only from the 2026 docs and the SDK, answered as they describe.
 */
import { envelope, fail } from '../http';
import { PROVIDERS } from '../seed';
import type { Store } from '../store';
import type { ProviderCredential } from '../types';
import { authenticate, Ctx, Route } from './context';

/** A configuration as the February source shows it: the carrier's secrets in clear. */
function sourceConfiguration(c: ProviderCredential): Record<string, unknown> {
	const provider = PROVIDERS.find((p) => p.id === c.provider);
	return {
		id: c.id,
		name: c.name,
		provider: c.provider,
		provider_details: {
			id: c.provider_details.id,
			name: c.provider_details.name,
			description: provider?.description ?? '',
			icon: null,
		},
		org_handle: c.org,
		meta_json: c.meta_json ?? [],
		active: c.active,
		api_key: c.api_key ?? c.account_sid ?? '',
		api_secret: c.api_secret ?? c.auth_token ?? '',
		base_url: '',
		sip_url: c.sip_url ?? '',
	};
}

/** A configuration as OpenAPI 2.0.0 shows it: the provider's slug, the account, never the token. */
function specConfiguration(c: ProviderCredential): Record<string, unknown> {
	return {
		id: c.id,
		provider: PROVIDERS.find((p) => p.id === c.provider)?.slug ?? String(c.provider),
		account_sid: c.account_sid ?? '',
		created_at: c.created_at ?? '',
	};
}

function orgHandle(ctx: Ctx): string {
	const handle = ctx.headers['org-handle'] ? String(ctx.headers['org-handle']) : undefined;
	if (!handle) fail(400, { status_code: 400, message: 'Organization handle is required in Org-Handle header' });
	return handle!;
}

function freeNumbers(ctx: Ctx, handle: string | undefined) {
	// openapi 677bf31: with Org-Handle, the organization's own numbers (any state) and the pool's
	// free ones; without it, the pool's only. Each with its state. (2.0.0's example shows
	// `{id, number, provider, bridge_slug, status}` instead; Get Many passes either through.)
	if (ctx.behaviour.shapes === 'spec') {
		const listed = ctx.store.poolNumbers.filter(
			(n) =>
				!n.agent_number &&
				((handle !== undefined && n.org === handle) || (n.org === null && n.state === 'NOT_ASSIGNED')),
		);
		return {
			status: 200,
			body: envelope(
				200,
				'Telephony numbers fetched successfully.',
				listed.map((n) => ({ id: n.id, number: n.number, state: n.state, active: n.active })),
			),
		};
	}
	// The view builds a 400 for a missing Org-Handle and forgets to return it: it goes on
	// and lists the numbers of no organization.
	const free = ctx.store.poolNumbers.filter(
		(n) =>
			n.active &&
			!n.agent_number &&
			(n.org === null || n.org === handle) &&
			(n.state === 'NOT_ASSIGNED' || (ctx.query.get('include_assigned') === 'true' && n.org === handle)),
	);
	return {
		status: 200,
		body: envelope(
			200,
			'Telephony numbers fetched successfully.',
			free.map((n) => ({ id: n.id, number: n.number, active: n.active })),
		),
	};
}

/** The source's create and update: `{name, provider, api_key, api_secret}` (update: any of them, and `active`). */
function writeSourceConfiguration(
	store: Store,
	handle: string,
	body: Record<string, unknown>,
	existing?: ProviderCredential,
) {
	const errors: Record<string, string[]> = {};
	if (!existing && !String(body.name ?? '').trim()) errors.name = ['This field is required.'];
	if ((!existing || body.provider !== undefined) && !PROVIDERS.some((p) => p.id === Number(body.provider))) {
		errors.provider = [`Invalid pk "${String(body.provider)}" - object does not exist.`];
	}
	if (Object.keys(errors).length) fail(400, { status_code: 400, message: 'Validation failed', errors });
	const provider = PROVIDERS.find((p) => p.id === Number(body.provider ?? existing?.provider))!;
	const id = existing?.id ?? nextId(store);
	const record: ProviderCredential = {
		...(existing ?? { id, org: handle, active: true }),
		name: body.name === undefined ? existing!.name : String(body.name).trim(),
		provider: provider.id,
		provider_details: { id: provider.id, name: provider.name, type: provider.type },
		...(body.api_key !== undefined ? { api_key: String(body.api_key) } : {}),
		...(body.api_secret !== undefined ? { api_secret: String(body.api_secret) } : {}),
		...(body.active !== undefined ? { active: Boolean(body.active) } : {}),
	};
	store.credentials.set(record.id, record);
	return record;
}

const nextId = (store: Store) => Math.max(300, ...store.credentials.keys()) + 1;

/** DRF's messages for a string field that is absent (on create) or blank. */
function stringFieldErrors(body: Record<string, unknown>, fields: string[], required: boolean) {
	const errors: Record<string, string[]> = {};
	for (const field of fields) {
		const value = body[field];
		if (value === undefined || value === null) {
			if (required) errors[field] = ['This field is required.'];
		} else if (typeof value !== 'string') errors[field] = ['Not a valid string.'];
		else if (!value.trim()) errors[field] = ['This field may not be blank.'];
	}
	return errors;
}

/**
 * OpenAPI 2.0.0's create (`{provider, account_sid, auth_token}`, all required) and update (`{auth_token?,
 * account_sid?}`). The provider is a slug of the catalogue (or its ID, as the docs allow); an
 * unknown one is refused with DRF's SlugRelatedField message. The failure's envelope is the docs'
 * (`message` and `errors`); its field errors are the twin's choice, DRF's way.
 */
function writeSpecConfiguration(
	store: Store,
	handle: string,
	body: Record<string, unknown>,
	existing?: ProviderCredential,
) {
	const errors = stringFieldErrors(
		body,
		existing ? ['account_sid', 'auth_token'] : ['provider', 'account_sid', 'auth_token'],
		!existing,
	);
	const given = existing ? undefined : String(body.provider ?? '').trim();
	const provider = given ? PROVIDERS.find((p) => p.slug === given || String(p.id) === given) : undefined;
	if (!existing && given && !errors.provider && !provider) {
		errors.provider = [`Object with slug=${given} does not exist.`];
	}
	if (Object.keys(errors).length) {
		const message = existing ? 'Provider configuration update failed.' : 'Provider configuration creation failed.';
		fail(400, { status_code: 400, message, errors });
	}
	const account = body.account_sid === undefined ? {} : { account_sid: String(body.account_sid).trim() };
	const token = body.auth_token === undefined ? {} : { auth_token: String(body.auth_token) };
	const record: ProviderCredential = existing
		? { ...existing, ...account, ...token }
		: {
				id: nextId(store),
				org: handle,
				name: provider!.name,
				provider: provider!.id,
				provider_details: { id: provider!.id, name: provider!.name, type: provider!.type },
				active: true,
				created_at: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
				...account,
				...token,
			};
	store.credentials.set(record.id, record);
	return record;
}

function configurations(ctx: Ctx, id: string | undefined) {
	authenticate(ctx);
	const handle = orgHandle(ctx);
	// The May 2026 docs (`docs`) spelled the path as the spec does and kept the source's body.
	const spec = ctx.behaviour.shapes === 'spec';
	const shown = spec ? specConfiguration : sourceConfiguration;
	const write = spec ? writeSpecConfiguration : writeSourceConfiguration;
	const said = (source: string, specText: string) => (spec ? specText : source);
	const own = (c?: ProviderCredential) => (c && c.org === handle ? c : undefined);
	if (id === undefined) {
		if (ctx.method === 'GET') {
			const list = [...ctx.store.credentials.values()].filter((c) => c.org === handle).map(shown);
			const message = said(
				'Provider credentials fetched successfully',
				'Provider configurations fetched successfully.',
			);
			return { status: 200, body: envelope(200, message, list) };
		}
		if (ctx.method === 'POST') {
			const created = write(ctx.store, handle, ctx.body);
			const message = said('Provider credential created successfully', 'Provider configuration created successfully.');
			return { status: 201, body: envelope(201, message, shown(created)) };
		}
		return undefined;
	}
	const found = own(ctx.store.credentials.get(Number(id)));
	if (!found) {
		fail(404, { status_code: 404, message: said('Provider configuration not found', 'Not found.') });
	}
	if (ctx.method === 'GET') {
		const message = said('Provider credential fetched', 'Provider configuration fetched successfully.');
		return { status: 200, body: envelope(200, message, shown(found!)) };
	}
	if (ctx.method === 'PATCH' || (!spec && ctx.method === 'PUT')) {
		const updated = write(ctx.store, handle, ctx.body, found);
		const message = said('Provider credential updated successfully', 'Provider configuration updated successfully.');
		return { status: 200, body: envelope(200, message, shown(updated)) };
	}
	if (ctx.method === 'DELETE') {
		ctx.store.credentials.delete(found!.id);
		return { status: 204, body: undefined };
	}
	return undefined;
}

/** `numbers/attach/` and `numbers/detach/`: one result per number; 201 when any attached, 400 when none. */
function attachOrDetach(ctx: Ctx, attach: boolean) {
	authenticate(ctx);
	const handle = orgHandle(ctx);
	const numbers = Array.isArray(ctx.body.numbers) ? ctx.body.numbers.map(String) : [];
	if (!numbers.length) fail(400, { status_code: 400, message: 'numbers is required', data: { numbers: [] } });
	const agentId = ctx.body.agent_id === undefined ? undefined : String(ctx.body.agent_id);
	const agent = agentId === undefined ? undefined : ctx.store.agents.get(agentId);
	if (attach && agentId !== undefined && (!agent || agent.org !== handle)) {
		fail(400, { status_code: 400, message: 'Agent not found for this organization.', data: { numbers: [] } });
	}
	const results = numbers.map((number) => {
		const n = ctx.store.poolNumbers.find((p) => p.number === number && (p.org === null || p.org === handle));
		const result = {
			number_id: n?.id ?? null,
			number,
			connection_state: 'DISCONNECTED',
			agent_id: null as string | null,
		};
		if (!n) return { ...result, ok: false, error: 'Number not found for this organization.' };
		if (attach) {
			if (n.agent && n.agent !== agentId)
				return { ...result, ok: false, error: 'Number is attached to another agent.' };
			n.state = 'ASSIGNED';
			n.org = handle;
			n.agent = agentId ?? null;
			return { ...result, connection_state: 'CONNECTED', agent_id: n.agent, ok: true, error: null };
		}
		if (!n.agent) return { ...result, ok: false, error: 'Number is not attached to an agent.' };
		n.agent = null;
		return { ...result, ok: true, error: null };
	});
	const ok = results.filter((r) => r.ok).length;
	if (!ok) {
		return {
			status: 400,
			body: {
				status_code: 400,
				message: `No number was ${attach ? 'attached' : 'detached'}`,
				data: { numbers: results },
			},
		};
	}
	return {
		status: attach ? 201 : 200,
		body: envelope(attach ? 201 : 200, `${ok} of ${results.length} numbers ${attach ? 'attached' : 'detached'}`, {
			numbers: results,
		}),
	};
}

export const telephonyRoutes: Route = (ctx) => {
	const [a0, a1, a2] = ctx.parts;
	if (a0 !== 'telephony') return undefined;
	const configurationsPath = ctx.behaviour.shapes !== 'source' ? 'providers-configurations' : 'provider-configurations';
	if (a1 === configurationsPath && ctx.parts.length <= 3) return configurations(ctx, a2);
	if (a1 === 'providers' && ctx.parts.length === 2 && ctx.method === 'GET') {
		authenticate(ctx);
		// OpenAPI 2.0.0 lists `{id, name, slug}`; the February source, its Provider rows (no slug).
		const providers =
			ctx.behaviour.shapes === 'source'
				? PROVIDERS.map(({ slug: _slug, ...provider }) => provider)
				: PROVIDERS.map(({ id, name, slug }) => ({ id, name, slug }));
		const message =
			ctx.behaviour.shapes === 'source'
				? 'Providers fetched successfully'
				: 'Voice infra providers fetched successfully.';
		return { status: 200, body: envelope(200, message, providers) };
	}
	if (a1 === 'numbers' && ctx.parts.length === 3 && ctx.method === 'POST' && (a2 === 'attach' || a2 === 'detach')) {
		return attachOrDetach(ctx, a2 === 'attach');
	}
	if (a1 === 'numbers' && ctx.parts.length === 2 && ctx.method === 'GET') {
		authenticate(ctx);
		return freeNumbers(ctx, ctx.headers['org-handle'] ? String(ctx.headers['org-handle']) : undefined);
	}
	return undefined;
};
