/**
 * Bridges as Unpod's OpenAPI 2.0.0 has them (the local server's default shape), in n8n's engine:
 * each operation, the slug given or made from the name and what a taken one says, the picker.
 * The February source's bridges, connections and failures: bridge.test.ts.
 */
import { TestClock } from '../../helpers/clock';
import { outputOf } from '../../../dev/harness/run-results';
import { N8nNode } from '../../../dev/harness/workflow-builders';
import { listSearch } from '../../helpers/listSearch';
import { bridgeRef, unpodNode } from '../../helpers/nodes';
import { Harness, startHarness, Workflows } from '../../helpers/setup';
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

const specOperations = workflow('bridgeSpecOperations', [
	bridgeNode('Create', { resource: 'bridge', operation: 'create', name: 'Sales Line' }, { executeOnce: true }),
	bridgeNode(
		'Create With Slug',
		{ resource: 'bridge', operation: 'create', name: 'Sales Line (EU)', slug: 'sales_eu-2' },
		{ executeOnce: true },
	),
	bridgeNode('Get', { resource: 'bridge', operation: 'get', bridge: rl('sales-line') }, { executeOnce: true }),
	bridgeNode(
		'Update',
		{ resource: 'bridge', operation: 'update', bridge: rl('sales_eu-2'), name: 'Sales Line (Europe)' },
		{ executeOnce: true },
	),
	bridgeNode(
		'Get Three',
		{ resource: 'bridge', operation: 'getAll', returnAll: false, limit: 3 },
		{ executeOnce: true },
	),
	bridgeNode('Delete', { resource: 'bridge', operation: 'delete', bridge: rl('sales-line') }, { executeOnce: true }),
	bridgeNode('Delete EU', { resource: 'bridge', operation: 'delete', bridge: rl('sales_eu-2') }, { executeOnce: true }),
]);

test('every bridge operation as OpenAPI 2.0.0 has them: the slug given or made from the name, no status', async () => {
	const result = await run(specOperations);
	expect(result.exitCode).toBe(0);
	const created = { id: expect.any(Number), name: 'Sales Line', slug: 'sales-line', created_at: expect.any(String) };
	expect(outputOf(result, 'Create')).toEqual([created]);
	expect(outputOf(result, 'Create With Slug')).toEqual([{ ...created, name: 'Sales Line (EU)', slug: 'sales_eu-2' }]);
	expect(outputOf(result, 'Get')).toEqual([
		{ id: expect.any(Number), name: 'Sales Line', slug: 'sales-line', numbers: [] },
	]);
	expect(outputOf(result, 'Update')).toEqual([
		{ id: expect.any(Number), name: 'Sales Line (Europe)', slug: 'sales_eu-2', numbers: [] },
	]);
	// What the spec lists: no status, no description.
	expect(outputOf(result, 'Get Three')).toEqual([
		{ id: expect.any(Number), name: 'Sales Line (Europe)', slug: 'sales_eu-2', provider: null, numbers: [] },
		{ id: expect.any(Number), name: 'Sales Line', slug: 'sales-line', provider: null, numbers: [] },
		expect.objectContaining({ provider: null, numbers: [] }),
	]);
	expect(outputOf(result, 'Delete')).toEqual([{ deleted: true, slug: 'sales-line' }]);
	expect(outputOf(result, 'Delete EU')).toEqual([{ deleted: true, slug: 'sales_eu-2' }]);

	const base = '/api/v2/platform/telephony/bridges/';
	expect(h.server.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
		`POST ${base} 201`,
		`POST ${base} 201`,
		`GET ${base}sales-line/ 200`,
		`PATCH ${base}sales_eu-2/ 200`,
		`GET ${base} 200`,
		`DELETE ${base}sales-line/ 204`,
		`DELETE ${base}sales_eu-2/ 204`,
	]);
	expect(h.server.requests.filter((r) => r.body !== undefined).map((r) => r.body)).toEqual([
		{ name: 'Sales Line', slug: 'sales-line' },
		{ name: 'Sales Line (EU)', slug: 'sales_eu-2' },
		{ name: 'Sales Line (Europe)' },
	]);
});

const listAll = workflow('bridgeSpecList', [
	bridgeNode('Get Many', { resource: 'bridge', operation: 'getAll', returnAll: true }, { executeOnce: true }),
]);

test('Get Many lists what the spec lists: a connected bridge with its carrier by slug, no status', async () => {
	const bridge = h.server.store.bridges.get(SEED.bridgeSlug)!;
	bridge.provider_credential = SEED.activeCredentialId;
	try {
		const result = await run(listAll);
		expect(result.exitCode).toBe(0);
		const all = outputOf(result, 'Get Many');
		expect(all.find((b) => b.slug === SEED.bridgeSlug)).toEqual({
			id: bridge.id,
			name: 'Main Line',
			slug: SEED.bridgeSlug,
			provider: 'twilio',
			numbers: [
				{ id: 1, number: SEED.agentNumber, status: 'active' },
				{ id: 2, number: '+14155550199', status: 'inactive' },
			],
		});
		expect(all.filter((b) => 'status' in b || 'description' in b)).toEqual([]);
	} finally {
		bridge.provider_credential = null;
	}
});

const createNamed = (id: string, name: string, slug = '') =>
	workflow(id, [bridgeNode('Create', { resource: 'bridge', operation: 'create', name, slug })]);
