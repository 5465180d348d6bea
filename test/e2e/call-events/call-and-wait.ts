/**
 * Call and Wait "until Unpod reports" in the running n8n: the step waits holding no worker until
 * every call has ended (each ending relayed by the Call Events Trigger), then puts out each
 * outcome. Registered from waiting.ts, while the timeout step's limit passes.
 */
import { type CallEventsSuite, saveAgentWebhook, sinkOf, webhookUrl } from './suite';
import type { IDataObject } from 'n8n-workflow';
import { waitFor } from '../../helpers/wait-for';
import { graph, reportNode } from '../../../dev/harness/workflow-builders';
import { agentRef, postedWebhook, spaceRef, unpodNode } from '../../helpers/nodes';
import { SEED } from '../../../dev/server/seed';
import type { Task } from '../../../dev/server/types';
import { ENDS } from './suite';

export function callAndWaitReported(callEvents: CallEventsSuite): void {
	const { workflows } = callEvents;
	const sink = () => sinkOf(callEvents);
	/** Call and Wait holding no worker: one call per posted contact, then a report of each outcome. */
	const REPORTED_STEP = workflows.add(
		graph(
			'callAndWaitReported',
			[
				postedWebhook('wait-request'),
				{
					name: 'Contacts',
					type: 'n8n-nodes-base.splitOut',
					typeVersion: 1,
					parameters: { fieldToSplitOut: 'body.contacts', options: {} },
				},
				unpodNode('task', 'Call and wait', {
					operation: 'callAndWait',
					waitMode: 'untilReported',
					space: spaceRef(SEED.spaceToken),
					agent: agentRef(SEED.agentHandle),
					contactName: '={{ $json.name }}',
					contactNumber: '={{ $json.phone }}',
					callContext: 'Confirm the appointment',
					simplify: true,
					options: {},
				}),
				reportNode('Report', '={{ $env.UNPOD_SINK }}', '={{ JSON.stringify({ reported_step: $json }) }}'),
			],
			[
				['Request', 'Contacts'],
				['Contacts', 'Call and wait'],
				['Call and wait', 'Report'],
			],
		),
	);

	beforeAll(() => callEvents.n8n!.setActive(REPORTED_STEP, true));

	/** What Call and Wait resumed with (the ENDS workflow reports every ending to the same sink). */
	const reported = () =>
		sink()
			.filter((r) => 'reported_step' in r)
			.map((r) => r.reported_step as IDataObject);

	test('Call and Wait until Unpod reports: waits holding no worker until every call has ended, then puts out each outcome', async () => {
		const { h, n8n } = callEvents;
		await saveAgentWebhook(callEvents, webhookUrl(callEvents, ENDS));
		const phones = ['+12125400031', '+12125400032'];
		h.server.calls.callScripts = phones.map((number) => ({ number, end: 'never' as const, afterMs: 400 }));
		const res = await n8n!.postWebhook('wait-request', {
			contacts: [
				{ name: 'Una', phone: phones[0] },
				{ name: 'Duo', phone: phones[1] },
			],
		});
		expect(res.status).toBe(200);
		const tasks: Task[] = [];
		await waitFor('both calls', () => {
			tasks.splice(
				0,
				tasks.length,
				...h.server.store.tasks.filter((t) => phones.includes(String(t.input.contact_number))),
			);
			return tasks.length === 2;
		});
		await waitFor('the step to wait', async () => (await n8n!.executionCount(REPORTED_STEP, ['waiting'])) === 1);
		expect(await n8n!.executionCount(REPORTED_STEP, ['running', 'new'])).toBe(0);
		// One request for both: the wait reads one run back.
		expect(new Set(tasks.map((t) => t.run_id)).size).toBe(1);
		const requestsWhileWaiting = h.server.requests.length;

		// The first call's end is relayed: the ring is answered, the step keeps waiting for the other.
		const [first, second] = phones.map((p) => tasks.find((t) => t.input.contact_number === p)!);
		h.server.store.finishTask(first, 'completed');
		await h.server.webhooks.settled();
		await waitFor('the ring to be read', () =>
			h.server.requests.slice(requestsWhileWaiting).some((r) => r.path.includes(`/runs/${first.run_id}/`)),
		);
		await n8n!.executionsFinished(REPORTED_STEP);
		expect(await n8n!.executionCount(REPORTED_STEP, ['waiting'])).toBe(1);
		expect(reported()).toEqual([]);

		h.server.store.finishTask(second, 'failed');
		await waitFor('the step to resume', () => reported().length === 2, 60_000);
		await n8n!.executionsFinished(REPORTED_STEP);
		const [una, duo] = reported();
		expect(una).toMatchObject({
			task_id: first.task_id,
			run_id: first.run_id,
			status: 'completed',
			contact_number: phones[0],
			unpod_wait_status: 'ended',
		});
		expect(una.call_summary).toEqual(expect.any(String));
		expect(duo).toMatchObject({ task_id: second.task_id, status: 'failed', unpod_wait_status: 'ended' });
		// While the calls were open no request was sent but the rings' reads of the run (and the safety net's polls).
		// (Recorded paths are whole, `/api/v2/platform/...`: a poll that fell in this window failed the
		// check on 2.41, whose polls come each minute, when it compared them with the short path.)
		const pollPath = `/api/v2/platform/spaces/${SEED.spaceToken}/tasks/`;
		const sent = h.server.requests.slice(requestsWhileWaiting).filter((r) => r.path !== pollPath);
		const others = sent.filter((r) => !(r.method === 'GET' && r.path.includes(`/runs/${first.run_id}/`)));
		expect(others.map((r) => `${r.method} ${r.path}`)).toEqual([]);
	});
}
