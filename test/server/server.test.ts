/** The local Unpod server answers as the real backend does: spoken to over HTTP, no n8n. */
import axios from 'axios';
import { SEED } from '../../dev/server/seed';
import { startServer, UnpodServer } from '../../dev/server/server';
import { platformTime } from '../../nodes/shared/time';

let server: UnpodServer;
const api = () =>
	axios.create({
		baseURL: `${server.url}/api/v2/platform`,
		headers: { Authorization: `Token ${SEED.token}`, 'Org-Handle': SEED.orgHandle, 'Product-ID': SEED.productId },
		validateStatus: () => true,
	});
const create = (body: Record<string, unknown>, path = 'tasks/') =>
	api().post(`/spaces/${SEED.spaceToken}/${path}`, {
		pilot: SEED.agentHandle,
		context: 'Say hello',
		documents: [{ name: 'Ann', contact_number: '+14155550100' }],
		...body,
	});

beforeEach(async () => {
	server = await startServer();
});
afterEach(async () => {
	await server.stop();
});

test('create needs a non-blank context (206 with the serializer errors) and answers a status map', async () => {
	const blank = await create({ context: '  ' });
	expect(blank.status).toBe(206);
	expect(blank.data).toEqual({
		message: 'There is some Validation error',
		errors: { context: ['This field is required.'] },
	});

	const ok = await create({
		documents: [
			{ name: 'A', contact_number: '1' },
			{ name: 'B', contact_number: '2' },
		],
	});
	expect(ok.status).toBe(200);
	const { run_id, task_ids, status } = ok.data.data;
	expect(run_id).toMatch(/^R[0-9a-f]{32}$/);
	expect(status).toEqual({ [task_ids[0]]: 'pending', [task_ids[1]]: 'pending' });
	// Both paths create; the pilot is not looked up.
	expect((await create({ pilot: 'anyone' }, 'tasks/create/')).status).toBe(200);
	expect((await create({ schedule: { type: 'auto' } })).data.data.status).toEqual({
		[server.store.tasks[server.store.tasks.length - 1].task_id]: 'scheduled',
	});
	const past = await create({ schedule: { type: 'custom', calling_date: '2020-01-01', calling_time: '10:00' } });
	expect(past.status).toBe(400);
	expect(past.data.message).toBe('Scheduled time must be in the future.');
});

test('with a time scale, a call scheduled two days ahead is put through seconds later and tells its scheduled times', async () => {
	server.store.timeScale = 86_400;
	server.calls.callScripts = [{ number: '+14155550100', end: 'completed', afterMs: 4000 }];
	const at = new Date(Date.now() + 2 * 86_400_000);
	const [date, time] = at.toISOString().slice(0, 16).split('T');
	const created = await create({ schedule: { type: 'custom', calling_date: date, calling_time: time } });
	expect(created.status).toBe(200);
	const task = server.store.tasksById.get(created.data.data.task_ids[0])!;
	expect(task.status).toBe('scheduled');
	const scheduled = Date.parse(`${date}T${time}:00Z`);
	// Two days at 86,400 times: about two seconds of waiting, then the script's four-second call.
	const [start, end] = [task.plan![0].at, task.plan!.at(-1)!.at];
	const wait = (scheduled - Date.now()) / 86_400;
	expect(start - Date.now()).toBeGreaterThan(wait - 100);
	expect(start - Date.now()).toBeLessThan(wait + 1000 + 100);
	expect(end - start).toBe(3000);

	// Carried out at the plan's times: the call reports the day it was scheduled for.
	server.store.advancePlans(end);
	expect(task.status).toBe('completed');
	const ms = (text: unknown) => Date.parse(`${String(text).replace(' ', 'T')}Z`);
	expect(ms(task.output.end_time)).toBeGreaterThanOrEqual(scheduled);
	expect(ms(task.output.end_time)).toBeLessThan(scheduled + 60_000);
	expect(ms(task.output.start_time)).toBeGreaterThanOrEqual(scheduled);
	// A call that is due now waits for nothing and runs on the real clock.
	const now = await create({});
	const due = server.store.tasksById.get(now.data.data.task_ids[0])!;
	expect(due.clockAheadMs).toBeUndefined();
	expect(due.plan![0].at - Date.now()).toBeLessThanOrEqual(1000);
});

