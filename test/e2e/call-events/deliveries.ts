/**
 * What the Call Events Trigger lets in and passes on: the secret, 50 endings at once, repeated
 * deliveries, live events, and an inbound call's events named by their room.
 */
import type { N8n } from '../../../dev/harness/n8n';
import type { N8nServer } from '../../../dev/harness/n8n-server';
import type { Harness } from '../../helpers/setup';
import { type CallEventsSuite, saveAgentWebhook, sinkOf, webhookUrl } from './suite';
import { spaceForm } from '../../../dev/server/answers';
import type { IDataObject } from 'n8n-workflow';
import { waitFor } from '../../helpers/wait-for';
import { onPinnedN8n } from '../../helpers/versions';
import { WEBHOOK_SECRET } from '../../helpers/setup';
import { SEED } from '../../../dev/server/seed';
import type { Task } from '../../../dev/server/types';
import { simplifyTask } from '../../../nodes/shared/outcome';
import { ENDS, LIVE, NO_SECRET, post } from './suite';

let suite: CallEventsSuite;
let h: Harness<N8n>;
let n8n: N8nServer | undefined;
const urlOf = (spec: { webhookId: string }) => webhookUrl(suite, spec);
const sink = () => sinkOf(suite);
const setAgentWebhook = (url: string) => saveAgentWebhook(suite, url);

