/**
 * Call outcomes to the CRM step, push against poll: the same calls, watched at once by the
 * Unpod Call Events Trigger (Unpod's agent webhook) and by the Unpod Trigger on n8n's own
 * one-a-minute polls, in a running n8n against the local server. Latency is from the call's
 * end (its task's `modified`) to the moment its item reached the CRM step (the sink).
 */
import type { N8n } from '../../dev/harness/n8n';
import { graph, N8nNode, reportNode } from '../../dev/harness/workflow-builders';
import { N8nServer } from '../../dev/harness/n8n-server';
import { CREDENTIAL, startProcessHarness, WEBHOOK_SECRET } from '../helpers/setup';
import { SEED } from '../../dev/server/seed';
import { percentile, table } from '../../dev/harness/report';

const HOOK = 'unpod-bench-call-events';

const report = (via: string, sinkUrl: string): N8nNode =>
	reportNode('CRM step', sinkUrl, `={{ JSON.stringify({ via: "${via}", task_id: $json.task_id }) }}`);

export async function benchCallEvents(calls = 100, spreadMs = 150_000): Promise<void> {
	console.log(`\n## Call outcomes to the CRM step: push (webhook) and poll (one a minute), ${calls} calls\n`);
	const h = await startProcessHarness();
	const sink = `${h.server.url}/__sim/sink`;
	await h.n8n.importWorkflows([
		graph(
			'benchPush',
			[
				{
					name: 'Call events',
					type: 'n8n-nodes-unpod.unpodCallEventsTrigger',
					credentials: CREDENTIAL,
					webhookId: HOOK,
					parameters: { events: ['completed', 'failed'] },
				},
				report('push', sink),
			],
			[['Call events', 'CRM step']],
		),
		graph(
			'benchPoll',
			[
				{
					name: 'Unpod Trigger',
					type: 'n8n-nodes-unpod.unpodTrigger',
					credentials: CREDENTIAL,
					parameters: {
						pollTimes: { item: [{ mode: 'everyMinute' }] },
						space: { __rl: true, mode: 'token', value: SEED.spaceToken },
						events: ['completed', 'failed'],
					},
				},
				report('poll', sink),
			],
			[['Unpod Trigger', 'CRM step']],
		),
	]);
	let n8n: N8nServer | undefined;
	try {
		n8n = await N8nServer.start(h.n8n);
		const polls = () => h.server.requestsTo('GET', `/spaces/${SEED.spaceToken}/tasks/`).length;
		await n8n.setActive('benchPush', true);
		await n8n.setActive('benchPoll', true, polls);
		h.server.webhooks.configure(SEED.agentHandle, {
			enable_webhook: true,
			webhook_url: `${n8n.url}/webhook/${HOOK}/unpod`,
			headers: [{ header_name: WEBHOOK_SECRET.header, header_value: WEBHOOK_SECRET.value }],
		});
		const tasks = h.server.calls.addTasks(
			Array.from({ length: calls }, (_, i) => ({
				name: `B${i}`,
				contact_number: `+1415888${String(i).padStart(4, '0')}`,
			})),
		);
		const requestsBefore = h.server.requests.length;
		const started = Date.now();
		// Calls end one by one, evenly over the spread: each poll finds a minute's worth.
		for (const [i, task] of tasks.entries()) {
			const due = started + (i * spreadMs) / calls;
			while (Date.now() < due) await new Promise((r) => setTimeout(r, 20));
			h.server.store.finishTask(task, i % 5 === 0 ? 'failed' : 'completed');
		}
		const deadline = Date.now() + 150_000;
		const arrived = (via: string) => (h.server.sink as Array<{ via: string }>).filter((r) => r.via === via).length;
		while ((arrived('push') < calls || arrived('poll') < calls) && Date.now() < deadline) {
			await new Promise((r) => setTimeout(r, 250));
		}
		await h.server.webhooks.settled();
		const platformRequests = h.server.requests.slice(requestsBefore);
		const ended = new Map(tasks.map((t) => [t.task_id, t.modifiedUs / 1000]));
		const rows = ['push', 'poll'].map((via) => {
			const latencies = (h.server.sink as Array<{ via: string; task_id: string }>)
				.map((r, i) => ({ ...r, at: h.server.sinkAt[i] }))
				.filter((r) => r.via === via && ended.has(r.task_id))
				.map((r) => (r.at - ended.get(r.task_id)!) / 1000);
			const requests = via === 'poll' ? platformRequests.length : 0;
			return {
				trigger: via === 'push' ? 'Unpod Call Events Trigger (webhook)' : 'Unpod Trigger (one poll a minute)',
				'outcomes at the CRM step': `${latencies.length} of ${calls}`,
				'p50 (s)': latencies.length ? percentile(latencies, 50).toFixed(2) : '-',
				'p95 (s)': latencies.length ? percentile(latencies, 95).toFixed(2) : '-',
				'max (s)': latencies.length ? Math.max(...latencies).toFixed(2) : '-',
				'requests to Unpod per ended call': (requests / calls).toFixed(2),
			};
		});
		table(rows);
		console.log(
			`\nThe poll sent ${platformRequests.length} requests in ${((Date.now() - started) / 60_000).toFixed(1)} minutes; ` +
				`the webhook trigger sent none (every platform request recorded was the poll's: ` +
				`${platformRequests.every((r) => r.path.startsWith(`/api/v2/platform/spaces/${SEED.spaceToken}/tasks/`))}).`,
		);
	} finally {
		await n8n?.stop();
		await h.close();
	}
}
