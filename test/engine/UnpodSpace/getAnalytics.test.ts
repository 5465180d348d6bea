/** Space > Get Analytics and Organization > Get Billing against the local server, in both of Unpod's shapes. */
import { outputOf } from '../../../dev/harness/run-results';
import { N8nNode } from '../../../dev/harness/workflow-builders';
import { spaceRef, unpodNode } from '../../helpers/nodes';
import { Harness, startHarness, Workflows } from '../../helpers/setup';
import { SEED } from '../../../dev/server/seed';
import type { Task } from '../../../dev/server/types';

const node = (name: string, parameters: Record<string, unknown>): N8nNode =>
	unpodNode('space', name, parameters, { executeOnce: true });

const workflows = new Workflows();
const reports = workflows.chain('reports', [
	node('Space', { resource: 'space', operation: 'getAnalytics', space: spaceRef(SEED.spaceToken) }),
	node('Organization', { resource: 'space', operation: 'getAnalytics', callsOf: 'organization' }),
	node('Invoices', { resource: 'organization', operation: 'getBilling', returnAll: true }),
	node('Five Invoices', { resource: 'organization', operation: 'getBilling', limit: 5 }),
]);
const analyticsOnly = workflows.chain('analyticsOnly', [
	node('Space', { resource: 'space', operation: 'getAnalytics', space: spaceRef(SEED.spaceToken) }),
]);
const EMPTY_SPACE = 'empty-list-5d0c2e';
const analyticsEmpty = workflows.chain('analyticsEmpty', [
	node('Space', { resource: 'space', operation: 'getAnalytics', space: spaceRef(EMPTY_SPACE) }),
]);
const billingOnly = workflows.chain('billingOnly', [
	node('Invoices', { resource: 'organization', operation: 'getBilling', returnAll: true }),
]);

let h: Harness;

beforeAll(async () => {
	h = await startHarness({}, workflows);
	const contacts = (n: number, from: number) =>
		Array.from({ length: n }, (_, i) => ({
			name: `Lead ${i}`,
			contact_number: `+1415556${String(from + i).padStart(4, '0')}`,
		}));
	h.server.calls.addTasks(contacts(30, 0), { context: 'Leads' });
	h.server.calls.addTasks(contacts(6, 100), { context: 'Leads', space: SEED.secondSpaceToken });
	h.server.calls.finishCalls({ space: SEED.spaceToken, count: 12, outcome: 'completed' });
	h.server.calls.finishCalls({ space: SEED.spaceToken, count: 7, outcome: 'failed' });
	h.server.calls.finishCalls({ space: SEED.secondSpaceToken, count: 2, outcome: 'completed' });
});

afterAll(async () => {
	await h?.close();
});

afterEach(() => {
	h.server.resetTraffic();
	h.server.behaviour.shapes = 'source';
});

/** What the figures should be, counted here from the server's tasks. */
function expected(tasks: Task[]) {
	const count = (...statuses: string[]) => tasks.filter((t) => statuses.includes(t.status)).length;
	return {
		total_calls: count('completed', 'failed', 'partially_completed'),
		total_tasks: tasks.length,
		tasks_completed: count('completed', 'partially_completed'),
		tasks_failed: count('failed'),
		tasks_pending: count('pending', 'scheduled', 'hold'),
		tasks_in_progress: count('in_progress', 'processing'),
	};
}

const spaceTasks = (...tokens: string[]) => h.server.store.tasks.filter((t) => tokens.includes(t.space));

