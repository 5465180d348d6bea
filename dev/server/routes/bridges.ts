/**
 * `telephony/bridges/...`: every answer through the renderer's envelope, as the real backend sends
 * it. Two shapes: OpenAPI 2.0.0's (`spec`: created from `name` and `slug`, listed as `{id, name,
 * slug, provider, numbers}`, renamed by PATCH `{name}`) and the February source's (`source` and
 * `docs`: created from `name`, `description` and `region` with a slug the server makes, a DRAFT
 * status, its errors printed as a Python dict).
 */
import { envelope, fail, listReply, pythonErrors, Reply } from '../http';
import { PROVIDERS } from '../seed';
import { BRIDGE_REGIONS, BRIDGE_STATUSES } from '../tables';
import type { Store } from '../store';
import type { Bridge, Org, PhoneNumber } from '../types';
import { authenticate, bridgeOrg, Ctx, Route } from './context';
import type { Behaviour } from './context';

/** The source's `VoiceBridge` (`parvbhullar/unpod` 15cd2ef, telephony/models.py lines 40, 46): `name` max_length=100, `slug` 50. */
const NAME_MAX = 100;
const SLUG_MAX = 50;
/** Django's `validate_slug`. */
const SLUG = /^[-a-zA-Z0-9_]+$/;

/** A serializer failure: 400 with the errors printed into `message`, no `errors` key. */
const invalid = (errors: Record<string, string[]>): never =>
	fail(400, { status_code: 400, message: pythonErrors(errors), data: {} });

/** OpenAPI 2.0.0's failure, as the create-bridge page shows it: `message` and `errors` (here DRF's field errors). */
const specInvalid = (message: string, errors: Record<string, string[]>): never =>
	fail(400, { status_code: 400, message, errors });

export const bridgeRoutes: Route = (ctx) => {
	const [a0, a1, slug, sub] = ctx.parts;
	if (a0 !== 'telephony' || a1 !== 'bridges') return undefined;
	const user = authenticate(ctx);
	const { method, parts } = ctx;
	const spec = ctx.behaviour.shapes === 'spec';
	if (parts.length === 2 && method === 'POST') return createBridge(ctx, user.orgs);
	const org = bridgeOrg(ctx, user);
	if (parts.length === 2 && method === 'GET') {
		const all = [...ctx.store.bridges.values()].filter((b) => b.org === org.domain_handle).reverse();
		return listReply(all, ctx.query, 10, 'Bridges fetched successfully', (b) =>
			spec
				? {
						id: b.id,
						name: b.name,
						slug: b.slug,
						provider: providerOf(ctx.store, b),
						numbers: b.numbers.map((n) => ({ id: n.id, number: n.number, status: n.status })),
					}
				: { id: b.id, name: b.name, slug: b.slug, status: b.status, description: b.description },
		);
	}
	if (parts.length === 3) {
		const bridge = findBridge(ctx.store, org, slug, spec);
		if (method === 'GET') {
			const shown = spec ? specBridge(bridge) : fullBridge(ctx.store, bridge);
			return { status: 200, body: envelope(200, 'Bridge fetched successfully', shown) };
		}
		if (method === 'PATCH')
			return spec ? updateSpecBridge(bridge, ctx.body) : updateBridge(ctx.store, bridge, ctx.body);
		if (method === 'DELETE') {
			ctx.store.bridges.delete(bridge.slug);
			return ctx.behaviour.deleteAnswer === 204
				? { status: 204, body: undefined }
				: { status: 200, body: envelope(200, 'Bridge deleted successfully', {}) };
		}
	}
	if (parts.length === 4 && method === 'POST') {
		const bridge = findBridge(ctx.store, org, slug, spec);
		if (sub === 'connect-provider' || sub === 'numbers')
			return connection(ctx.store, bridge, true, ctx.body, ctx.behaviour.shapes);
		if (sub === 'disconnect-provider') return connection(ctx.store, bridge, false, ctx.body, ctx.behaviour.shapes);
	}
	return undefined;
};

/** The slug of the carrier connected to a bridge, or null. */
function providerOf(store: Store, bridge: Bridge): string | null {
	const credential =
		bridge.provider_credential === null ? undefined : store.credentials.get(bridge.provider_credential);
	return (credential && PROVIDERS.find((p) => p.id === credential.provider)?.slug) ?? null;
}

