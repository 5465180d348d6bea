/** Person > Get: a contact's People profile, read from the local server's own calls of that document. */
import { outputOf } from '../../../dev/harness/run-results';
import type { N8nNode } from '../../../dev/harness/workflow-builders';
import { spaceRef, unpodNode } from '../../helpers/nodes';
import { Harness, startHarness, Workflows } from '../../helpers/setup';
import { SEED } from '../../../dev/server/seed';

const person = (name: string, documentId: string, extra: Record<string, unknown> = {}): N8nNode =>
	unpodNode(
		'space',
		name,
		{ resource: 'person', operation: 'get', space: spaceRef(SEED.secondSpaceToken), documentId, ...extra },
		{ executeOnce: true },
	);

const workflows = new Workflows();
const profile = workflows.chain('profile', [person('Person', ' crm-42 ')]);
const raw = workflows.chain('raw', [person('Person', 'crm-42', { simplify: false })]);
const unknown = workflows.chain('unknown', [person('Person', 'crm-404')]);
const slashed = workflows.chain('slashed', [person('Person', '../tasks')]);

let h: Harness;

beforeAll(async () => {
	h = await startHarness({}, workflows);
	const ann = { name: 'Ann Lee', contact_number: '+12125550142', document_id: 'crm-42' };
	h.server.calls.addTasks([ann, ann, ann], { space: SEED.secondSpaceToken, context: 'Renewal' });
	h.server.calls.finishCalls({ space: SEED.secondSpaceToken, count: 1, outcome: 'completed' });
	h.server.calls.finishCalls({ space: SEED.secondSpaceToken, count: 1, outcome: 'failed' });
	h.server.calls.finishCalls({ space: SEED.secondSpaceToken, count: 1, outcome: 'completed' });
	const [next] = h.server.calls.addTasks([ann], { space: SEED.secondSpaceToken, context: 'Renewal' });
	next.status = 'scheduled';
	next.scheduled_timestamp = '2026-12-09T15:00:00';
});

afterAll(async () => {
	await h?.close();
});

afterEach(() => h.server.resetTraffic());

test('one flat item: calls made and connected, the rate as Unpod writes it and as a number, the next call, from one request', async () => {
	const result = await h.run(profile);
	expect(result.exitCode).toBe(0);
	expect(outputOf(result, 'Person')).toEqual([
		{
			space_token: SEED.secondSpaceToken,
			document_id: 'crm-42',
			name: 'Ann Lee',
			profile_status: expect.any(String),
			summary: expect.stringMatching(/^Called 3 times, 2 connected\. Last call: /),
			total_calls: 3,
			connected_calls: 2,
			response_rate: '67%',
			response_rate_percent: 67,
			avg_call_duration: expect.stringMatching(/^\d+m \d+s$/),
			last_connected: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.000Z$/),
			next_call_scheduled: '2026-12-09T15:00:00.000Z',
			preferred_time: expect.stringMatching(/^(Morning|Afternoon|Evening)$/),
			sentiment: expect.any(String),
		},
	]);
	expect(h.server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
		`GET /api/v2/platform/knowledge_base/${SEED.secondSpaceToken}/connector-doc-data/crm-42/`,
	]);
});

test("Simplify off: Unpod's record as it came", async () => {
	const result = await h.run(raw);
	expect(outputOf(result, 'Person')).toEqual([
		expect.objectContaining({
			document_id: 'crm-42',
			overview: expect.objectContaining({ analytics: expect.objectContaining({ total_calls: 3, response_rate: '67%' }) }),
		}),
	]);
});

test('a document the space does not have names it; a slash in the ID is refused before any request', async () => {
	const missing = await h.run(unknown);
	expect(missing.exitCode).toBe(1);
	expect(missing.resultData?.error.message).toMatch(/person with Document ID "crm-404"/);
	h.server.resetTraffic();
	const bad = await h.run(slashed);
	expect(bad.exitCode).toBe(1);
	expect(bad.resultData?.error.message).toBe('Document ID "../tasks" has a space or a slash: paste the ID alone');
	expect(h.server.requests).toHaveLength(0);
});