test.each(['source', 'docs'] as const)(
	"analytics of a space and of the organization, and every invoice, from Unpod's %s shapes: one flat item, one name per figure",
	async (shapes) => {
		h.server.behaviour.shapes = shapes;
		const result = await h.run(reports);
		expect(result.exitCode).toBe(0);

		const [space] = outputOf(result, 'Space');
		const mine = spaceTasks(SEED.spaceToken);
		expect(space).toMatchObject({ scope: 'space', space_token: SEED.spaceToken, ...expected(mine) });
		expect(space.success_rate).toBeCloseTo((expected(mine).tasks_completed / mine.length) * 100, 2);
		const [org] = outputOf(result, 'Organization');
		expect(org).toMatchObject({
			scope: 'organization',
			space_token: null,
			...expected(spaceTasks(SEED.spaceToken, SEED.secondSpaceToken)),
		});
		if (shapes === 'source') {
			// The outcomes only the source's shape counts; its failures split into not connected and failed.
			const outcomes = ['interested', 'call_back', 'not_interested'] as const;
			expect(outcomes.reduce((sum, k) => sum + Number(space[k]), 0)).toBe(12);
			expect(Number(space.not_connected) + Number(space.failed_calls)).toBe(7);
			expect(space).toMatchObject({ completed_calls: null, avg_duration_seconds: null });
		} else {
			expect(space).toMatchObject({ completed_calls: 12, failed_calls: 7, interested: null, call_back: null });
			expect(space.avg_duration_seconds).toBeGreaterThan(0);
		}
		// One request per item, the space as the query says.
		const analytics = h.server.requests.filter((r) => r.path === '/api/v2/platform/organisation/analytics/');
		expect(analytics.map((r) => r.query)).toEqual([{ space_token: SEED.spaceToken }, {}]);

		const invoices = outputOf(result, 'Invoices');
		expect(invoices).toHaveLength(23);
		expect(invoices[0]).toEqual({
			invoice_number: shapes === 'source' ? 'INV-00200' : '200',
			id: shapes === 'source' ? null : 200,
			amount: expect.any(Number),
			tax_amount: shapes === 'source' ? expect.any(Number) : null,
			currency: 'USD',
			status: 'pending',
			charge_type: shapes === 'source' ? 'subscription' : null,
			invoice_date: '2026-11-01T00:00:15.000Z',
			due_date: shapes === 'source' ? '2026-11-08T00:00:15.000Z' : null,
			payment_at: null,
		});
		expect(new Set(invoices.map((i) => i.invoice_number)).size).toBe(23);
		expect(outputOf(result, 'Five Invoices')).toEqual(invoices.slice(0, 5));
		// Return All: two pages of 100; Limit 5: one page of 5.
		const billing = h.server.requests.filter((r) => r.path === '/api/v2/platform/organisation/billing/');
		expect(billing.map((r) => r.query)).toEqual([
			{ page: '1', page_size: '100' },
			{ page: '1', page_size: '5' },
		]);
	},
);

test('a space nobody was called from yet counts zero (Unpod answers data: null)', async () => {
	h.server.store.addSpace(SEED.orgHandle, EMPTY_SPACE, 'Empty list', [SEED.agentHandle]);
	const result = await h.run(analyticsEmpty);
	expect(result.exitCode).toBe(0);
	expect(outputOf(result, 'Space')[0]).toMatchObject({
		total_calls: 0,
		total_tasks: 0,
		tasks_completed: 0,
		success_rate: null,
		avg_success_score: null,
	});
});

test.each([
	[401, 'analytics', analyticsOnly],
	[403, 'analytics', analyticsOnly],
	[403, 'billing', billingOnly],
] as const)('a %i on %s says the API key may not read it and what to check', async (status, what, workflow) => {
	h.server.faults.add({
		kind: 'status',
		status,
		path: `/organisation/${what}/`,
		body: { status_code: status, message: 'Authentication credentials were not provided.' },
		times: 1,
	});
	const result = await h.run(workflow);
	expect(result.exitCode).toBe(1);
	const error = result.resultData?.error;
	expect(error).toMatchObject({ httpCode: String(status) });
	expect(error.message).toBe(`Unpod did not let this API key read the organization's ${what} (HTTP ${status})`);
	expect(error.description).toMatch(/Organization Handle/);
	expect(JSON.stringify(result)).not.toContain(SEED.token);
});
