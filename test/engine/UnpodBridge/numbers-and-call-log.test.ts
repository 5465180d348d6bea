/**
 * Telephony in n8n's engine against the local server: the free numbers, and the call log with
 * each filter, inbound calls included. (The provider credential picker: test/e2e/editor.test.ts.)
 */
import { TestClock } from '../../helpers/clock';
import { itemsOf, outputOf } from '../../../dev/harness/run-results';
import type { N8nNode } from '../../../dev/harness/workflow-builders';
import { bridgeRef, unpodNode } from '../../helpers/nodes';
import { CREDENTIAL, Harness, startHarness, Workflows } from '../../helpers/setup';
import { SEED } from '../../../dev/server/seed';
import { unpodDateTime } from '../../../nodes/shared/callLogs';

const bridgeNode = (name: string, parameters: Record<string, unknown>, extra: Partial<N8nNode> = {}): N8nNode =>
	unpodNode('bridge', name, parameters, { typeVersion: 1, executeOnce: true, ...extra });
const callLogs = (name: string, filters: Record<string, unknown>, more: Record<string, unknown> = {}) =>
	bridgeNode(name, { resource: 'callLog', operation: 'getAll', returnAll: true, filters, ...more });

let h: Harness;
const workflows = new Workflows();
const DAY = 86_400_000;
// The seeded call log is dated back from the clock: today's midday UTC on the test's clock, so
// that the call of two days ago and `since` fall on the same date whenever the test runs.
const clock = TestClock.install(Date.parse(`${new Date().toISOString().slice(0, 10)}T12:00:00Z`));
// Midday two days ago: the seeded calls of 1 and 2 days ago started after it, and Unpod, which
// compares dates only, also lists the one of early that day.
const since = new Date(Date.now() - 2 * DAY + 60_000);

const telephony = workflows.chain('telephony', [
	bridgeNode('Numbers', { resource: 'number', operation: 'getAll', returnAll: true }),
	bridgeNode('One Number', { resource: 'number', operation: 'getAll', returnAll: false, limit: 1 }),
	callLogs('All Calls', {}),
	callLogs('Raw', {}, { returnAll: false, limit: 2, simplify: false }),
	callLogs('Inbound', { direction: 'inbound' }),
	callLogs('Since', { from: since.toISOString() }),
	callLogs('Until', { to: new Date(Date.now() - 4 * DAY).toISOString() }),
	callLogs('Completed', { status: 'COMPLETED' }),
	callLogs('From Caller', { destinationNumber: SEED.inboundCaller }),
	callLogs('Agent Side', { sourceNumber: '+1415555' }),
	callLogs('Bridge', { bridgeName: 'main line' }),
	callLogs('By ID', { callId: '={{ $("All Calls").first().json.call_log_id }}' }),
]);

beforeAll(async () => {
	h = await startHarness({}, workflows, clock);
});

afterAll(async () => {
	await h?.close();
	clock.uninstall();
});

