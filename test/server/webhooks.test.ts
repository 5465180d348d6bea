/** The local Unpod server's agent webhooks (dev/server/webhooks.ts), pushed as Unpod's backend pushes them: spoken to over HTTP, no n8n. */
import axios from 'axios';
import { SEED } from '../../dev/server/seed';
import { startServer, UnpodServer } from '../../dev/server/server';
import { platformApi } from './platform-client';

let server: UnpodServer;
const api = () => platformApi(server);

beforeEach(async () => {
	server = await startServer();
});
afterEach(async () => {
	await server.stop();
});

describe("agent webhooks, as Unpod's backend sends them", () => {
	/** A receiver on loopback that answers each task end with the next scripted reply (the last repeats). */
	async function receiver(replies: Array<{ status: number; body: string }>) {
		const received: Array<{ headers: Record<string, unknown>; body: any }> = [];
		const http = await import('http');
		const srv = http.createServer((req, res) => {
			let raw = '';
			req.on('data', (c) => (raw += c));
			req.on('end', () => {
				const body = JSON.parse(raw);
				received.push({ headers: req.headers, body });
				// The script is for task ends; live events are simply accepted.
				const ends = received.filter((r) => !r.body.event).length;
				const reply = body.event ? { status: 200, body: '{}' } : replies[Math.min(ends - 1, replies.length - 1)];
				res.writeHead(reply.status, { 'Content-Type': 'application/json' });
				res.end(reply.body);
			});
		});
		await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
		const url = `http://127.0.0.1:${(srv.address() as { port: number }).port}/hook`;
		return { url, received, close: () => new Promise((r) => srv.close(r)) };
	}

	const pilot = (method: 'get' | 'put', auth: string, data?: unknown) =>
		axios.request({
			method,
			url: `${server.url}/api/v1/core/pilots/${SEED.agentHandle}/`,
			data,
			headers: { Authorization: auth, 'Org-Handle': SEED.orgHandle },
			validateStatus: () => true,
		});

	const form = (url: string, headers: unknown = [{ header_name: 'X-Unpod-Secret', header_value: 's3cret' }]) => ({
		components: {
			'webhook-integration__enable_webhook': true,
			'webhook-integration__webhook_url': url,
			'webhook-integration__headers': headers,
		},
	});

	test("the pilot endpoint takes a Studio login (JWT), not the API token, and keeps the form's three values", async () => {
		expect((await pilot('put', `Token ${SEED.token}`, form('http://127.0.0.1:9/x'))).status).toBe(401);
		expect((await pilot('put', `JWT ${SEED.jwt}`, form('http://127.0.0.1:9/x'))).status).toBe(200);
		const read = await pilot('get', `JWT ${SEED.jwt}`);
		expect(read.data.data.components.Integration[0].form_values.values).toEqual(
			form('http://127.0.0.1:9/x').components,
		);
	});

	test('a task end is the whole task document with the custom headers; live events carry {event, status, data}', async () => {
		const hook = await receiver([{ status: 200, body: '{"ok":true}' }]);
		try {
			await pilot('put', `JWT ${SEED.jwt}`, form(hook.url));
			const [task] = server.calls.addTasks([{ name: 'Ann', contact_number: '+14155550100', document_id: 'crm-1' }]);
			server.calls.startCalls();
			server.store.finishTask(task, 'completed');
			await server.webhooks.settled();
			expect(hook.received.map((r) => r.body.event ?? 'task')).toEqual(['call_started', 'call_hang_up', 'task']);
			const ended = hook.received[2];
			expect(ended.headers['x-unpod-secret']).toBe('s3cret');
			expect(ended.headers['content-type']).toBe('application/json');
			expect(ended.headers).not.toHaveProperty('x-signature');
			expect(ended.body).not.toHaveProperty('event');
			expect(ended.body).toMatchObject({
				task_id: task.task_id,
				run_id: task.run_id,
				status: 'completed',
				input: { name: 'Ann', document_id: 'crm-1' },
				output: { call_status: 'completed', post_call_data: expect.any(Object) },
				// Python's str() of a datetime: a space, microseconds, no zone.
				created: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}$/),
			});
			expect(hook.received[1].body).toMatchObject({
				event: 'call_hang_up',
				status: 'completed',
				data: { task_id: task.task_id, call_id: task.thread_id, contact_name: 'Ann', call_type: 'outbound' },
			});
			expect(hook.received[0].body.data.end_time).toBe('None');
		} finally {
			await hook.close();
		}
	});

	test('up to 3 immediate attempts while the answer is not exactly 200; a 200 that is not JSON ends them', async () => {
		const cases: Array<[Array<{ status: number; body: string }>, number[], string]> = [
			[[{ status: 500, body: '{}' }], [500, 500, 500], 'failed'],
			[
				[
					{ status: 204, body: '' },
					{ status: 201, body: '{}' },
					{ status: 200, body: '{}' },
				],
				[204, 201, 200],
				'delivered',
			],
			[[{ status: 200, body: 'OK' }], [200], 'failed'],
		];
		for (const [replies, attempts, state] of cases) {
			const hook = await receiver(replies);
			try {
				server.webhooks.configure(SEED.agentHandle, { enable_webhook: true, webhook_url: hook.url, headers: {} });
				const [task] = server.calls.addTasks([{ name: 'Bob', contact_number: '+14155550101' }]);
				server.store.finishTask(task, 'failed');
				await server.webhooks.settled();
				const delivery = server.webhooks.deliveries.find((d) => d.kind === 'task' && d.task_id === task.task_id)!;
				expect({ attempts: delivery.attempts, state: delivery.state }).toEqual({ attempts, state });
			} finally {
				await hook.close();
			}
		}
		// Nobody listening: the exception ends the attempts at once.
		server.webhooks.configure(SEED.agentHandle, {
			enable_webhook: true,
			webhook_url: 'http://127.0.0.1:9/',
			headers: {},
		});
		const [task] = server.calls.addTasks([{ name: 'Cy', contact_number: '+14155550102' }]);
		server.store.finishTask(task, 'completed');
		await server.webhooks.settled();
		expect(server.webhooks.deliveries.filter((d) => d.task_id === task.task_id).map((d) => d.attempts)).toEqual([
			[0],
			[0],
		]);
	});

	test('faults drop a share of deliveries and repeat a share of task ends; a disabled form sends nothing', async () => {
		const hook = await receiver([{ status: 200, body: '{}' }]);
		try {
			server.webhooks.configure(SEED.agentHandle, { enable_webhook: true, webhook_url: hook.url, headers: {} });
			server.webhooks.faults = { dropRate: 0.3, repeatRate: 0.5 };
			const tasks = server.calls.addTasks(
				Array.from({ length: 200 }, (_, i) => ({ name: `P${i}`, contact_number: `+1415${i}000000` })),
			);
			tasks.forEach((t) => server.store.finishTask(t, 'completed'));
			await server.webhooks.settled();
			const ends = server.webhooks.deliveries.filter((d) => d.kind === 'task' && !d.repeat);
			const dropped = ends.filter((d) => d.state === 'dropped').length;
			const repeats = server.webhooks.deliveries.filter((d) => d.repeat).length;
			expect(dropped).toBeGreaterThan(30);
			expect(dropped).toBeLessThan(90);
			expect(repeats).toBeGreaterThan(40);
			expect(repeats).toBeLessThan(100);
			expect(hook.received.filter((r) => !r.body.event)).toHaveLength(200 - dropped + repeats);

			server.webhooks.configure(SEED.agentHandle, { enable_webhook: false, webhook_url: hook.url, headers: {} });
			const before = hook.received.length;
			server.store.finishTask(server.calls.addTasks([{ name: 'Off', contact_number: '+14155550109' }])[0], 'completed');
			await server.webhooks.settled();
			expect(hook.received).toHaveLength(before);
		} finally {
			await hook.close();
		}
	});
});
