/**
 * Unpod Bridge's provider credentials as OpenAPI 2.0.0 has them (`{provider, account_sid,
 * auth_token}`) and as the February source listed them (both path spellings), the provider
 * catalogue and numbers attached to agents, in n8n's engine against the local server; and no
 * carrier secret in any item, error or execution data.
 */
import { outputOf } from '../../../dev/harness/run-results';
import { N8nNode } from '../../../dev/harness/workflow-builders';
import { listSearch } from '../../helpers/listSearch';
import { agentRef, unpodNode } from '../../helpers/nodes';
import { Harness, startHarness, Workflows } from '../../helpers/setup';
import { SEED } from '../../../dev/server/seed';
import type { ProviderCredential } from '../../../dev/server/types';

const bridge = (name: string, parameters: Record<string, unknown>, extra: Partial<N8nNode> = {}): N8nNode =>
	unpodNode('bridge', name, parameters, { executeOnce: true, ...extra });
const credentialRef = (value: string) => ({ __rl: true, mode: 'id', value });
const NEW_SID = 'AC5150typed0in0account0000000000';
const NEW_TOKEN = 'typed-in-token-8282';
const ROTATED_TOKEN = 'rotated-token-6161';

const workflows = new Workflows();
const credentials = workflows.chain('providerCredentials', [
	bridge('Providers', { resource: 'provider', operation: 'getAll', returnAll: true }),
	bridge('All', { resource: 'providerCredential', operation: 'getAll', returnAll: true }),
	bridge('One', {
		resource: 'providerCredential',
		operation: 'get',
		providerCredential: credentialRef(String(SEED.activeCredentialId)),
	}),
	bridge('Create', {
		resource: 'providerCredential',
		operation: 'create',
		provider: { __rl: true, mode: 'list', value: 'plivo' },
		accountSid: NEW_SID,
		authToken: NEW_TOKEN,
	}),
	bridge('Update', {
		resource: 'providerCredential',
		operation: 'update',
		providerCredential: credentialRef('={{ $json.id }}'),
		updateFields: { authToken: ROTATED_TOKEN },
	}),
	bridge('Delete', {
		resource: 'providerCredential',
		operation: 'delete',
		providerCredential: credentialRef('={{ $json.id }}'),
	}),
]);
const createBySlug = (id: string, provider: string, accountSid: string, authToken: string) =>
	workflows.chain(id, [
		bridge('Create', {
			resource: 'providerCredential',
			operation: 'create',
			provider: { __rl: true, mode: 'slug', value: provider },
			accountSid,
			authToken,
		}),
	]);
// Values from an expression, as from a sheet: n8n checks only typed-in values (no spaces, not empty).
const twilioBySlug = createBySlug('providerCredentialBySlug', '={{ " twilio " }}', `= ${NEW_SID} `, NEW_TOKEN);
const blankFields = createBySlug('providerCredentialBlank', 'twilio', '={{ "" }}', '={{ "" }}');
const unknownProvider = createBySlug('providerCredentialUnknownProvider', 'nokia', NEW_SID, NEW_TOKEN);
const updateNothing = workflows.chain('providerCredentialUpdateNothing', [
	bridge('Fail', {
		resource: 'providerCredential',
		operation: 'update',
		providerCredential: credentialRef(String(SEED.activeCredentialId)),
		updateFields: {},
	}),
]);
const rotate = workflows.chain('providerCredentialRotate', [
	bridge('Update', {
		resource: 'providerCredential',
		operation: 'update',
		providerCredential: credentialRef(String(SEED.activeCredentialId)),
		updateFields: { authToken: ROTATED_TOKEN, accountSid: NEW_SID },
	}),
]);
const readOnly = workflows.chain('providerCredentialsRead', [
	bridge('All', { resource: 'providerCredential', operation: 'getAll', returnAll: true }),
	bridge('One', {
		resource: 'providerCredential',
		operation: 'get',
		providerCredential: credentialRef(String(SEED.activeCredentialId)),
	}),
	bridge('Delete', {
		resource: 'providerCredential',
		operation: 'delete',
		providerCredential: credentialRef(String(SEED.inactiveCredentialId)),
	}),
]);
const unknownCredential = workflows.chain('providerCredentialUnknown', [
	bridge('Fail', { resource: 'providerCredential', operation: 'get', providerCredential: credentialRef('999') }),
]);
const numbers = workflows.chain('numbersAttach', [
	bridge('Attach', {
		resource: 'number',
		operation: 'attach',
		phoneNumbers: '+14155550123, +19995550000',
		agent: agentRef(SEED.agentHandle),
	}),
	bridge('Detach', { resource: 'number', operation: 'detach', phoneNumbers: '+14155550123' }),
]);
const noneAttached = workflows.chain('numbersNone', [
	bridge('Fail', {
		resource: 'number',
		operation: 'attach',
		phoneNumbers: '+19995550000',
		agent: agentRef(SEED.agentHandle),
	}),
]);
let h: Harness;
/** The seeded credentials, put back after each test: tests create, rotate and delete them. */
let seeded: ProviderCredential[];
beforeAll(async () => {
	h = await startHarness({}, workflows);
	seeded = [...h.server.store.credentials.values()].map((c) => structuredClone(c));
});
afterAll(async () => {
	await h?.close();
});
afterEach(() => {
	h.server.resetTraffic();
	h.server.store.credentials.clear();
	for (const c of seeded) h.server.store.credentials.set(c.id, structuredClone(c));
});