test('free numbers and the call log with each filter: what Unpod was asked, what came out', async () => {
	const inbound = h.server.calls.inboundCall({ from: SEED.inboundCaller, seconds: 75 });
	h.server.resetTraffic();
	const result = await h.run(telephony);
	expect(result.exitCode).toBe(0);

	expect(outputOf(result, 'Numbers')).toEqual([
		{ id: SEED.poolNumberId, number: '+14155550123', active: true },
		{ id: SEED.sharedPoolNumberId, number: '+14155550124', active: true },
	]);
	expect(outputOf(result, 'One Number')).toHaveLength(1);
	// The list is not paged: one request each, no page asked for.
	const numberRequests = h.server.requestsTo('GET', '/telephony/numbers/');
	expect(numberRequests.map((r) => r.query)).toEqual([{}, {}]);

	const all = outputOf(result, 'All Calls');
	expect(all).toHaveLength(7);
	// The inbound call just made comes first, simplified.
	expect(all[0]).toEqual({
		call_log_id: inbound.id,
		direction: 'inbound',
		status: 'completed',
		end_reason: 'Customer Ended The Call',
		source_number: SEED.agentNumber,
		destination_number: SEED.inboundCaller,
		start_time: new Date(inbound.startMs).toISOString(),
		end_time: new Date(inbound.endMs).toISOString(),
		duration: 75,
		agent: 'Support Bot',
		space: 'Renewals',
		bridge: 'Main Line',
		logged: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
	});
	expect(outputOf(result, 'Raw')).toEqual([
		expect.objectContaining({ id: inbound.id, call_type: 'inbound', agent: { id: 2, name: 'Support Bot' } }),
		expect.objectContaining({ call_type: 'outbound' }),
	]);

	const sent = h.server.requestsTo('GET', '/call-logs/').map((r) => r.query);
	const [allQ, rawQ, inboundQ, sinceQ, untilQ, completedQ, callerQ, agentQ, bridgeQ, idQ] = sent;
	expect(allQ).toEqual({ page: '1', page_size: '100' });
	expect(rawQ).toEqual({ page: '1', page_size: '2' });
	expect(inboundQ).toEqual({ page: '1', page_size: '100', call_type: 'inbound' });
	expect(outputOf(result, 'Inbound').map((c) => c.direction)).toEqual(['inbound', 'inbound', 'inbound', 'inbound']);

	expect(sinceQ).toMatchObject({ start_time: unpodDateTime(since.getTime()) });
	// Unpod lists the whole day, so the call that started a minute before the time too; the node keeps
	// only the calls that started after it.
	const logs = h.server.store.callLogs.filter((l) => l.org === SEED.orgHandle);
	const sameDay = (ms: number) => new Date(ms).toISOString().slice(0, 10) === since.toISOString().slice(0, 10);
	expect(logs.some((l) => l.startMs < since.getTime() && sameDay(l.startMs))).toBe(true);
	const started = logs.filter((l) => l.startMs >= since.getTime()).sort((a, b) => b.createdUs - a.createdUs);
	expect(outputOf(result, 'Since').map((c) => c.call_log_id)).toEqual(started.map((l) => l.id));
	expect(started).toHaveLength(2);

	expect(untilQ).toMatchObject({ end_time: expect.stringMatching(/^\d{2}-\d{2}-\d{4} \d{2}:\d{2}:\d{2}$/) });
	expect(outputOf(result, 'Until').map((c) => c.destination_number)).toEqual([
		'+14155550178',
		'+14155550142',
		'+14155550177',
	]);

	expect(completedQ).toMatchObject({ call_status: 'COMPLETED' });
	expect(outputOf(result, 'Completed').every((c) => c.status === 'completed')).toBe(true);
	expect(outputOf(result, 'Completed')).toHaveLength(5);

	expect(callerQ).toMatchObject({ destination_number: SEED.inboundCaller });
	expect(outputOf(result, 'From Caller').map((c) => c.direction)).toEqual(['inbound', 'inbound', 'inbound']);

	expect(agentQ).toMatchObject({ source_number: '+1415555' });
	expect(outputOf(result, 'Agent Side')).toHaveLength(7);

	expect(bridgeQ).toMatchObject({ bridge: 'main line' });
	expect(outputOf(result, 'Bridge').every((c) => c.bridge === 'Main Line')).toBe(true);

	// Unpod matches any id containing the one asked for; the node returns that call only.
	expect(idQ).toMatchObject({ call_id: String(inbound.id) });
	expect(outputOf(result, 'By ID').map((c) => c.call_log_id)).toEqual([inbound.id]);

	for (const request of h.server.requestsTo('GET', '/call-logs/')) {
		expect(request.headers).toMatchObject({ 'org-handle': SEED.orgHandle, 'product-id': SEED.productId });
	}
});

const dated = workflows.chain('callLogDated', [
	callLogs('Since', { from: since.toISOString() }),
	callLogs('Until', { to: new Date(Date.now() - 4 * DAY).toISOString() }),
]);

test.each(['source', 'docs'] as const)(
	"the call log's time range against Unpod's %s shape: the same calls, each side reading its own date keys",
	async (shapes) => {
		h.server.resetTraffic();
		h.server.behaviour.shapes = shapes;
		const result = await h.run(dated);
		expect(result.exitCode).toBe(0);
		const [sinceQ, untilQ] = h.server.requestsTo('GET', '/call-logs/').map((r) => r.query);
		expect(sinceQ).toMatchObject({
			start_time: unpodDateTime(since.getTime()),
			start_date: since.toISOString().slice(0, 10),
		});
		expect(untilQ).toMatchObject({ end_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
		const logs = h.server.store.callLogs.filter((l) => l.org === SEED.orgHandle);
		const started = logs.filter((l) => l.startMs >= since.getTime()).sort((a, b) => b.createdUs - a.createdUs);
		expect(outputOf(result, 'Since').map((c) => c.call_log_id)).toEqual(started.map((l) => l.id));
		const ended = logs.filter((l) => l.endMs <= Date.now() - 4 * DAY);
		expect(outputOf(result, 'Until')).toHaveLength(ended.length);
		expect(ended.length).toBeGreaterThan(0);
	},
);

test('a docs-shaped Unpod reads no source keys: a request with only them would not be filtered', async () => {
	h.server.resetTraffic();
	h.server.behaviour.shapes = 'docs';
	const only = await fetch(
		`${h.server.url}/api/v2/platform/call-logs/?start_time=${encodeURIComponent(unpodDateTime(since.getTime()))}`,
		{
			headers: { authorization: `Token ${SEED.token}`, 'org-handle': SEED.orgHandle, 'product-id': SEED.productId },
		},
	);
	const body = (await only.json()) as { count: number };
	expect(body.count).toBe(h.server.store.callLogs.filter((l) => l.org === SEED.orgHandle).length);
	h.server.resetTraffic();
});
