/**
 * Bridges against Unpod's February 2026 source and its 2026 docs, in n8n's engine: every
 * operation, connect and disconnect in each shape, failures, Continue On Fail, faults and retries.
 * As OpenAPI 2.0.0 has them: bridge.spec.test.ts.
 */
import { TestClock } from '../../helpers/clock';
import { itemsOf, outputOf } from '../../../dev/harness/run-results';
import { N8nNode } from '../../../dev/harness/workflow-builders';
import { bridgeRef, unpodNode } from '../../helpers/nodes';
import { BAD_ORG_CREDENTIAL, BAD_TOKEN_CREDENTIAL, Harness, startHarness, Workflows } from '../../helpers/setup';
import { SEED } from '../../../dev/server/seed';

const rl = bridgeRef;
const bridgeNode = (name: string, parameters: Record<string, unknown>, extra: Partial<N8nNode> = {}): N8nNode =>
	unpodNode('bridge', name, parameters, extra);

let h: Harness;
// Retry waits and back-off run on the test's clock.
const clock = TestClock.install();
const workflows = new Workflows();
const workflow = (id: string, nodes: N8nNode[]) => workflows.chain(id, nodes);
const run = (id: string) => h.run(id);

beforeAll(async () => {
	h = await startHarness({}, workflows, clock);
	// Enough bridges for Return All to need three pages of 100.
	for (let i = 0; i < 230; i++) h.server.store.addBridge(SEED.orgHandle, { name: `Bulk ${i}` });
});

afterAll(async () => {
	await h?.close();
	clock.uninstall();
});

afterEach(() => {
	h.server.resetTraffic();
});

const slugOfCreate = '={{ $("Create").first().json.slug }}';
const everyOperation = workflow('bridgeEveryOperation', [
	bridgeNode('Create', { resource: 'bridge', operation: 'create', name: 'E2E Line' }),
	bridgeNode('Get', { resource: 'bridge', operation: 'get', bridge: rl('={{ $json.slug }}') }),
	bridgeNode('Update', {
		resource: 'bridge',
		operation: 'update',
		bridge: rl(slugOfCreate),
		name: 'E2E Line (renamed)',
	}),
	// A new bridge has no numbers yet (Unpod assigns them): connect a number of the seeded bridge.
	bridgeNode('Connect', {
		resource: 'providerConnection',
		operation: 'connectProvider',
		bridge: rl(SEED.bridgeSlug),
		number: { __rl: true, mode: 'id', value: String(SEED.numberId) },
		providerCredential: { __rl: true, mode: 'id', value: String(SEED.activeCredentialId) },
	}),
	bridgeNode('Disconnect', {
		resource: 'providerConnection',
		operation: 'disconnectProvider',
		bridge: rl(SEED.bridgeSlug),
		number: { __rl: true, mode: 'id', value: '={{ $json.number_id }}' },
		providerCredential: { __rl: true, mode: 'id', value: String(SEED.activeCredentialId) },
	}),
	bridgeNode('Get Many', { resource: 'bridge', operation: 'getAll', returnAll: true }),
	bridgeNode(
		'Get Five',
		{ resource: 'bridge', operation: 'getAll', returnAll: false, limit: 5 },
		{ executeOnce: true },
	),
	bridgeNode('Delete', { resource: 'bridge', operation: 'delete', bridge: rl(slugOfCreate) }, { executeOnce: true }),
]);

