/** Number > Get Status: `telephony/overview/` (OpenAPI 2.0.0) through n8n's engine, against the local server. */
import { outputOf } from '../../../dev/harness/run-results';
import type { N8nNode } from '../../../dev/harness/workflow-builders';
import { unpodNode } from '../../helpers/nodes';
import { Harness, startHarness, Workflows } from '../../helpers/setup';
import { SEED } from '../../../dev/server/seed';

const bridgeNode = (name: string, parameters: Record<string, unknown>): N8nNode =>
	unpodNode('bridge', name, parameters, { executeOnce: true });

const workflows = new Workflows();
const status = workflows.chain('status', [
	bridgeNode('All', { resource: 'number', operation: 'getStatus', returnAll: true }),
	bridgeNode('One', { resource: 'number', operation: 'getStatus', returnAll: false, limit: 1 }),
]);

let h: Harness;

beforeAll(async () => {
	h = await startHarness({}, workflows);
	const pool = h.server.store.poolNumbers.find((n) => n.id === SEED.poolNumberId)!;
	pool.agent = SEED.agentHandle;
	h.server.store.bridges.get(SEED.bridgeSlug)!.numbers[0].provider_credential = SEED.activeCredentialId;
});

afterAll(async () => {
	await h?.close();
});

test('each number of the organization: its bridge, its link, its agent; one request, the limit kept', async () => {
	h.server.resetTraffic();
	const result = await h.run(status);
	expect(result.exitCode).toBe(0);
	const all = outputOf(result, 'All');
	expect(all).toEqual(
		expect.arrayContaining([
			expect.objectContaining({
				number: '+14155550100',
				bridge_slug: SEED.bridgeSlug,
				connection_state: 'LINKED',
				sync_state: 'synced',
			}),
			expect.objectContaining({ number: '+14155550199', bridge_slug: SEED.bridgeSlug, connection_state: 'UNLINKED' }),
			expect.objectContaining({ number: '+14155550123', bridge_slug: null, agent_id: SEED.agentHandle }),
		]),
	);
	expect(all).toHaveLength(3);
	expect(outputOf(result, 'One')).toEqual([all[0]]);
	expect(h.server.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
		'GET /api/v2/platform/telephony/overview/ 200',
		'GET /api/v2/platform/telephony/overview/ 200',
	]);
});
