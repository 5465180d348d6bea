/**
 * Call and Wait for Approval in a running n8n: 100 approvals wait at once (what they hold and
 * spend while the calls are open), then their calls end and the relays wake them: by push (the
 * Call Events Trigger) and, with every push lost, by the Unpod Trigger's one-a-minute poll.
 * Latency is from a call's end (its task's `modified`) to the resumed step's item at the sink.
 */
import type { N8n } from '../../dev/harness/n8n';
import { graph } from '../../dev/harness/workflow-builders';
import { N8nServer } from '../../dev/harness/n8n-server';
import { askByPhoneNode, postedWebhook, spaceRef } from '../helpers/nodes';
import { CREDENTIAL, pushEndingsTo, startProcessHarness, type Harness } from '../helpers/setup';
import { SEED } from '../../dev/server/seed';
import type { Task } from '../../dev/server/types';
import { percentile, table } from '../../dev/harness/report';

const HOOK = 'unpod-bench-approvals';
const ENDINGS = ['completed', 'failed', 'partially_completed'];

function workflows(sink: string) {
	return [
		graph(
			'benchApproval',
			[
				postedWebhook('bench-approval'),
				askByPhoneNode({
					message: 'The assistant wants to refund 120 EUR. Do you approve?',
					options: { limitWaitMinutes: 120 },
				}),
				{
					name: 'Resumed',
					type: 'n8n-nodes-base.httpRequest',
					typeVersion: 4.2,
					parameters: {
						method: 'POST',
						url: sink,
						sendBody: true,
						specifyBody: 'json',
						jsonBody: '={{ JSON.stringify({ task_id: $json.task_id, approved: $json.approved }) }}',
						options: {},
					},
				},
			],
			[
				['Request', 'Ask by phone'],
				['Ask by phone', 'Resumed'],
			],
		),
		graph(
			'benchRelay',
			[
				{
					name: 'Call events',
					type: 'n8n-nodes-unpod.unpodCallEventsTrigger',
					credentials: CREDENTIAL,
					webhookId: HOOK,
					parameters: { events: ENDINGS },
				},
				{ name: 'Done', type: 'n8n-nodes-base.noOp', typeVersion: 1 },
			],
			[['Call events', 'Done']],
		),
		graph(
			'benchPollRelay',
			[
				{
					name: 'Unpod Trigger',
					type: 'n8n-nodes-unpod.unpodTrigger',
					credentials: CREDENTIAL,
					parameters: {
						pollTimes: { item: [{ mode: 'everyMinute' }] },
						space: spaceRef(SEED.spaceToken),
						events: ENDINGS,
					},
				},
				{ name: 'Done', type: 'n8n-nodes-base.noOp', typeVersion: 1 },
			],
			[['Unpod Trigger', 'Done']],
		),
	];
}

/** Ends `tasks` one by one over `spreadMs`, then waits for each resumed item; seconds from each end. */
async function endAndMeasure(h: Harness<N8n>, tasks: Task[], spreadMs: number, timeoutMs: number): Promise<number[]> {
	const started = Date.now();
	for (const [i, task] of tasks.entries()) {
		const due = started + (i * spreadMs) / tasks.length;
		while (Date.now() < due) await new Promise((r) => setTimeout(r, 20));
		task.answer = i % 3 === 0 ? 'declined' : 'approved';
		h.server.store.finishTask(task, 'completed');
	}
	const ids = new Set(tasks.map((t) => t.task_id));
	const arrived = () => (h.server.sink as Array<{ task_id: string }>).filter((r) => ids.has(r.task_id)).length;
	const deadline = Date.now() + timeoutMs;
	while (arrived() < tasks.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
	const ended = new Map(tasks.map((t) => [t.task_id, t.modifiedUs / 1000]));
	return (h.server.sink as Array<{ task_id: string }>)
		.map((r, i) => ({ ...r, at: h.server.sinkAt[i] }))
		.filter((r) => ids.has(r.task_id))
		.map((r) => (r.at - ended.get(r.task_id)!) / 1000);
}

export async function benchApprovals(count = 100, waitMs = 120_000): Promise<void> {
	console.log(`\n## Call and Wait for Approval: ${count} approvals waiting, then woken by push and by poll\n`);
	const h = await startProcessHarness();
	h.n8n.env.WEBHOOK_URL = `http://127.0.0.1:${h.n8n.env.N8N_PORT}/`;
	await h.n8n.importWorkflows(workflows(`${h.server.url}/__sim/sink`));
	let n8n: N8nServer | undefined;
	try {
		n8n = await N8nServer.start(h.n8n);
		await n8n.setActive('benchApproval', true);
		await n8n.setActive('benchRelay', true);
		await pushEndingsTo(h.server, n8n.url, HOOK);
		const phones = Array.from({ length: count }, (_, i) => `+1415999${String(i).padStart(4, '0')}`);
		h.server.calls.callScripts = phones.map((number) => ({ number, end: 'never' as const, afterMs: 400 }));
		for (const phone of phones) await n8n.postWebhook('bench-approval', { name: 'Approver', phone });
		while ((await n8n.executionCount('benchApproval', ['waiting'])) < count)
			await new Promise((r) => setTimeout(r, 250));
		const creates = h.server.requestsTo('POST', `/spaces/${SEED.spaceToken}/tasks/`).length;
		const before = h.server.requests.length;
		await new Promise((r) => setTimeout(r, waitMs));
		const whileWaiting = h.server.requests.length - before;
		const running = await n8n.executionCount('benchApproval', ['running', 'new']);
		const tasks = phones.map((p) => h.server.store.tasks.find((t) => t.input.contact_number === p)!);

		const pushed = await endAndMeasure(h, tasks.slice(0, count - 20), 20_000, 60_000);
		// The last 20 with every push lost: the poll's ring wakes them.
		const polls = () => h.server.requestsTo('GET', `/spaces/${SEED.spaceToken}/tasks/`).length;
		await n8n.setActive('benchPollRelay', true, polls);
		h.server.webhooks.faults = { dropRate: 1, repeatRate: 0 };
		const polled = await endAndMeasure(h, tasks.slice(count - 20), 5_000, 150_000);
		const row = (how: string, latencies: number[], of: number) => ({
			'woken by': how,
			resumed: `${latencies.length} of ${of}`,
			'p50 (s)': latencies.length ? percentile(latencies, 50).toFixed(2) : '-',
			'p95 (s)': latencies.length ? percentile(latencies, 95).toFixed(2) : '-',
			'max (s)': latencies.length ? Math.max(...latencies).toFixed(2) : '-',
		});
		table([
			row('push (Call Events Trigger)', pushed, count - 20),
			row('poll (Unpod Trigger, one a minute)', polled, 20),
		]);
		console.log(
			`\n${count} approvals placed in ${creates} create request(s), one per approval; while all ${count} waited ` +
				`${waitMs / 1000} s: ${whileWaiting} requests to Unpod, ${running} executions running (n8n holds none for a waiting execution).`,
		);
	} finally {
		await n8n?.stop();
		await h.close();
	}
}