test('every bridge operation against the February source works in n8n and sends what the API expects', async () => {
	h.server.behaviour.shapes = 'source';
	const result = await run(everyOperation);
	expect(result.exitCode).toBe(0);

	const [created] = outputOf(result, 'Create');
	expect(created).toMatchObject({
		name: 'E2E Line',
		description: '',
		region: 'IN',
		// Unpod starts new bridges as drafts.
		status: 'DRAFT',
		documents_status: 'pending',
		numbers: [],
		org_handle: SEED.orgHandle,
		organization: { domain_handle: SEED.orgHandle },
	});
	// The source makes its own slug, whatever the node sends.
	const slug: string = created.slug;
	expect(slug).toMatch(/^e2e-line-[0-9a-f]{6}$/);

	expect(outputOf(result, 'Get')).toEqual([expect.objectContaining({ slug, name: 'E2E Line', numbers: [] })]);
	expect(outputOf(result, 'Update')).toEqual([
		expect.objectContaining({ slug, name: 'E2E Line (renamed)', status: 'DRAFT' }),
	]);
	// Unpod answers 201 with the bridge's number record.
	expect(outputOf(result, 'Connect')).toEqual([
		expect.objectContaining({
			number_id: SEED.numberId,
			number: '+14155550100',
			provider_details: expect.objectContaining({ id: SEED.activeCredentialId, active: true }),
		}),
	]);
	expect(outputOf(result, 'Disconnect')).toEqual([
		expect.objectContaining({ number_id: SEED.numberId, provider_details: null }),
	]);

	const all = outputOf(result, 'Get Many');
	const acmeBridges = [...h.server.store.bridges.values()].filter((b) => b.org === SEED.orgHandle).length + 1; // +1: deleted since
	expect(all).toHaveLength(acmeBridges);
	expect(new Set(all.map((b) => b.slug)).size).toBe(all.length);
	expect(all[0]).toEqual({
		id: expect.any(Number),
		name: 'E2E Line (renamed)',
		slug,
		status: 'DRAFT',
		description: '',
	});
	expect(outputOf(result, 'Get Five')).toHaveLength(5);
	expect(outputOf(result, 'Delete')).toEqual([{ deleted: true, slug }]);
	expect(h.server.store.bridges.has(slug)).toBe(false);

	// What the server received, in order.
	const received = h.server.requests.map(
		(r) => `${r.method} ${r.path}${r.query.page ? `?page=${r.query.page}&page_size=${r.query.page_size}` : ''}`,
	);
	const base = '/api/v2/platform/telephony/bridges/';
	expect(received).toEqual([
		`POST ${base}`,
		`GET ${base}${slug}/`,
		`PATCH ${base}${slug}/`,
		// Connect and disconnect read the bridge for the number's other name (its phone number).
		`GET ${base}${SEED.bridgeSlug}/`,
		`POST ${base}${SEED.bridgeSlug}/connect-provider/`,
		`GET ${base}${SEED.bridgeSlug}/`,
		`POST ${base}${SEED.bridgeSlug}/disconnect-provider/`,
		`GET ${base}?page=1&page_size=100`,
		`GET ${base}?page=2&page_size=100`,
		`GET ${base}?page=3&page_size=100`,
		`GET ${base}?page=1&page_size=5`,
		`DELETE ${base}${slug}/`,
	]);
	for (const r of h.server.requests) {
		expect(r.headers.authorization).toBe(`Token ${SEED.token}`);
		expect(r.headers['org-handle']).toBe(SEED.orgHandle);
		expect(r.headers['product-id']).toBe(SEED.productId);
		expect(r.status).toBeLessThan(300);
	}
	const bodies = h.server.requests.filter((r) => r.method !== 'GET' && r.method !== 'DELETE');
	expect(bodies.map((r) => r.headers['content-type'])).toEqual(
		bodies.map(() => expect.stringContaining('application/json')),
	);
	const bothShapes = {
		number_id: SEED.numberId,
		phone_number: SEED.agentNumber,
		provider_credential_id: SEED.activeCredentialId,
		provider_config_id: SEED.activeCredentialId,
	};
	expect(bodies.map((r) => r.body)).toEqual([
		{ name: 'E2E Line', slug: 'e2e-line' },
		{ name: 'E2E Line (renamed)' },
		// Both of Unpod's shapes: the source's keys and the 2026 docs' keys.
		bothShapes,
		bothShapes,
	]);
	expect(h.server.requests.map((r) => r.status)).toEqual([201, 200, 200, 200, 201, 200, 200, 200, 200, 200, 200, 204]);
});

const connectDocs = workflow('bridgeConnectDocs', [
	bridgeNode('Connect', {
		resource: 'providerConnection',
		operation: 'connectProvider',
		bridge: rl(SEED.bridgeSlug),
		// The number itself, as a user copying it from Unpod's web app gives it.
		number: { __rl: true, mode: 'id', value: SEED.agentNumber },
		providerCredential: { __rl: true, mode: 'list', value: String(SEED.activeCredentialId) },
	}),
	bridgeNode('Disconnect', {
		resource: 'providerConnection',
		operation: 'disconnectProvider',
		bridge: rl(SEED.bridgeSlug),
		number: { __rl: true, mode: 'list', value: String(SEED.numberId) },
		providerCredential: { __rl: true, mode: 'list', value: String(SEED.activeCredentialId) },
	}),
]);

const connectAnswers = {
	// OpenAPI 2.0.0: 200 with what was connected.
	spec: {
		status: 200,
		item: { message: 'Provider connected successfully', bridge_slug: SEED.bridgeSlug, phone_number: SEED.agentNumber },
	},
	// The source and the 2026 docs: 201 with the bridge's number record.
	source: { status: 201, item: expect.objectContaining({ number_id: SEED.numberId }) },
	docs: { status: 201, item: expect.objectContaining({ number_id: SEED.numberId }) },
};

