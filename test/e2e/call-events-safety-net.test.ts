/**
 * The safety-net example (examples/unpod-call-events-to-crm.json) in a running n8n: Unpod's
 * push loses 30% of the endings, the polling trigger brings them, and n8n's Remove Duplicates
 * lets each call through once.
 */
import { DO_NOT_CALL_COLUMNS } from '../../dev/harness/campaign';
import { loadExample, pickDataTables } from '../../dev/harness/examples';
import type { N8n } from '../../dev/harness/n8n';
import { waitFor } from '../helpers/wait-for';
import { reportNode } from '../../dev/harness/workflow-builders';
import { N8nServer } from '../../dev/harness/n8n-server';
import { CREDENTIAL, Harness, pushEndingsTo, startProcessHarness } from '../helpers/setup';
import { SEED } from '../../dev/server/seed';

let h: Harness<N8n>;
let n8n: N8nServer | undefined;

beforeAll(async () => {
	h = await startProcessHarness();
});

afterAll(async () => {
	await n8n?.stop();
	await h?.close();
});

test('with 30% of pushes lost, every one of 100 endings reaches the CRM step exactly once', async () => {
	const workflow = loadExample('unpod-call-events-to-crm.json', {
		credential: CREDENTIAL.unpodApi,
		filesDir: '',
		callingHours: false,
		consent: false,
	});
	workflow.nodes.push({
		...reportNode('Report', `${h.server.url}/__sim/sink`),
		id: 'report',
		typeVersion: 4.2,
		position: [1040, 100],
	});
	workflow.connections['Send to your CRM'] = { main: [[{ node: 'Report', type: 'main', index: 0 }]] };
	const webhookId = workflow.nodes.find((n) => n.type.endsWith('unpodCallEventsTrigger'))!.webhookId;
	const polls = () => h.server.requestsTo('GET', `/spaces/${SEED.spaceToken}/tasks/`).length;

	// Executions one at a time, as the README asks of this workflow: n8n's Remove Duplicates reads
	// and writes its history without a lock, so executions at the same moment forget each other's ids.
	h.n8n.env.N8N_CONCURRENCY_PRODUCTION_LIMIT = '1';
	n8n = await N8nServer.start(h.n8n);
	// The shared do-not-call table, picked as the note asks (n8n publishes no workflow without it).
	const doNotCall = await n8n.dataTables.create('Unpod do-not-call', DO_NOT_CALL_COLUMNS, []);
	pickDataTables(workflow, { doNotCallTable: doNotCall });
	await h.n8n.importWorkflows([workflow]);
	await n8n.setActive(workflow.id, true, polls);
	await pushEndingsTo(h.server, n8n.url, webhookId!);
	h.server.webhooks.faults = { dropRate: 0.3, repeatRate: 0.1 };

	// 100 calls end in ten waves, as a campaign's calls do.
	const tasks = h.server.calls.addTasks(
		Array.from({ length: 100 }, (_, i) => ({
			name: `Lead ${i}`,
			contact_number: `+1415777${String(i).padStart(4, '0')}`,
		})),
	);
	for (let wave = 0; wave < 10; wave++) {
		h.server.calls.finishCalls({ count: 10, failRate: 0.2 });
		await h.server.webhooks.settled();
	}
	const ends = h.server.webhooks.deliveries.filter((d) => d.kind === 'task' && !d.repeat);
	const pushed = ends.filter((d) => d.state === 'delivered').length;
	const pushedIds = new Set(ends.filter((d) => d.state === 'delivered').map((d) => d.task_id));
	const lost = ends.filter((d) => d.state === 'dropped').length;
	expect(pushed + lost).toBe(100);
	expect(lost).toBeGreaterThan(10);
	await waitFor(`${pushed} pushed endings`, () => h.server.sink.length >= pushed, 120_000);
	await n8n.executionsFinished(workflow.id);
	// n8n's own minute poll may already have brought some of the lost ones; none twice.
	const ids = () => (h.server.sink as Array<{ external_id: string }>).map((r) => r.external_id);
	expect(new Set(ids()).size).toBe(ids().length);

	// The next poll brings the lost ones; Remove Duplicates drops the ones pushed already.
	const pollsBefore = polls();
	await n8n.nextPoll(workflow.id, polls);
	await waitFor('all 100 endings', () => h.server.sink.length >= 100, 120_000).catch(async (error: Error) => {
		// Said when it fails: which endings are missing, and what the trigger and n8n did meanwhile.
		const missing = tasks.filter((t) => !ids().includes(t.task_id)).map((t) => `${t.task_id} (${t.status})`);
		const runs = await n8n!.executionCount(workflow.id).catch(() => 'unknown');
		const failed = await n8n!.executionCount(workflow.id, ['error', 'crashed']).catch(() => 'unknown');
		throw new Error(
			`${error.message}: ${missing.length} missing (${missing.slice(0, 10).join(', ')}); ` +
				`${polls() - pollsBefore} polls since the next one was asked for, ${runs} executions in all (${failed} failed)\n` +
				n8n!.logTail(),
		);
	});
	await n8n.executionsFinished(workflow.id);
	// Then a quiet poll and 25 endings pushed once more, 13 pushed before and 12 the poll brought:
	// nothing more reaches the CRM.
	await n8n.quietPoll(workflow.id, polls);
	const again = [
		...tasks.filter((t) => pushedIds.has(t.task_id)).slice(0, 13),
		...tasks.filter((t) => !pushedIds.has(t.task_id)).slice(0, 12),
	];
	again.forEach((t) => h.server.webhooks.redeliver(t.task_id));
	await h.server.webhooks.settled();
	await n8n.executionsFinished(workflow.id);

	const received = h.server.sink as Array<{ external_id: string; activity: { status: string } }>;
	expect(received).toHaveLength(100);
	expect(received.map((r) => r.external_id).sort()).toEqual(tasks.map((t) => t.task_id).sort());
	for (const task of tasks) {
		expect(received.find((r) => r.external_id === task.task_id)!.activity.status).toBe(task.status);
	}
}, 600_000);