export function callEventDeliveries(callEvents: CallEventsSuite): void {
	suite = callEvents;
	beforeAll(() => {
		({ h, n8n } = callEvents);
	});

	test('without a Webhook Secret in the credential the trigger refuses to activate, saying how to set one', async () => {
		expect(await n8n!.activationError(NO_SECRET.id)).toMatch(
			/no Webhook Secret.*Set it in the Unpod credential, then the same header in the agent's webhook form/,
		);
		expect((await post(urlOf(NO_SECRET), { task_id: 'T1', status: 'completed' })).status).toBe(404);
	});

	test('a missing or wrong secret gets 401 and a body that is not an Unpod event 400, as JSON, and start nothing', async () => {
		const url = urlOf(ENDS);
		const ended = { task_id: `T${'a'.repeat(32)}`, status: 'completed', input: { name: 'X' }, output: {} };
		const before = await n8n!.executionCount(ENDS.id);
		const good = { [WEBHOOK_SECRET.header]: WEBHOOK_SECRET.value };

		const missing = await post(url, ended);
		expect(missing.status).toBe(401);
		expect(JSON.parse(missing.data)).toEqual({ error: `Missing or wrong ${WEBHOOK_SECRET.header} header` });
		expect((await post(url, ended, { [WEBHOOK_SECRET.header]: `${WEBHOOK_SECRET.value}x` })).status).toBe(401);
		expect((await post(url, ended, { 'X-Other': WEBHOOK_SECRET.value })).status).toBe(401);

		const notUnpod = await post(url, { hello: 'world' }, good);
		expect(notUnpod.status).toBe(400);
		expect(JSON.parse(notUnpod.data).error).toMatch(/no task_id/);
		const text = await post(url, 'task_id=T1', { ...good, 'Content-Type': 'text/plain' });
		expect(text.status).toBe(400);
		expect(JSON.parse(text.data)).toEqual({ error: 'The body is not JSON' });
		// A body declared JSON that does not parse: n8n itself refuses it before the node runs.
		const broken = await post(url, '{"task_id": "T', good);
		expect(broken.status).toBe(400);
		// n8n's own JSON parser hands the node a string there: not an object, refused all the same.
		expect(JSON.parse(broken.data).error).toMatch(/^The body is not (JSON|a JSON object)$/);

		const open = await post(url, { ...ended, status: 'in_progress' }, good);
		expect(open.status).toBe(200);
		expect(JSON.parse(open.data)).toEqual({
			received: true,
			started: false,
			reason: 'Task status in_progress is not an ending',
		});
		expect(await n8n!.executionCount(ENDS.id)).toBe(before);
		expect(sink()).toEqual([]);
	});

	test('50 calls end at once: each reaches the workflow once, with the polling trigger simplify fields; live events not selected start nothing', async () => {
		await setAgentWebhook(urlOf(ENDS));
		const before = await n8n!.executionCount(ENDS.id);
		const tasks = h.server.calls.addTasks(
			Array.from({ length: 50 }, (_, i) => ({
				name: `Lead ${i}`,
				contact_number: `+1415555${String(i).padStart(4, '0')}`,
			})),
		);
		// Each start sends call_started, each end call_hang_up or call_missed, then the task itself.
		h.server.calls.startCalls({ count: 50, space: SEED.spaceToken });
		h.server.calls.finishCalls({ failRate: 0.2, space: SEED.spaceToken });
		await h.server.webhooks.settled();
		await waitFor('50 outcomes', () => sink().length >= 50);
		await n8n!.executionsFinished(ENDS.id);

		const deliveries = h.server.webhooks.deliveries;
		expect(deliveries.filter((d) => d.kind === 'task')).toHaveLength(50);
		expect(deliveries.filter((d) => d.kind === 'event')).toHaveLength(100);
		// Unpod's retry rule is satisfied at the first attempt: 200 with a JSON body.
		const unanswered = deliveries.filter((d) => d.state !== 'delivered' || d.attempts.join() !== '200');
		expect(unanswered.map((d) => [d.event, d.state, d.attempts])).toEqual([]);

		const received = sink();
		expect(new Set(received.map((r) => r.task_id)).size).toBe(50);
		for (const task of tasks) {
			const item = received.find((r) => r.task_id === task.task_id);
			expect(item).toEqual({
				event: `call_${task.status}`,
				...simplifyTask(spaceForm(task) as IDataObject),
			});
		}
		expect(received.filter((r) => r.event === 'call_failed').length).toBe(
			tasks.filter((t) => t.status === 'failed').length,
		);
		expect(await n8n!.executionCount(ENDS.id)).toBe(before + 50);
	});

	onPinnedN8n('a repeated delivery of an ending starts nothing, as many times as Unpod sends it', async () => {
		await setAgentWebhook(urlOf(ENDS));
		const before = await n8n!.executionCount(ENDS.id);
		const tasks = h.server.calls.addTasks(
			Array.from({ length: 10 }, (_, i) => ({
				name: `Again ${i}`,
				contact_number: `+1415666${String(i).padStart(4, '0')}`,
			})),
		);
		// Calls end one after another, each once the last one's record is stored (n8n stores it
		// just after the node answers); Unpod's other code paths then send each end again.
		for (const task of tasks) {
			h.server.store.finishTask(task, 'completed');
			await h.server.webhooks.settled();
			await waitFor('the record of the delivery', async () =>
				Object.keys((await n8n!.staticData(ENDS.id))['node:Call events']?.deliveries?.seen ?? {}).includes(
					`${task.task_id}:completed`,
				),
			);
		}
		for (const round of [1, 2]) {
			for (const task of tasks) h.server.webhooks.redeliver(task.task_id);
			await h.server.webhooks.settled();
			expect(h.server.webhooks.deliveries.filter((d) => d.repeat)).toHaveLength(10 * round);
		}
		const repeats = h.server.webhooks.deliveries.filter((d) => d.repeat);
		expect(repeats.every((d) => d.state === 'delivered' && d.attempts.join() === '200')).toBe(true);
		await waitFor('10 outcomes', () => sink().length >= 10);
		await n8n!.executionsFinished(ENDS.id);
		expect(await n8n!.executionCount(ENDS.id)).toBe(before + 10);
		expect(
			sink()
				.map((r) => r.task_id)
				.sort(),
		).toEqual(tasks.map((t) => t.task_id).sort());
	});

	onPinnedN8n('live events arrive as their own kind, flat; a new attempt of the same call is a new event', async () => {
		await setAgentWebhook(urlOf(LIVE));
		const before = await n8n!.executionCount(LIVE.id);
		const [answered, missed] = h.server.calls.addTasks([
			{ name: 'Ann', contact_number: '+14155550101' },
			{ name: 'Bob', contact_number: '+14155550102' },
		]);
		h.server.calls.startCalls({ count: 2, space: SEED.spaceToken });
		await h.server.webhooks.settled();
		h.server.calls.failAttempts({ count: 2, reason: 'no-answer', space: SEED.spaceToken }); // both attempts missed; Unpod retries them
		await h.server.webhooks.settled();
		h.server.calls.startCalls({ count: 2, space: SEED.spaceToken });
		await h.server.webhooks.settled();
		h.server.store.finishTask(answered, 'completed');
		h.server.store.finishTask(missed, 'failed');
		await h.server.webhooks.settled();
		await waitFor('8 live events', () => sink().length >= 8);
		await n8n!.executionsFinished(LIVE.id);

		const received = sink();
		const kinds = (task: string) => received.filter((r) => r.task_id === task).map((r) => r.event);
		expect(kinds(answered.task_id).sort()).toEqual(['call_hang_up', 'call_missed', 'call_started', 'call_started']);
		expect(kinds(missed.task_id).sort()).toEqual(['call_missed', 'call_missed', 'call_started', 'call_started']);
		const hangUp = received.find((r) => r.event === 'call_hang_up')!;
		expect(hangUp).toMatchObject({
			task_id: answered.task_id,
			call_id: answered.thread_id,
			contact_name: 'Ann',
			contact_number: '+14155550101',
			call_type: 'outbound',
			end_time: expect.stringMatching(/Z$/),
			transcript: expect.stringMatching(/^Assistant: /),
		});
		// The endings (delivery A) are not selected in this workflow: answered, nothing started.
		expect(h.server.webhooks.deliveries.filter((d) => d.kind === 'task').every((d) => d.state === 'delivered')).toBe(
			true,
		);
		expect(await n8n!.executionCount(LIVE.id)).toBe(before + 8);
	});

	onPinnedN8n(
		"an inbound call's live events, which carry no task_id, reach the workflow named by their room, once each",
		async () => {
			await setAgentWebhook(urlOf(LIVE));
			const before = await n8n!.executionCount(LIVE.id);
			const log = h.server.calls.inboundCall({ agent: SEED.agentHandle, from: '+442079460321' });
			await h.server.webhooks.settled();
			await waitFor('2 inbound events', () => sink().length >= 2);
			await n8n!.executionsFinished(LIVE.id);
			// The end is sent once the start was answered; their executions may still end in either order.
			const received = sink().sort((a, b) => String(a.event).localeCompare(String(b.event)));
			expect(received.map((r) => [r.event, r.call_type, r.contact_number, r.task_id])).toEqual([
				['call_hang_up', 'inbound', '+442079460321', null],
				['call_started', 'inbound', '+442079460321', null],
			]);
			expect(h.server.webhooks.deliveries.map((d) => [d.event, d.attempts])).toEqual([
				['call_started', [200]],
				['call_hang_up', [200]],
			]);
			expect(received[0]).toMatchObject({ room: `room-inbound-${log.id}`, end_time: expect.stringMatching(/Z$/) });
			// Unpod sending the same event again starts nothing.
			const again = await post(urlOf(LIVE), h.server.webhooks.deliveries[1].body, {
				[WEBHOOK_SECRET.header]: WEBHOOK_SECRET.value,
			});
			expect(again.status).toBe(200);
			expect(await n8n!.executionCount(LIVE.id)).toBe(before + 2);
		},
	);
}