test('an unknown space token is a 206 on task and run endpoints', async () => {
	for (const [method, path] of [
		['get', '/spaces/nope/tasks/'],
		['post', '/spaces/nope/tasks/'],
		['get', '/spaces/nope/runs/'],
	] as const) {
		const res = await api().request({ method, url: path, data: {} });
		expect([path, res.status, res.data]).toEqual([path, 206, { message: 'Invalid Space Token' }]);
	}
	const viewer = await api().get(`/spaces/${SEED.spaceToken}/tasks/`, {
		headers: { Authorization: `Token ${SEED.viewerToken}` },
	});
	expect([viewer.status, viewer.data.message]).toEqual([206, "You Don't have Access to this Space"]);
});

test('the call lifecycle: pending -> in_progress -> a failed attempt back to pending -> completed; runs follow', async () => {
	const res = await create({
		documents: [
			{ name: 'A', contact_number: '1' },
			{ name: 'B', contact_number: '2' },
		],
	});
	const [a, b] = res.data.data.task_ids.map((id: string) => server.store.tasksById.get(id)!);
	const runs = async () => (await api().get(`/spaces/${SEED.spaceToken}/runs/`)).data.data[0];
	expect(await runs()).toMatchObject({ run_id: res.data.data.run_id, status: 'pending', run_mode: 'prod' });

	server.calls.startCalls({ space: SEED.spaceToken });
	expect([a.status, b.status]).toEqual(['in_progress', 'in_progress']);
	expect((await runs()).status).toBe('running');
	server.calls.failAttempts({ count: 1, reason: 'no-answer' });
	expect(a).toMatchObject({ status: 'pending', retry_attempt: 1, last_failure_reason: 'no-answer' });
	expect(a.output).toMatchObject({ retry_attempt: 1, last_failure_reason: 'no-answer', call_end_reason: 'no-answer' });
	server.calls.finishCalls({ outcome: 'completed' });
	expect([a.status, b.status]).toEqual(['completed', 'completed']);
	expect((await runs()).status).toBe('completed');

	const runTasks = await api().get(`/spaces/${SEED.spaceToken}/runs/${res.data.data.run_id}/tasks/`);
	expect(runTasks.data.count).toBe(2);
	expect(runTasks.data.data.map((t: any) => t.task_id).sort()).toEqual([a.task_id, b.task_id].sort());
	expect((await api().get(`/spaces/${SEED.spaceToken}/runs/Rnope/tasks/`)).status).toBe(206);

	// A call never starts before its task was created.
	for (const t of [a, b]) {
		expect(platformTime(t.output.start_time)!).toBeGreaterThanOrEqual(Math.floor(t.createdUs / 1000));
		expect(platformTime(t.output.end_time)!).toBeGreaterThanOrEqual(platformTime(t.output.start_time)!);
	}
});