/** Every carrier secret (seeded, or typed into this file's nodes) that appears anywhere in what the run produced. */
const secretsIn = (value: unknown) =>
	[...SEED.providerSecrets, NEW_TOKEN, ROTATED_TOKEN].filter((s) => JSON.stringify(value).includes(s));
const configurationsPath = '/api/v2/platform/telephony/providers-configurations/';

test('provider credentials as OpenAPI 2.0.0 has them: every operation, the bodies it names, no token in any item', async () => {
	const result = await h.run(credentials);
	expect(result.exitCode).toBe(0);
	expect(outputOf(result, 'Providers')).toEqual([
		{ id: 1, name: 'Twilio', slug: 'twilio' },
		{ id: 2, name: 'Plivo', slug: 'plivo' },
		{ id: 3, name: 'Exotel', slug: 'exotel' },
	]);
	const active = { id: SEED.activeCredentialId, provider: 'twilio', account_sid: SEED.activeAccountSid };
	expect(outputOf(result, 'All')).toEqual([
		{ ...active, created_at: '2026-02-07T10:00:00Z' },
		expect.objectContaining({ id: SEED.inactiveCredentialId, provider: 'plivo' }),
	]);
	expect(outputOf(result, 'One')).toEqual([{ ...active, created_at: '2026-02-07T10:00:00Z' }]);
	const [created] = outputOf(result, 'Create');
	expect(created).toEqual({
		id: expect.any(Number),
		provider: 'plivo',
		account_sid: NEW_SID,
		created_at: expect.any(String),
	});
	expect(outputOf(result, 'Update')).toEqual([created]);
	expect(outputOf(result, 'Delete')).toEqual([{ deleted: true, id: created.id }]);
	expect(h.server.store.credentials.has(created.id)).toBe(false);

	expect(h.server.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
		'GET /api/v2/platform/telephony/providers/ 200',
		`GET ${configurationsPath} 200`,
		`GET ${configurationsPath}${SEED.activeCredentialId}/ 200`,
		`POST ${configurationsPath} 201`,
		`PATCH ${configurationsPath}${created.id}/ 200`,
		`DELETE ${configurationsPath}${created.id}/ 204`,
	]);
	expect(h.server.requestsTo('POST', configurationsPath)[0].body).toEqual({
		provider: 'plivo',
		account_sid: NEW_SID,
		auth_token: NEW_TOKEN,
	});
	expect(h.server.requestsTo('PATCH', configurationsPath)[0].body).toEqual({ auth_token: ROTATED_TOKEN });
	// Unpod was given the tokens; nothing the run produced shows one.
	expect(secretsIn(result)).toEqual([]);
});

test('Create takes the provider By Slug, trimmed; Update sends both fields; Unpod keeps the token', async () => {
	const result = await h.run(twilioBySlug);
	expect(result.exitCode).toBe(0);
	expect(h.server.requests[0].body).toEqual({ provider: 'twilio', account_sid: NEW_SID, auth_token: NEW_TOKEN });
	const [created] = outputOf(result, 'Create');
	expect(created).toMatchObject({ provider: 'twilio', account_sid: NEW_SID });
	expect(h.server.store.credentials.get(created.id)).toMatchObject({ auth_token: NEW_TOKEN, provider: 1 });
	h.server.store.credentials.delete(created.id);

	const rotated = await h.run(rotate);
	expect(rotated.exitCode).toBe(0);
	expect(h.server.requestsTo('PATCH', configurationsPath)[0].body).toEqual({
		account_sid: NEW_SID,
		auth_token: ROTATED_TOKEN,
	});
	expect(outputOf(rotated, 'Update')).toEqual([expect.objectContaining({ account_sid: NEW_SID })]);
	expect(secretsIn([result, rotated])).toEqual([]);
});