test.each(['spec', 'source', 'docs'] as const)(
	"connect and disconnect against Unpod's %s shape, the number given by ID or as the number itself",
	async (shapes) => {
		h.server.behaviour.shapes = shapes;
		const result = await run(connectDocs);
		expect(result.exitCode).toBe(0);
		expect(outputOf(result, 'Connect')).toEqual([connectAnswers[shapes].item]);
		const [connect, disconnect] = h.server.requests.filter((r) => r.method === 'POST');
		const both = {
			number_id: SEED.numberId,
			phone_number: SEED.agentNumber,
			provider_credential_id: SEED.activeCredentialId,
			provider_config_id: SEED.activeCredentialId,
		};
		expect([connect.status, disconnect.status]).toEqual([connectAnswers[shapes].status, 200]);
		expect([connect.body, disconnect.body]).toEqual([both, both]);
		expect(h.server.store.bridges.get(SEED.bridgeSlug)!.numbers[0].provider_credential).toBeNull();
	},
);

const failures: Array<{ case: string; node: N8nNode; httpCode: string; message: RegExp }> = [
	{
		case: 'unknown slug (404)',
		node: bridgeNode('Fail', { resource: 'bridge', operation: 'get', bridge: rl('no-such-bridge') }),
		httpCode: '404',
		message: /^No VoiceBridge matches the given query\.: bridge "no-such-bridge"$/,
	},
	{
		// Unpod prints the serializer's errors as a Python dict into `message`.
		case: 'a blank name on update (400)',
		node: bridgeNode('Fail', {
			resource: 'bridge',
			operation: 'update',
			bridge: rl(SEED.bridgeSlug),
			name: '={{ " " }}',
		}),
		httpCode: '400',
		message: /^name: This field may not be blank\.$/,
	},
	{
		case: 'an unknown organization on create (200 with only a detail)',
		node: bridgeNode(
			'Fail',
			{ resource: 'bridge', operation: 'create', name: 'Orphan Line' },
			{ credentials: BAD_ORG_CREDENTIAL },
		),
		httpCode: '200',
		message: /^Unpod refused the request: No organization found for handle 'no-such-org'\.$/,
	},
	{
		case: 'connect without a number (400)',
		node: bridgeNode('Fail', {
			resource: 'providerConnection',
			operation: 'connectProvider',
			bridge: rl(SEED.bridgeSlug),
			number: { __rl: true, mode: 'id', value: '={{ $json.number_id ?? "" }}' },
			providerCredential: { __rl: true, mode: 'id', value: String(SEED.activeCredentialId) },
		}),
		httpCode: '400',
		message: /^Number is required$/,
	},
	{
		case: 'connect a number that is not assigned (206)',
		node: bridgeNode('Fail', {
			resource: 'providerConnection',
			operation: 'connectProvider',
			bridge: rl(SEED.bridgeSlug),
			number: { __rl: true, mode: 'id', value: String(SEED.releasedNumberId) },
			providerCredential: { __rl: true, mode: 'id', value: String(SEED.activeCredentialId) },
		}),
		httpCode: '206',
		message: /^Number is not assigned to this bridge: Number 5002 is not ASSIGNED to bridge 'main-line-a1b2c3'$/,
	},
	{
		case: 'wrong token (401)',
		node: bridgeNode(
			'Fail',
			{ resource: 'bridge', operation: 'getAll', limit: 1 },
			{ credentials: BAD_TOKEN_CREDENTIAL },
		),
		httpCode: '401',
		message: /^Unpod did not accept the API token: it is missing or wrong$/,
	},
	{
		case: 'connect with an inactive credential (400)',
		node: bridgeNode('Fail', {
			resource: 'providerConnection',
			operation: 'connectProvider',
			bridge: rl(SEED.bridgeSlug),
			number: { __rl: true, mode: 'list', value: String(SEED.numberId) },
			providerCredential: { __rl: true, mode: 'id', value: String(SEED.inactiveCredentialId) },
		}),
		httpCode: '400',
		message: /^Provider credential is inactive: Provider credential 102 is not active$/,
	},
	{
		case: 'a 206 business failure (unknown organization)',
		node: bridgeNode(
			'Fail',
			{ resource: 'bridge', operation: 'getAll', limit: 1 },
			{ credentials: BAD_ORG_CREDENTIAL },
		),
		httpCode: '206',
		message: /^Organization not found: No organization with handle 'no-such-org'$/,
	},
];

const failureRuns = failures.map((f, i) => workflow(`bridgeFail${i}`, [f.node]));

// The February source's answers (its 404 text, its Python-printed 400s, connect by number_id).
describe.each(failures.map((f, i) => ({ ...f, id: failureRuns[i] })))('$case', (failure) => {
	beforeEach(() => {
		h.server.behaviour.shapes = 'source';
	});
	test('fails the node with the API text', async () => {
		const result = await run(failure.id);
		expect(result.exitCode).toBe(1);
		const error = result.resultData?.error;
		expect(error).toBeDefined();
		expect(error.name).toBe('NodeApiError');
		expect(String(error.httpCode)).toBe(failure.httpCode);
		expect(error.message).toMatch(failure.message);
		expect(result.resultData?.lastNodeExecuted).toBe('Fail');
	});
});

