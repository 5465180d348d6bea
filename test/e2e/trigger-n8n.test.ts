/**
 * The Unpod Trigger in a real, running n8n. Every n8n we support accepts minute polls at
 * most (2.x refuses faster ones), so the test asks for each poll itself: activation polls
 * at once, and deactivating then activating again polls again with the trigger's state kept.
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import type { N8n } from '../../dev/harness/n8n';
import { ROOT } from '../../dev/harness/paths';
import { waitFor } from '../helpers/wait-for';
import { graph, reportNode } from '../../dev/harness/workflow-builders';
import { N8nServer } from '../../dev/harness/n8n-server';
import { DO_NOT_CALL_COLUMNS } from '../../dev/harness/campaign';
import { pickDataTables } from '../../dev/harness/examples';
import { CREDENTIAL, Harness, startProcessHarness } from '../helpers/setup';
import { SEED } from '../../dev/server/seed';
import type { Task } from '../../dev/server/types';
import { ANALYSED_AGENT } from '../../dev/server/postCall';

let h: Harness<N8n>;
let n8n: N8nServer | undefined;

/** Watch: Call Log, inbound calls only, each call reported to the local server's sink. */
const inboundWatch = (sink: string) =>
	graph(
		'triggerInbound',
		[
			{
				name: 'Inbound calls',
				type: 'n8n-nodes-unpod.unpodTrigger',
				credentials: CREDENTIAL,
				parameters: {
					pollTimes: { item: [{ mode: 'everyMinute' }] },
					callsOf: 'callLog',
					direction: 'inbound',
					simplify: true,
					options: {},
				},
			},
			reportNode('Report', sink),
		],
		[['Inbound calls', 'Report']],
	);

beforeAll(async () => {
	h = await startProcessHarness();
	await h.n8n.importWorkflows([inboundWatch(`${h.server.url}/__sim/sink`)]);
});

afterAll(async () => {
	await n8n?.stop();
	await h?.close();
});

test('an active workflow emits each ended call once, as n8n polls', async () => {
	const store = h.server.store;
	const contacts = Array.from({ length: 8 }, (_, i) => ({ name: `Caller ${i}`, contact_number: `+4420794610${i}0` }));
	const tasks: Task[] = h.server.calls.addTasks(contacts);
	store.finishTask(tasks[0], 'completed'); // ended before activation: never emitted

	// The example workflow as users import it (minute polls), pointed at the local server.
	const workflow = JSON.parse(readFileSync(join(ROOT, 'examples', 'unpod-trigger-to-crm.json'), 'utf8'));
	workflow.id = 'triggerLive';
	const trigger = workflow.nodes.find((n: { name: string }) => n.name === 'Unpod Trigger');
	trigger.credentials = CREDENTIAL;
	trigger.parameters.space = { __rl: true, mode: 'token', value: SEED.spaceToken };
	workflow.nodes.push({
		id: 'report',
		name: 'Report',
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		position: [780, 0],
		parameters: {
			method: 'POST',
			url: `${h.server.url}/__sim/sink`,
			sendBody: true,
			specifyBody: 'json',
			jsonBody: '={{ JSON.stringify($json) }}',
			options: {},
		},
	});
	workflow.connections['Send to your CRM'] = { main: [[{ node: 'Report', type: 'main', index: 0 }]] };

	const polls = () => h.server.requestsTo('GET', `/spaces/${SEED.spaceToken}/tasks/`).length;
	n8n = await N8nServer.start(h.n8n);
	// The shared do-not-call table, picked as the note asks (n8n publishes no workflow without it).
	const doNotCall = await n8n.dataTables.create('Unpod do-not-call', DO_NOT_CALL_COLUMNS, []);
	pickDataTables(workflow, { doNotCallTable: doNotCall });
	await h.n8n.importWorkflows([workflow]);
	await n8n.setActive('triggerLive', true, polls);
	expect(polls()).toBeGreaterThanOrEqual(1);
	expect(h.server.sink).toEqual([]);

	// The agent extracts a budget, a meeting date and the decision maker (its Analysis settings).
	store.agentSettings.set(SEED.agentHandle, { ...ANALYSED_AGENT, follow_up_enabled: false, callback_enabled: false });
	store.finishTask(tasks[2], 'completed');
	store.finishTask(tasks[5], 'failed');
	const created = h.server.calls.addTasks([{ name: 'Late', contact_number: '+442079461999' }]);
	store.finishTask(created[0], 'completed');

	await n8n.pollNow('triggerLive', polls);
	await waitFor('three outcomes', () => h.server.sink.length >= 3);
	// Two more polls of an unchanged space, then one with a last call ended: once that one
	// has arrived, whatever the quiet polls might have sent twice would have arrived before it.
	await n8n.pollNow('triggerLive', polls);
	await n8n.pollNow('triggerLive', polls);
	store.finishTask(tasks[7], 'completed');
	await n8n.pollNow('triggerLive', polls);
	await waitFor('the last outcome', () => h.server.sink.length >= 4);
	const received = h.server.sink as Array<Record<string, any>>;
	expect(received.map((r) => r.external_id).sort()).toEqual(
		[tasks[2].task_id, tasks[5].task_id, created[0].task_id, tasks[7].task_id].sort(),
	);
	expect(received.find((r) => r.external_id === tasks[5].task_id)).toMatchObject({
		contact: { name: 'Caller 5', phone: tasks[5].input.contact_number },
		activity: { type: 'call', status: 'failed' },
		// Nobody was reached: nothing extracted, and the verdict says so.
		extracted: {},
		success: 'false',
		follow_up: { by_unpod: false },
	});
	const late = received.find((r) => r.external_id === created[0].task_id)!;
	expect(late).toMatchObject({
		contact: { name: 'Late' },
		activity: {
			status: 'completed',
			call_status: 'completed',
			recording_url: `${h.server.url}/recordings/${created[0].task_id}.mp3`,
		},
		follow_up: { required: expect.any(Boolean) },
		// What the agent found out, under the names its Analysis settings gave, for the CRM's fields.
		extracted: (created[0].output.post_call_data as { structured_data: object }).structured_data,
	});
	expect(Object.keys(late.extracted)).toEqual([
		'budget',
		'meeting_date',
		'decision_maker',
		'caller_requested_do_not_call',
		'do_not_call_reason',
	]);
	expect(late.activity.transcript).toMatch(/^Assistant: Hello Late/);
	// Every poll of an unchanged space reads one page.
	expect(h.server.requestsTo('GET', `/spaces/${SEED.spaceToken}/tasks/`).every((r) => r.query.page === '1')).toBe(true);
	store.agentSettings.delete(SEED.agentHandle);
});