test.each([
	{
		case: 'blank fields: each one named',
		id: blankFields,
		message:
			'Provider configuration creation failed.: account_sid: This field may not be blank.; auth_token: This field may not be blank.',
	},
	{
		case: 'an unknown provider slug',
		id: unknownProvider,
		message: 'Provider configuration creation failed.: provider: Object with slug=nokia does not exist.',
	},
])('Create refuses $case (400)', async ({ id, message }) => {
	const result = await h.run(id);
	expect(result.exitCode).toBe(1);
	expect(result.resultData?.error).toMatchObject({ name: 'NodeApiError', httpCode: '400', message });
	expect(h.server.store.credentials.size).toBe(3);
});

test('Update with no field is refused before any request', async () => {
	const result = await h.run(updateNothing);
	expect(result.exitCode).toBe(1);
	expect(result.resultData?.error.message).toBe('Choose at least one field to update');
	expect(h.server.requests).toEqual([]);
});

test('a refusal quoting the auth token shows it in no error message, description or data', async () => {
	const echo = (token: string) => ({
		status_code: 400,
		message: `Twilio refused auth_token ${token}`,
		errors: { auth_token: [`"${token}" is not a valid token for account ${NEW_SID}.`] },
	});
	h.server.faults.add({ kind: 'status', status: 400, method: 'POST', path: 'configurations', body: echo(NEW_TOKEN) });
	h.server.faults.add({
		kind: 'status',
		status: 400,
		method: 'PATCH',
		path: 'configurations',
		body: echo(ROTATED_TOKEN),
	});
	const created = await h.run(twilioBySlug);
	const updated = await h.run(rotate);
	for (const result of [created, updated]) {
		expect(result.exitCode).toBe(1);
		const error = result.resultData?.error;
		expect(error).toMatchObject({ name: 'NodeApiError', httpCode: '400' });
		expect(error.message).toMatch(
			/^Twilio refused auth_token \[hidden\]: auth_token: "\[hidden\]" is not a valid token/,
		);
		expect(error.message).toContain(NEW_SID);
		// n8n puts the node, its parameters as typed, in the error it keeps: the token's own field.
		const parameter = /\\*"authToken\\*":\\*"(typed-in-token-8282|rotated-token-6161)/g;
		const text = JSON.stringify(result).replace(parameter, '');
		expect(secretsIn(text)).toEqual([]);
		expect(secretsIn([error.message, error.description, error.messages])).toEqual([]);
	}
	expect(h.server.faults.injected).toHaveLength(2);
});

test('an answer carrying the token anyway (against the docs) loses it, at any depth', async () => {
	const leaky = {
		status_code: 201,
		message: 'Provider configuration created successfully.',
		data: {
			id: 777,
			provider: 'twilio',
			account_sid: NEW_SID,
			auth_token: NEW_TOKEN,
			credentials: { api_key: SEED.providerSecrets[0], api_secret: SEED.providerSecrets[1], secret: 'x-secret-1' },
		},
	};
	h.server.faults.add({ kind: 'status', status: 201, method: 'POST', path: 'configurations', body: leaky });
	const result = await h.run(twilioBySlug);
	expect(result.exitCode).toBe(0);
	expect(outputOf(result, 'Create')).toEqual([{ id: 777, provider: 'twilio', account_sid: NEW_SID, credentials: {} }]);
	expect(secretsIn(result)).toEqual([]);
	expect(JSON.stringify(result)).not.toContain('x-secret-1');
});