const accented = createNamed('bridgeSlugAccents', '  Café — Support & Sales!! ');
const long = createNamed('bridgeSlugLong', `${'Regional '.repeat(5)}Outbound Line`);
const takenGiven = createNamed('bridgeSlugTakenGiven', 'Another Main Line', SEED.bridgeSlug);
const takenDerived = createNamed('bridgeSlugTakenDerived', 'Taken Line');

test('a slug made from the name: lowercase, accents dropped, other runs one "-", at most 50 characters', async () => {
	const result = await run(accented);
	expect(result.exitCode).toBe(0);
	expect(h.server.requests[0].body).toEqual({ name: 'Café — Support & Sales!!', slug: 'cafe-support-sales' });
	const longer = await run(long);
	expect(longer.exitCode).toBe(0);
	const { slug } = h.server.requests.at(-1)!.body as { slug: string };
	// Cut at 50, and no "-" left at the cut.
	expect(slug).toBe('regional-regional-regional-regional-regional-outbo');
	expect(slug).toHaveLength(50);
	for (const made of ['cafe-support-sales', slug]) h.server.store.bridges.delete(made);
});

test.each([
	{
		case: 'given',
		id: takenGiven,
		message: `Slug "${SEED.bridgeSlug}" is already used by another bridge: set another Slug`,
	},
	{
		case: 'made from the name',
		id: takenDerived,
		message: 'Slug "taken-line", made from the Name, is already used by another bridge: set a Slug, or another Name',
	},
])('a slug already taken ($case) says so, naming the field to change', async ({ id, message }) => {
	h.server.store.addBridge(SEED.otherOrgHandle, { name: 'Taken Line', slug: 'taken-line' });
	try {
		const result = await run(id);
		expect(result.exitCode).toBe(1);
		expect(result.resultData?.error).toMatchObject({ name: 'NodeApiError', httpCode: '400', message });
		// What Unpod said stays with the error.
		expect(h.server.requests[0].status).toBe(400);
		expect(JSON.stringify(result.resultData?.error)).toContain('voice bridge with this slug already exists.');
	} finally {
		h.server.store.bridges.delete('taken-line');
	}
});

test("a 409 (the docs' Conflict for a taken slug) says the same", async () => {
	h.server.faults.add({
		kind: 'status',
		status: 409,
		method: 'POST',
		path: '/telephony/bridges/',
		body: { status_code: 409, message: 'Conflict', errors: 'Bridge with this slug already exists' },
	});
	const result = await run(takenDerived);
	expect(result.resultData?.error).toMatchObject({
		httpCode: '409',
		message: 'Slug "taken-line", made from the Name, is already used by another bridge: set a Slug, or another Name',
	});
});

const refusedLocally = [
	{ name: '={{ "  " }}', slug: '', message: 'Name is empty' },
	{
		name: '!!! ???',
		slug: '',
		message: 'No slug can be made from the Name "!!! ???": it has no letters a-z or digits',
	},
	{ name: 'Sales', slug: 'sales line/eu', message: 'Slug "sales line/eu" may hold only letters, digits, "-" and "_"' },
	{ name: 'Sales', slug: 's'.repeat(51), message: `Slug "${'s'.repeat(51)}" is longer than 50 characters` },
].map((c, i) => ({ ...c, id: createNamed(`bridgeRefused${i}`, c.name, c.slug) }));

test.each(refusedLocally)('Create refuses before sending: $message', async ({ id, message }) => {
	const result = await run(id);
	expect(result.exitCode).toBe(1);
	expect(result.resultData?.error.message).toBe(message);
	expect(h.server.requests).toEqual([]);
});

const specFailures = [
	{
		case: 'a blank name on update',
		node: bridgeNode('Fail', {
			resource: 'bridge',
			operation: 'update',
			bridge: rl(SEED.bridgeSlug),
			name: '={{ " " }}',
		}),
		httpCode: '400',
		message: 'Bridge update failed.: name: This field may not be blank.',
	},
	{
		case: 'an unknown slug',
		node: bridgeNode('Fail', { resource: 'bridge', operation: 'get', bridge: rl('no-such-bridge') }),
		httpCode: '404',
		message: 'Not found.: bridge "no-such-bridge"',
	},
].map((f, i) => ({ ...f, id: workflow(`bridgeSpecFail${i}`, [f.node]) }));

test.each(specFailures)(
	'OpenAPI 2.0.0 refuses $case: the node fails with its text',
	async ({ id, httpCode, message }) => {
		const result = await run(id);
		expect(result.exitCode).toBe(1);
		expect(result.resultData?.error).toMatchObject({ name: 'NodeApiError', httpCode, message });
	},
);

test.each(['spec', 'source'] as const)(
	'the bridge picker in shape %s: "name (slug)", searched or paged',
	async (shapes) => {
		h.server.behaviour.shapes = shapes;
		const first = await listSearch(h.server, 'UnpodBridge', 'searchBridges');
		expect(first.results).toHaveLength(100);
		expect(first.paginationToken).toBe('2');
		for (const r of first.results) expect(r.name).toBe(`${/^(.*) \(/.exec(r.name)![1]} (${r.value})`);
		const searched = await listSearch(h.server, 'UnpodBridge', 'searchBridges', { filter: 'SUPPORT' });
		expect(searched.results).toEqual([
			{ name: expect.stringMatching(/^Support Line \(support-line-[0-9a-f]{6}\)$/), value: expect.any(String) },
		]);
		expect(JSON.stringify([first, searched])).not.toContain('undefined');
	},
);