test('watching the call log, an active workflow gets each inbound call once, and no outbound one', async () => {
	h.server.sink.length = 0;
	const polls = () => h.server.requestsTo('GET', '/cdr/').length;
	n8n ??= await N8nServer.start(h.n8n);
	await n8n.setActive('triggerInbound', true, polls);
	expect(h.server.sink).toEqual([]);

	const first = h.server.calls.inboundCall({ from: '+442079460801' });
	// In the space the other test's workflow does not watch (on 1.x it still polls each minute).
	const [task] = h.server.calls.addTasks([{ name: 'Outbound', contact_number: '+442079460802' }], {
		space: SEED.secondSpaceToken,
		pilot: SEED.secondAgentHandle,
	});
	h.server.store.finishTask(task, 'completed');
	const second = h.server.calls.inboundCall({ from: '+442079460803', status: 'not_connected', seconds: 0 });
	await n8n.nextPoll('triggerInbound', polls);
	const logged = () => (h.server.sink as Array<Record<string, unknown>>).filter((r) => 'call_log_id' in r).length;
	await waitFor('two inbound calls', () => logged() >= 2);
	// The poll that brings the third reads the first two again: neither comes twice.
	const third = h.server.calls.inboundCall({ from: '+442079460804' });
	await n8n.nextPoll('triggerInbound', polls);
	await waitFor('the third inbound call', () => logged() >= 3);
	const received = (h.server.sink as Array<Record<string, any>>).filter((r) => 'call_log_id' in r);
	expect(received.map((r) => [r.call_log_id, r.direction, r.destination_number, r.status])).toEqual([
		[first.id, 'inbound', '+442079460801', 'completed'],
		[second.id, 'inbound', '+442079460803', 'notConnected'],
		[third.id, 'inbound', '+442079460804', 'completed'],
	]);
	// Unpod's call detail records (cdr/), as OpenAPI 2.0.0 has them: nothing asked of call-logs/.
	expect(h.server.requestsTo('GET', '/cdr/').every((r) => r.query.call_type === 'inbound')).toBe(true);
	expect(h.server.requestsTo('GET', '/call-logs/')).toEqual([]);
	await n8n.setActive('triggerInbound', false);
});