function createBridge(ctx: Ctx, memberOf: Record<string, string>): Reply {
	// Header problems are 206 as on every bridge endpoint; an unknown organization is not.
	if (!ctx.headers['product-id'] || !ctx.headers['org-handle']) bridgeOrg(ctx, { orgs: memberOf } as never);
	const handle = String(ctx.headers['org-handle']);
	const org = ctx.store.orgs.get(handle);
	if (!org || !memberOf[handle]) {
		return {
			status: 200,
			body: envelope(200, 'Bridge created successfully', { detail: `No organization found for handle '${handle}'.` }),
		};
	}
	if (ctx.behaviour.shapes === 'spec') return createSpecBridge(ctx, org);
	const body = ctx.body;
	const errors: Record<string, string[]> = {};
	if (typeof body.name !== 'string' || !body.name.trim()) errors.name = ['This field is required.'];
	if (body.description !== undefined && typeof body.description !== 'string')
		errors.description = ['Not a valid string.'];
	if (body.region !== undefined && !BRIDGE_REGIONS.includes(String(body.region))) {
		errors.region = [`"${String(body.region)}" is not a valid choice.`];
	}
	if (Object.keys(errors).length) invalid(errors);
	const bridge = ctx.store.addBridge(org.domain_handle, {
		name: String(body.name).trim(),
		description: (body.description as string) ?? '',
		region: (body.region as string) ?? 'IN',
	});
	return {
		status: 201,
		body: envelope(201, 'Bridge created successfully', { ...fullBridge(ctx.store, bridge), organization: { ...org } }),
	};
}

/** DRF's messages for a required string field of at most `max` characters. */
function requiredString(value: unknown, max: number): string[] | undefined {
	if (value === undefined || value === null) return ['This field is required.'];
	if (typeof value !== 'string') return ['Not a valid string.'];
	if (!value.trim()) return ['This field may not be blank.'];
	if (value.trim().length > max) return [`Ensure this field has no more than ${max} characters.`];
	return undefined;
}

/**
 * OpenAPI 2.0.0's create: `name` and `slug` both required. A slug already used is refused as
 * DRF's UniqueValidator words it for the `VoiceBridge` model: the twin's choice (the source's
 * slug was not unique; the spec calls it "unique", the docs answer 400 or 409 for it).
 */
function createSpecBridge(ctx: Ctx, org: Org): Reply {
	const body = ctx.body;
	const errors: Record<string, string[]> = {};
	const name = requiredString(body.name, NAME_MAX);
	if (name) errors.name = name;
	const slugErrors = requiredString(body.slug, SLUG_MAX);
	const slug = String(body.slug ?? '').trim();
	if (slugErrors) errors.slug = slugErrors;
	else if (!SLUG.test(slug))
		errors.slug = ['Enter a valid "slug" consisting of letters, numbers, underscores or hyphens.'];
	else if (ctx.store.bridges.has(slug)) errors.slug = ['voice bridge with this slug already exists.'];
	if (Object.keys(errors).length) specInvalid('Bridge creation failed.', errors);
	const bridge = ctx.store.addBridge(org.domain_handle, {
		name: String(body.name).trim(),
		slug,
		created_at: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
	});
	return {
		status: 201,
		body: envelope(201, 'Bridge created successfully.', {
			id: bridge.id,
			name: bridge.name,
			slug: bridge.slug,
			created_at: bridge.created_at,
		}),
	};
}

/** OpenAPI 2.0.0's PATCH: `name` only (other keys are ignored, as DRF ignores unknown fields). */
function updateSpecBridge(bridge: Bridge, body: Record<string, unknown>): Reply {
	if (body.name !== undefined) {
		const errors = requiredString(body.name, NAME_MAX);
		if (errors) specInvalid('Bridge update failed.', { name: errors });
		bridge.name = String(body.name).trim();
	}
	return {
		status: 200,
		body: envelope(200, 'Bridge updated successfully.', {
			id: bridge.id,
			name: bridge.name,
			slug: bridge.slug,
			numbers: bridge.numbers.map((n) => ({ id: n.id, number: n.number, status: n.status })),
		}),
	};
}

/** A bridge as OpenAPI 2.0.0's get shows it. */
function specBridge(bridge: Bridge): Record<string, unknown> {
	return {
		id: bridge.id,
		name: bridge.name,
		slug: bridge.slug,
		numbers: bridge.numbers.map((n) => ({
			id: n.id,
			number_id: n.number_id,
			number: n.number,
			state: n.state,
			active: n.active,
			channels_count: n.channels_count,
			status: n.status,
		})),
	};
}

function findBridge(store: Store, org: Org, slug: string, spec: boolean): Bridge {
	const bridge = store.bridges.get(decodeURIComponent(slug));
	if (!bridge || bridge.org !== org.domain_handle) {
		fail(
			404,
			spec
				? { status_code: 404, message: 'Not found.' }
				: { message: 'No VoiceBridge matches the given query.', status_code: 404 },
		);
	}
	return bridge!;
}