const continueOnFail = workflow('bridgeContinueOnFail', [
	...failures.map((f, i) => ({
		...f.node,
		name: `Fail ${i}`,
		onError: 'continueRegularOutput' as const,
		executeOnce: true,
	})),
	bridgeNode('After', { resource: 'bridge', operation: 'get', bridge: rl(SEED.bridgeSlug) }, { executeOnce: true }),
]);

test('with Continue On Fail, each failure becomes an item with its error and the run goes on', async () => {
	h.server.behaviour.shapes = 'source';
	const result = await run(continueOnFail);
	expect(result.exitCode).toBe(0);
	failures.forEach((f, i) => {
		const items = itemsOf(result, `Fail ${i}`);
		expect(items).toHaveLength(1);
		expect(items[0].json.error).toMatch(f.message);
		expect(items[0].pairedItem).toMatchObject({ item: 0 });
	});
	expect(outputOf(result, 'After')).toEqual([expect.objectContaining({ slug: SEED.bridgeSlug })]);
});

test('the API token never appears in any output or log', () => {
	expect(h.runs.length).toBeGreaterThan(0);
	for (const r of h.runs) {
		expect(r.stdout).not.toContain(SEED.token);
		expect(r.stderr).not.toContain(SEED.token);
		expect(r.stdout + r.stderr).not.toContain('wrong-token');
	}
});

const faultRun = workflow('bridgeFault', [
	bridgeNode('Fail', { resource: 'bridge', operation: 'get', bridge: rl(SEED.bridgeSlug) }),
]);

const passingFaults = ['html', 'malformed', 'serverError', 'rateLimit', 'drop'] as const;

test.each(passingFaults)('a single request survives a %s answer: it is sent again and succeeds', async (kind) => {
	h.server.faults.add({ kind, retryAfter: 1, times: 1 });
	const result = await run(faultRun);
	expect(result.exitCode).toBe(0);
	expect(outputOf(result, 'Fail')).toEqual([expect.objectContaining({ slug: SEED.bridgeSlug })]);
	expect(h.server.faults.injected).toHaveLength(1);
	expect(h.server.requestsTo('GET', `/telephony/bridges/${SEED.bridgeSlug}/`)).toHaveLength(2);
});

test('a server error that lasts fails the node with its message after the retries', async () => {
	h.server.faults.add({ kind: 'serverError' });
	const result = await run(faultRun);
	expect(result.exitCode).toBe(1);
	expect(result.resultData?.error).toMatchObject({ name: 'NodeApiError', httpCode: '500' });
	expect(result.resultData?.error.message).toMatch(/^Unpod server error \(HTTP 500\): Internal server error$/);
	// The first try and four retries.
	expect(h.server.faults.injected).toHaveLength(5);
});

test('a rate limit longer than the node may wait fails at once with the wait Unpod asked for', async () => {
	h.server.faults.add({ kind: 'rateLimit', retryAfter: 900 });
	const result = await run(faultRun);
	expect(result.exitCode).toBe(1);
	expect(result.resultData?.error).toMatchObject({ name: 'NodeApiError', httpCode: '429' });
	expect(result.resultData?.error.message).toMatch(/^Unpod rate limit reached: retry after 900 seconds$/);
	expect(h.server.faults.injected).toHaveLength(1);
});

// Each creates a bridge of its own slug.
const createRun = (name: string) =>
	workflow(`bridgeCreateFault ${name}`, [bridgeNode('Create', { resource: 'bridge', operation: 'create', name })]);
const faultRun500 = createRun('Fault Line');
const faultRunLost = createRun('Lost Line');
const bridgesNamed = (name: string) => [...h.server.store.bridges.values()].filter((b) => b.name === name);

test('a create that met a server error is sent again and creates one bridge', async () => {
	h.server.faults.add({ kind: 'serverError', method: 'POST', times: 1 });
	const result = await run(faultRun500);
	expect(result.exitCode).toBe(0);
	expect(h.server.requestsTo('POST', '/telephony/bridges/')).toHaveLength(2);
	expect(bridgesNamed('Fault Line')).toEqual([expect.objectContaining({ slug: 'fault-line' })]);
});

test('a create whose answer was lost is never sent again: the error says it may have been done', async () => {
	h.server.faults.add({ kind: 'dropAfter', method: 'POST', times: 1 });
	const result = await run(faultRunLost);
	expect(result.exitCode).toBe(1);
	expect(result.resultData?.error.message).toMatch(/^Unpod may or may not have done this: .*Check in Unpod/);
	expect(h.server.requestsTo('POST', '/telephony/bridges/')).toHaveLength(1);
	expect(bridgesNamed('Lost Line')).toEqual([expect.objectContaining({ slug: 'lost-line' })]);
});
