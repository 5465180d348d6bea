/**
 * Telephony in n8n's engine against the local server: the free numbers, and the call log with
 * each filter, inbound calls included: at `cdr/` as Unpod's OpenAPI 2.0.0 serves it, and at
 * `call-logs/` where an older deployment serves only that. (The provider credential picker:
 * test/e2e/editor.test.ts.)
 */
import { TestClock } from '../../helpers/clock';
import { outputOf } from '../../../dev/harness/run-results';
import type { N8nNode } from '../../../dev/harness/workflow-builders';
import { unpodNode } from '../../helpers/nodes';
import { Harness, startHarness, Workflows } from '../../helpers/setup';
import { SEED } from '../../../dev/server/seed';
import { capCdrPageSize } from '../../../dev/server/routes/callLogs';

const bridgeNode = (name: string, parameters: Record<string, unknown>, extra: Partial<N8nNode> = {}): N8nNode =>
	unpodNode('bridge', name, parameters, { typeVersion: 1, executeOnce: true, ...extra });
const callLogs = (name: string, filters: Record<string, unknown>, more: Record<string, unknown> = {}) =>
	bridgeNode(name, { resource: 'callLog', operation: 'getAll', returnAll: true, filters, ...more });

let h: Harness;
const workflows = new Workflows();
const clock = TestClock.install(Date.parse(`${new Date().toISOString().slice(0, 10)}T12:00:00Z`));

const telephony = workflows.chain('telephony', [
	bridgeNode('Numbers', { resource: 'number', operation: 'getAll', returnAll: true }),
	bridgeNode('One Number', { resource: 'number', operation: 'getAll', returnAll: false, limit: 1 }),
	callLogs('All Calls', {}),
	callLogs('Raw', {}, { returnAll: false, limit: 2, simplify: false }),
	callLogs('Inbound', { direction: 'inbound' }),
	callLogs('Failed', { status: 'failed' }),
	callLogs('Inbound Not Connected', { direction: 'inbound', status: 'notConnected' }),
]);

const pages = workflows.chain('callLogPages', [
	callLogs('Every Call', {}),
	callLogs('First 120', {}, { returnAll: false, limit: 120 }),
]);

const everyCall = workflows.chain('callLogEveryCall', [callLogs('Every Call', {})]);

const badStatus = workflows.chain('callLogBadStatus', [callLogs('Bad Status', { status: '={{ "not_connected" }}' })]);

beforeAll(async () => {
	h = await startHarness({}, workflows, clock);
});

afterAll(async () => {
	await h?.close();
	clock.uninstall();
});

test("free numbers and the call log at cdr/ with each of the spec's filters: what Unpod was asked, what came out", async () => {
	const inbound = h.server.calls.inboundCall({ from: SEED.inboundCaller, seconds: 75 });
	h.server.resetTraffic();
	const result = await h.run(telephony);
	expect(result.exitCode).toBe(0);

	// openapi 677bf31: the organization's own numbers in any state, and the pool's free ones.
	expect(outputOf(result, 'Numbers')).toEqual([
		{ id: SEED.poolNumberId, number: '+14155550123', state: 'NOT_ASSIGNED', active: true },
		{ id: SEED.sharedPoolNumberId, number: '+14155550124', state: 'NOT_ASSIGNED', active: true },
		{ id: 185, number: '+14155550125', state: 'ASSIGNED', active: true },
		{ id: 186, number: '+14155550126', state: 'NOT_ASSIGNED', active: false },
	]);
	expect(outputOf(result, 'One Number')).toHaveLength(1);
	// The list is not paged: one request each, no page asked for.
	const numberRequests = h.server.requestsTo('GET', '/telephony/numbers/');
	expect(numberRequests.map((r) => r.query)).toEqual([{}, {}]);

	// Where Unpod answers as documented, no request is wasted: one at cdr/ per node, none elsewhere.
	expect(h.server.requestsTo('GET', '/call-logs/')).toEqual([]);
	const sent = h.server.requestsTo('GET', '/cdr/');
	expect(sent.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
	expect(sent.map((r) => r.query)).toEqual([
		{ page: '1', page_size: '100' },
		{ page: '1', page_size: '2' },
		{ page: '1', page_size: '100', call_type: 'inbound' },
		{ page: '1', page_size: '100', call_status: 'failed' },
		{ page: '1', page_size: '100', call_type: 'inbound', call_status: 'notConnected' },
	]);
	for (const request of sent) expect(request.headers).toMatchObject({ 'org-handle': SEED.orgHandle });

	const all = outputOf(result, 'All Calls');
	expect(all).toHaveLength(7);
	// The inbound call just made comes first, simplified from the spec's fields.
	expect(all[0]).toEqual({
		call_log_id: inbound.id,
		direction: 'inbound',
		status: 'completed',
		end_reason: 'Customer Ended The Call',
		failure_source: null,
		sip_cause: null,
		source_number: SEED.agentNumber,
		destination_number: SEED.inboundCaller,
		start_time: new Date(Math.floor(inbound.startMs / 1000) * 1000).toISOString(),
		end_time: new Date(inbound.endMs).toISOString(),
		duration: 75,
		bridge: 'Main Line',
		bridge_id: 1,
		logged: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.000Z$/),
	});
	const raw = outputOf(result, 'Raw');
	expect(raw).toEqual([
		expect.objectContaining({ id: inbound.id, call_type: 'inbound', bridge: { id: 1, name: 'Main Line' } }),
		expect.objectContaining({ call_type: 'outbound' }),
	]);
	expect(raw[0]).not.toHaveProperty('agent');

	expect(outputOf(result, 'Inbound').map((c) => c.direction)).toEqual(['inbound', 'inbound', 'inbound', 'inbound']);
	// The seeded outbound call nobody answered: failed, on the callee's side.
	expect(outputOf(result, 'Failed')).toEqual([
		expect.objectContaining({
			status: 'failed',
			destination_number: '+14155550178',
			failure_source: 'callee',
			sip_cause: '480 Temporarily Unavailable',
		}),
	]);
	expect(outputOf(result, 'Inbound Not Connected')).toEqual([
		expect.objectContaining({ direction: 'inbound', status: 'notConnected', destination_number: '+442079460011' }),
	]);
});