test.each(['source', 'docs'] as const)(
	"provider credentials as the February source lists them (%s path spelling): read and deleted, the carriers' keys in none of it",
	async (shapes) => {
		h.server.behaviour.shapes = shapes;
		const result = await h.run(readOnly);
		expect(result.exitCode).toBe(0);
		const all = outputOf(result, 'All');
		expect(all.map((c) => c.id)).toEqual([SEED.activeCredentialId, SEED.inactiveCredentialId]);
		expect(outputOf(result, 'One')[0]).toMatchObject({
			id: SEED.activeCredentialId,
			name: 'Twilio Main',
			active: true,
		});
		expect(outputOf(result, 'Delete')).toEqual([{ deleted: true, id: SEED.inactiveCredentialId }]);
		for (const row of [...all, ...outputOf(result, 'One')]) {
			expect(row).not.toHaveProperty('api_key');
			expect(row).not.toHaveProperty('api_secret');
			expect(row).not.toHaveProperty('meta_json');
		}
		expect(secretsIn(result)).toEqual([]);
		// The spec's spelling first; the source answers 404 there and is asked at its own.
		const spelling = shapes === 'source' ? 'provider-configurations' : 'providers-configurations';
		const served = h.server.requests.filter((r) => (r.status ?? 500) < 300).map((r) => r.path);
		expect(served.every((path) => path.includes(spelling))).toBe(true);
		expect(h.server.requests[0].path).toContain('/providers-configurations/');
	},
);

test.each([
	{
		shapes: 'spec' as const,
		credentials: [
			{ name: `twilio · ${SEED.activeAccountSid}`, value: String(SEED.activeCredentialId) },
			{ name: 'plivo · MA0local0plivo0legacy0', value: String(SEED.inactiveCredentialId) },
		],
		providers: ['twilio', 'plivo', 'exotel'],
	},
	{
		shapes: 'source' as const,
		credentials: [
			{ name: 'Twilio Main (Twilio)', value: String(SEED.activeCredentialId) },
			{ name: 'Plivo Legacy (Plivo, inactive)', value: String(SEED.inactiveCredentialId) },
		],
		providers: ['1', '2', '3'],
	},
])(
	'the pickers in shape $shapes: each credential by carrier and account, each provider by slug (by ID where the catalogue has none)',
	async (shape) => {
		h.server.behaviour.shapes = shape.shapes;
		const listed = await listSearch(h.server, 'UnpodBridge', 'searchProviderCredentials');
		expect(listed.results).toEqual(shape.credentials);
		expect(secretsIn(listed)).toEqual([]);
		const searched = await listSearch(h.server, 'UnpodBridge', 'searchProviderCredentials', { filter: 'PLIVO' });
		expect(searched.results.map((r) => r.value)).toEqual([String(SEED.inactiveCredentialId)]);
		const providers = await listSearch(h.server, 'UnpodBridge', 'searchProviders');
		expect(providers.results).toEqual(
			['Twilio', 'Plivo', 'Exotel'].map((name, i) => ({ name, value: shape.providers[i] })),
		);
	},
);

test('an unknown provider credential is an error naming it, with no secret in it', async () => {
	const result = await h.run(unknownCredential);
	expect(result.exitCode).toBe(1);
	expect(result.resultData?.error).toMatchObject({ httpCode: '404' });
	expect(result.resultData?.error.message).toBe('Not found.: provider credential "999"');
	expect(secretsIn(result)).toEqual([]);
});

test('numbers attach to an agent and detach: one item per number, with what became of it', async () => {
	const result = await h.run(numbers);
	expect(result.exitCode).toBe(0);
	expect(outputOf(result, 'Attach')).toEqual([
		{
			number_id: SEED.poolNumberId,
			number: '+14155550123',
			connection_state: 'CONNECTED',
			agent_id: SEED.agentHandle,
			ok: true,
			error: null,
		},
		expect.objectContaining({ number: '+19995550000', ok: false, error: 'Number not found for this organization.' }),
	]);
	expect(outputOf(result, 'Detach')).toEqual([expect.objectContaining({ number: '+14155550123', ok: true })]);
	const [attach, detach] = h.server.requests.filter((r) => r.method === 'POST');
	expect(attach.body).toEqual({ numbers: ['+14155550123', '+19995550000'], agent_id: SEED.agentHandle });
	expect(attach.status).toBe(201);
	expect(detach.body).toEqual({ numbers: ['+14155550123'] });
});

test('no number attached: Unpod answers 400 and the node fails with its message', async () => {
	const result = await h.run(noneAttached);
	expect(result.exitCode).toBe(1);
	expect(result.resultData?.error).toMatchObject({ httpCode: '400' });
	expect(result.resultData?.error.message).toMatch(/No number was attached/);
});