test('auto-finish runs the whole lifecycle, through in_progress and retried attempts', async () => {
	server.calls.autoFinish = { minMs: 300, maxMs: 600, failRate: 0.3, retryRate: 0.5 };
	const seen = new Map<string, Set<string>>();
	const res = await create({
		documents: Array.from({ length: 40 }, (_, i) => ({ name: `P${i}`, contact_number: String(i) })),
	});
	const tasks = res.data.data.task_ids.map((id: string) => server.store.tasksById.get(id)!);
	// The store's own clock, stepped by 20 ms (what its ticker does in real time), 10 s at most.
	const start = Date.now();
	for (let now = start; now <= start + 10_000; now += 20) {
		if (!tasks.some((t: any) => !['completed', 'failed'].includes(t.status))) break;
		for (const t of tasks) (seen.get(t.task_id) ?? seen.set(t.task_id, new Set()).get(t.task_id)!).add(t.status);
		server.store.advancePlans(now);
	}
	expect(tasks.filter((t: any) => !['completed', 'failed'].includes(t.status))).toEqual([]);
	expect([...seen.values()].filter((s) => s.has('in_progress')).length).toBeGreaterThan(30);
	expect(tasks.filter((t: any) => t.retry_attempt > 0).length).toBeGreaterThan(5);
	for (const t of tasks.filter((x: any) => x.status === 'failed')) expect(t.retry_attempt).toBeGreaterThan(0);
});

test('the space list reads status as the call outcome and pages by 50; the agent list ignores filters and pages by 20', async () => {
	await create({ documents: Array.from({ length: 60 }, (_, i) => ({ name: `P${i}`, contact_number: String(i) })) });
	server.calls.finishCalls({ outcome: 'completed' });
	const outcomes = new Set(server.store.tasks.map((t) => (t.output as any).post_call_data.summary.status));
	const one = [...outcomes][0];
	const bySpace = await api().get(`/spaces/${SEED.spaceToken}/tasks/`, { params: { status: one } });
	expect(bySpace.data.count).toBe(
		server.store.tasks.filter((t) => (t.output as any).post_call_data.summary.status === one).length,
	);
	expect((await api().get(`/spaces/${SEED.spaceToken}/tasks/`, { params: { status: 'completed' } })).data.count).toBe(
		0,
	);
	expect((await api().get(`/spaces/${SEED.spaceToken}/tasks/`)).data.data).toHaveLength(50);
	const byAgent = await api().get(`/agents/${SEED.agentHandle}/tasks/`, {
		params: { status: 'nothing-matches', search: 'zzz' },
	});
	expect([byAgent.data.count, byAgent.data.data.length]).toEqual([60, 20]);
	expect(byAgent.data.data[0]).toHaveProperty('created');
	expect((await api().get('/telephony/bridges/')).data.data.length).toBeLessThanOrEqual(10);
});

test('bridges: DRAFT on create, region list, Python-style 400s, 204 delete, number_id on connect', async () => {
	const created = await api().post('/telephony/bridges/', { name: 'New' });
	expect(created.status).toBe(201);
	expect(created.data.data).toMatchObject({ status: 'DRAFT', region: 'IN', org_handle: SEED.orgHandle });
	const bad = await api().post('/telephony/bridges/', { region: 'MARS' });
	expect(bad.status).toBe(400);
	expect(bad.data).toEqual({
		status_code: 400,
		message:
			"{'name': [ErrorDetail(string='This field is required.', code='required')], 'region': [ErrorDetail(string='\"MARS\" is not a valid choice.', code='invalid')]}",
		data: {},
	});
	const orphan = await api().post('/telephony/bridges/', { name: 'X' }, { headers: { 'Org-Handle': 'nobody' } });
	expect([orphan.status, orphan.data.data]).toEqual([200, { detail: "No organization found for handle 'nobody'." }]);
	const del = await api().delete(`/telephony/bridges/${created.data.data.slug}/`);
	expect([del.status, del.data]).toEqual([204, '']);
	const missing = await api().get('/telephony/bridges/nope/');
	expect([missing.status, missing.data]).toEqual([
		404,
		{ message: 'No VoiceBridge matches the given query.', status_code: 404 },
	]);
	const url = `/telephony/bridges/${SEED.bridgeSlug}/connect-provider/`;
	expect((await api().post(url, { provider_credential_id: SEED.activeCredentialId })).data.message).toBe(
		'Number is required',
	);
	const connected = await api().post(url, {
		number_id: SEED.numberId,
		provider_credential_id: SEED.activeCredentialId,
	});
	expect(connected.status).toBe(201);
	expect(connected.data.data).toMatchObject({
		number_id: SEED.numberId,
		provider_details: { id: SEED.activeCredentialId },
	});
});