test('Return All walks every page of cdr/ and Limit stops at its count', async () => {
	const calls = Array.from({ length: 150 }, (_, i) =>
		h.server.calls.inboundCall({ from: `+4420794${String(i).padStart(5, '0')}` }),
	);
	h.server.resetTraffic();
	const result = await h.run(pages);
	expect(result.exitCode).toBe(0);
	const total = h.server.store.callLogs.filter((l) => l.org === SEED.orgHandle).length;
	const every = outputOf(result, 'Every Call');
	expect(every).toHaveLength(total);
	expect(new Set(every.map((c) => c.call_log_id)).size).toBe(total);
	expect(every[0].call_log_id).toBe(calls[149].id);
	expect(outputOf(result, 'First 120')).toHaveLength(120);
	expect(h.server.requestsTo('GET', '/cdr/').map((r) => r.query.page)).toEqual(['1', '2', '1', '2']);
	expect(h.server.requestsTo('GET', '/call-logs/')).toEqual([]);
});

test('Return All at a cdr/ that serves pages of 20, whatever page_size asks: its count, not a short page, ends the list', async () => {
	// The local server's default shape, which resetTraffic restores: OpenAPI 2.0.0's cdr/.
	h.server.resetTraffic();
	capCdrPageSize(h.server.store, 20);
	try {
		const total = h.server.store.callLogs.filter((l) => l.org === SEED.orgHandle).length;
		expect(total).toBeGreaterThan(100);
		const result = await h.run(everyCall);
		expect(result.exitCode).toBe(0);
		const every = outputOf(result, 'Every Call');
		expect(every).toHaveLength(total);
		expect(new Set(every.map((c) => c.call_log_id)).size).toBe(total);
		const pagesRead = Math.ceil(total / 20);
		expect(h.server.requestsTo('GET', '/cdr/').map((r) => [r.query.page, r.query.page_size])).toEqual(
			Array.from({ length: pagesRead }, (_, i) => [String(i + 1), '100']),
		);
	} finally {
		capCdrPageSize(h.server.store, undefined);
	}
});

test("a Status from an expression that is none of the spec's values fails the node before any request, naming the values", async () => {
	// The local server's default shape, which resetTraffic restores: OpenAPI 2.0.0's cdr/.
	h.server.resetTraffic();
	const result = await h.run(badStatus);
	expect(result.exitCode).toBe(1);
	expect(result.resultData?.lastNodeExecuted).toBe('Bad Status');
	expect(result.resultData?.error?.message).toBe(
		'Status "not_connected" is not one of Completed (completed), Not Connected (notConnected), Failed (failed)',
	);
	expect(h.server.requestsTo('GET', '/cdr/')).toEqual([]);
	expect(h.server.requestsTo('GET', '/call-logs/')).toEqual([]);
});

test.each(['source', 'docs'] as const)(
	'an Unpod of the %s shape, without cdr/: one 404 there, then call-logs/ for every page and every node',
	async (shapes) => {
		h.server.resetTraffic();
		h.server.behaviour.shapes = shapes;
		const result = await h.run(pages);
		expect(result.exitCode).toBe(0);
		const total = h.server.store.callLogs.filter((l) => l.org === SEED.orgHandle).length;
		expect(total).toBeGreaterThan(100);
		expect(outputOf(result, 'Every Call')).toHaveLength(total);
		// The older rows simplify to the same fields.
		expect(outputOf(result, 'Every Call')[0]).toMatchObject({
			direction: 'inbound',
			failure_source: null,
			sip_cause: null,
		});
		expect(outputOf(result, 'First 120')).toHaveLength(120);
		expect(h.server.requestsTo('GET', '/cdr/').map((r) => r.status)).toEqual([404]);
		expect(h.server.requestsTo('GET', '/call-logs/').map((r) => [r.status, r.query.page])).toEqual([
			[200, '1'],
			[200, '2'],
			[200, '1'],
			[200, '2'],
		]);
	},
);
