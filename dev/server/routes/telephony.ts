/**
 * `telephony/numbers/`, `telephony/providers/` and the provider configurations (the credentials
 * of a telephony carrier). Lists as the platform API views of Unpod's source (15cd2ef) answer
 * them: not paginated, and no check that the caller belongs to the organization the Org-Handle
 * names. Known only from the 2026 docs and the SDK, answered as they describe: the configurations'
 * get / create / update / delete (under the docs' spelling `providers-configurations` in the
 * `docs` shape, the source's `provider-configurations` otherwise) and numbers attach / detach.
 */
import { envelope, fail } from '../http';
import { PROVIDERS } from '../seed';
import type { Store } from '../store';
import type { ProviderCredential } from '../types';
import { authenticate, Ctx, Route } from './context';

/** A configuration as Unpod shows it: the carrier's secrets in clear. */
function configuration(c: ProviderCredential): Record<string, unknown> {
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
		api_key: c.api_key ?? '',
		api_secret: c.api_secret ?? '',
		base_url: '',
		sip_url: c.sip_url ?? '',
	};
}

function orgHandle(ctx: Ctx): string {
	const handle = ctx.headers['org-handle'] ? String(ctx.headers['org-handle']) : undefined;
	if (!handle) fail(400, { status_code: 400, message: 'Organization handle is required in Org-Handle header' });
	return handle!;
}

function freeNumbers(ctx: Ctx, handle: string | undefined) {
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

/** Create and update: `{name, provider, api_key, api_secret}` (update: any of them, and `active`). */
function writeConfiguration(
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
	const id = existing?.id ?? Math.max(300, ...store.credentials.keys()) + 1;
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

function configurations(ctx: Ctx, id: string | undefined) {
	authenticate(ctx);
	const handle = orgHandle(ctx);
	const own = (c?: ProviderCredential) => (c && c.org === handle ? c : undefined);
	if (id === undefined) {
		if (ctx.method === 'GET') {
			const list = [...ctx.store.credentials.values()].filter((c) => c.org === handle).map(configuration);
			return { status: 200, body: envelope(200, 'Provider credentials fetched successfully', list) };
		}
		if (ctx.method === 'POST') {
			const created = writeConfiguration(ctx.store, handle, ctx.body);
			return { status: 201, body: envelope(201, 'Provider credential created successfully', configuration(created)) };
		}
		return undefined;
	}
	const found = own(ctx.store.credentials.get(Number(id)));
	if (!found) fail(404, { status_code: 404, message: 'Provider configuration not found' });
	if (ctx.method === 'GET')
		return { status: 200, body: envelope(200, 'Provider credential fetched', configuration(found!)) };
	if (ctx.method === 'PUT' || ctx.method === 'PATCH') {
		const updated = writeConfiguration(ctx.store, handle, ctx.body, found);
		return { status: 200, body: envelope(200, 'Provider credential updated successfully', configuration(updated)) };
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
		return { status: 200, body: envelope(200, 'Providers fetched successfully', PROVIDERS) };
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