function updateBridge(store: Store, bridge: Bridge, body: Record<string, unknown>): Reply {
	const errors: Record<string, string[]> = {};
	if (body.name !== undefined && (typeof body.name !== 'string' || !body.name.trim()))
		errors.name = ['This field may not be blank.'];
	if (body.status !== undefined && !BRIDGE_STATUSES.includes(String(body.status))) {
		errors.status = [`"${String(body.status)}" is not a valid choice.`];
	}
	if (Object.keys(errors).length) invalid(errors);
	if (body.name !== undefined) bridge.name = String(body.name).trim();
	if (body.description !== undefined) bridge.description = String(body.description);
	if (body.status !== undefined) bridge.status = String(body.status);
	return { status: 200, body: envelope(200, 'Bridge updated successfully', fullBridge(store, bridge)) };
}

/**
 * Connect and disconnect act on one number of the bridge and a provider credential: named
 * `number_id` / `provider_credential_id` in the source, `phone_number` / `provider_config_id` in
 * the 2026 docs and OpenAPI 2.0.0 (where disconnect needs only the number). Each shape reads only
 * its own keys. The source and the docs answer 201 with the bridge's number; the spec 200 with
 * `{message, bridge_slug, phone_number}`.
 */
function connection(
	store: Store,
	bridge: Bridge,
	connect: boolean,
	body: Record<string, unknown>,
	shapes: Behaviour['shapes'],
): Reply {
	const docs = shapes !== 'source';
	const numberKey = docs ? 'phone_number' : 'number_id';
	const credentialKey = docs ? 'provider_config_id' : 'provider_credential_id';
	if (body[numberKey] === undefined || body[numberKey] === null || body[numberKey] === '') {
		fail(400, { status_code: 400, message: docs ? 'phone_number is required' : 'Number is required', data: {} });
	}
	const number = bridge.numbers.find((n) => String(docs ? n.number : n.number_id) === String(body[numberKey]));
	let id = body[credentialKey];
	if (docs && !connect && id === undefined) id = number?.provider_credential ?? undefined;
	if (typeof id !== 'number' || !Number.isInteger(id)) {
		invalid({ [credentialKey]: ['A valid integer is required.'] });
	}
	if (!number || number.state !== 'ASSIGNED') {
		fail(206, {
			status_code: 206,
			message: 'Number is not assigned to this bridge',
			data: null,
			errors: `Number ${String(body[numberKey])} is not ASSIGNED to bridge '${bridge.slug}'`,
		});
	}
	const credential = store.credentials.get(id as number);
	if (connect) {
		if (!credential || credential.org !== bridge.org) {
			fail(400, {
				status_code: 400,
				message: 'Provider credential not found',
				data: {},
				errors: `No provider credential with id ${id}`,
			});
		}
		if (!credential!.active) {
			fail(400, {
				status_code: 400,
				message: 'Provider credential is inactive',
				data: {},
				errors: `Provider credential ${id} is not active`,
			});
		}
		number!.provider_credential = id as number;
		bridge.provider_credential = id as number;
		if (shapes === 'spec') {
			const data = {
				message: 'Provider connected successfully',
				bridge_slug: bridge.slug,
				phone_number: number!.number,
			};
			return { status: 200, body: envelope(200, 'Provider connected to bridge successfully.', data) };
		}
		return { status: 201, body: envelope(201, 'Provider connected successfully', numberRecord(store, number!)) };
	}
	if (number!.provider_credential !== id) {
		fail(400, {
			status_code: 400,
			message: 'Provider is not connected to this bridge',
			data: {},
			errors: `Provider credential ${id} is not connected to number ${number!.number_id} of bridge '${bridge.slug}'`,
		});
	}
	number!.provider_credential = null;
	if (!bridge.numbers.some((n) => n.provider_credential === id)) bridge.provider_credential = null;
	if (shapes === 'spec') {
		const data = { message: 'Provider disconnected successfully', bridge_slug: bridge.slug };
		return { status: 200, body: envelope(200, 'Provider disconnected from bridge successfully.', data) };
	}
	return { status: 200, body: envelope(200, 'Provider disconnected successfully', numberRecord(store, number!)) };
}

/** A bridge's number as the real backend shows it, with the specification's fields beside. */
function numberRecord(store: Store, n: PhoneNumber): Record<string, unknown> {
	const credential = n.provider_credential === null ? undefined : store.credentials.get(n.provider_credential);
	return {
		id: n.id,
		number_id: n.number_id,
		number: n.number,
		channels_count: n.channels_count,
		provider_details: credential
			? { id: credential.id, name: credential.name, provider: credential.provider_details, active: credential.active }
			: null,
		provider_configuration: credential ? { credential_id: credential.id } : null,
		agent_id: n.agent_id,
		config_json: {},
		state: n.state,
		active: n.active,
		status: n.status,
	};
}

function fullBridge(store: Store, bridge: Bridge): Record<string, unknown> {
	return {
		id: bridge.id,
		name: bridge.name,
		description: bridge.description,
		status: bridge.status,
		documents_status: bridge.documents_status,
		slug: bridge.slug,
		numbers: bridge.numbers.map((n) => numberRecord(store, n)),
		hub: bridge.hub,
		region: bridge.region,
		org_handle: bridge.org,
	};
}