test('the control API refuses an unknown fault kind', async () => {
	const res = await axios.post(`${server.url}/__sim/faults`, { kind: 'explode' }, { validateStatus: () => true });
	expect(res.status).toBe(400);
	expect(res.data.message).toMatch(/^Unknown fault kind "explode"; known: status, rateLimit/);
	const random = await axios.post(
		`${server.url}/__sim/faults`,
		{ random: { rate: 0.5, kinds: ['html', 'nope'] } },
		{ validateStatus: () => true },
	);
	expect(random.status).toBe(400);
	expect((await axios.post(`${server.url}/__sim/faults`, { kind: 'html', times: 1 })).status).toBe(200);
});

test('spaces may refuse the Token scheme (the February source), bridges never do', async () => {
	server.behaviour.spacesAuth = 'jwt';
	expect((await api().get('/spaces/')).status).toBe(401);
	expect((await api().get('/organizations/')).status).toBe(401);
	expect((await api().get(`/spaces/${SEED.spaceToken}/tasks/`)).status).toBe(200);
	expect((await api().get('/telephony/bridges/')).status).toBe(200);
});

test('the newer lifecycle (5f97d21): a failed dispatch ends the task as failed, and only completed tasks are pushed', async () => {
	server.behaviour.lifecycle = 'newer';
	server.webhooks.configure(SEED.agentHandle, {
		enable_webhook: true,
		webhook_url: 'http://127.0.0.1:9/',
		headers: {},
	});
	try {
		const [failing, completing] = server.calls.addTasks([
			{ name: 'Fay', contact_number: '+14155550131' },
			{ name: 'Cal', contact_number: '+14155550132' },
		]);
		server.store.planScripted(failing, { number: '+14155550131', end: 'failedAfterRetry', afterMs: 1000 });
		server.store.planScripted(completing, { number: '+14155550132', end: 'completed', afterMs: 1000 });
		const start = Date.now();
		const statuses: string[] = [];
		for (const at of [0.3, 0.55, 0.75, 1.01]) {
			server.store.advancePlans(start + at * 1000);
			statuses.push(failing.status);
		}
		// Picked up, then failed for good at the failed attempt: no return to pending.
		expect(statuses).toEqual(['in_progress', 'failed', 'failed', 'failed']);
		expect(failing.retry_attempt).toBe(0);
		expect(completing.status).toBe('completed');
		await server.webhooks.settled();
		const pushed = (task: { task_id: string }) =>
			server.webhooks.deliveries.filter((d) => d.kind === 'task' && d.task_id === task.task_id).length;
		expect([pushed(failing), pushed(completing)]).toEqual([0, 1]);
	} finally {
		server.resetTraffic();
		server.webhooks.configure(SEED.agentHandle, { enable_webhook: false, webhook_url: '', headers: {} });
	}
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

describe('telephony numbers, provider configurations and call logs, as the source answers them', () => {
	test('numbers: the free ones of the organization and of none, without paging', async () => {
		const res = await api().get('/telephony/numbers/', { params: { page: 2, page_size: 1 } });
		expect(res.status).toBe(200);
		expect(res.data.data).toEqual([
			{ id: SEED.poolNumberId, number: '+14155550123', active: true },
			{ id: SEED.sharedPoolNumberId, number: '+14155550124', active: true },
		]);
		// The view forgets to return its 400: without Org-Handle it lists the numbers of no organization.
		const noOrg = await api().get('/telephony/numbers/', { headers: { 'Org-Handle': '' } });
		expect(noOrg.data.data.map((n: { id: number }) => n.id)).toEqual([SEED.sharedPoolNumberId]);
	});

	test('provider configurations: the organization named by Org-Handle, keys included; 400 without it', async () => {
		const res = await api().get('/telephony/provider-configurations/');
		expect(res.data.data.map((c: { id: number; active: boolean }) => [c.id, c.active])).toEqual([
			[SEED.activeCredentialId, true],
			[SEED.inactiveCredentialId, false],
		]);
		expect(res.data.data[0]).toMatchObject({
			name: 'Twilio Main',
			provider_details: { name: 'Twilio' },
			api_key: expect.any(String),
		});
		const none = await api().get('/telephony/provider-configurations/', { headers: { 'Org-Handle': '' } });
		expect(none.status).toBe(400);
	});

	test('call logs: both headers required, pages of 20 with next and previous, filters with their own meanings', async () => {
		const noProduct = await api().get('/call-logs/', { headers: { 'Product-ID': '' } });
		expect(noProduct.status).toBe(400);
		expect(noProduct.data.message).toBe('Product ID is required in Product-Id header');
		const all = await api().get('/call-logs/');
		expect(all.data).toMatchObject({ count: 6, next: null, previous: null });
		expect(all.data.data.map((l: { call_type: string }) => l.call_type)).toEqual([
			'outbound',
			'inbound',
			'inbound',
			'outbound',
			'inbound',
			'outbound',
		]);
		const page2 = await api().get('/call-logs/', { params: { page: 2, page_size: 2, call_type: 'INBOUND' } });
		expect(page2.data.count).toBe(3);
		expect(page2.data.next).toBeNull();
		expect(page2.data.previous).toMatch(/\/api\/v2\/platform\/call-logs\/\?page=1&page_size=2$/);
		// Dates only: a start filter late in the day still takes that whole day.
		const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
		const d = twoDaysAgo.toISOString();
		const dayFirst = `${d.slice(8, 10)}-${d.slice(5, 7)}-${d.slice(0, 4)} 23:59:59`;
		const since = await api().get('/call-logs/', { params: { start_time: dayFirst } });
		expect(since.data.count).toBe(2);
		const bad = await api().get('/call-logs/', { params: { start_time: '2026-11-20 10:00:00' } });
		expect(bad.status).toBe(400);
		expect(bad.data.error).toMatch(/does not match format '%d-%m-%Y %H:%M:%S'/);
		const id = all.data.data[0].id;
		const byId = await api().get('/call-logs/', { params: { call_id: String(id).slice(0, 3) } });
		expect(byId.data.count).toBe(6);
		const bridge = await api().get('/call-logs/', { params: { bridge: 'main' } });
		expect(bridge.data.count).toBe(6);
		expect(bridge.data.data[0].bridge).toEqual({ id: 1, name: 'Main Line' });
	});

	test('an ended task and an inbound call are logged; the inbound call sends its live events with no task_id', async () => {
		const received: any[] = [];
		const sink = await startServer({ seed: false });
		server.webhooks.configure(SEED.secondAgentHandle, {
			enable_webhook: true,
			webhook_url: `${sink.url}/__sim/sink`,
			headers: {},
		});
		const log = server.calls.inboundCall({ from: '+442079460777' });
		await server.webhooks.settled();
		received.push(...sink.sink);
		await sink.stop();
		expect(received.map((b) => [b.event, b.data.task_id, b.data.call_type, b.data.room])).toEqual([
			['call_started', '', 'inbound', `room-inbound-${log.id}`],
			['call_hang_up', '', 'inbound', `room-inbound-${log.id}`],
		]);
		const created = await create({ documents: [{ name: 'Zed', contact_number: '+14155550166' }] });
		server.store.finishTask(server.store.tasksById.get(created.data.data.task_ids[0])!, 'completed');
		const newest = await api().get('/call-logs/', { params: { page_size: 2 } });
		expect(newest.data.data.map((l: any) => [l.call_type, l.destination_number, l.agent.name])).toEqual([
			['outbound', '+14155550166', 'Sales Assistant'],
			['inbound', '+442079460777', 'Support Bot'],
		]);
	});
});
