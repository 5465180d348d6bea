/**
 * The local Unpod server's tasks, runs, lists and bridges answer as Unpod's February 2026 source
 * does (`SOURCE_BACKEND`): spoken to over HTTP, no n8n.
 */
import axios from 'axios';
import { SEED } from '../../dev/server/seed';
import { SOURCE_BACKEND } from '../../dev/server/routes/context';
import { startServer, UnpodServer } from '../../dev/server/server';
import { createTasks, platformApi } from './platform-client';
import { platformTime } from '../../nodes/shared/time';

let server: UnpodServer;
const api = () => platformApi(server);
const create = (body: Record<string, unknown>, path?: string) => createTasks(server, body, path);

beforeEach(async () => {
	server = await startServer({ behaviour: SOURCE_BACKEND });
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

test('bridges of the source shape: DRAFT on create, region list, Python-style 400s, 204 delete, number_id on connect', async () => {
	server.behaviour.shapes = 'source';
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

test('bridges as OpenAPI 2.0.0 has them: name and slug required, a taken slug refused, no status listed', async () => {
	server.behaviour.shapes = 'spec';
	const path = '/telephony/bridges/';
	const missing = await api().post(path, { name: ' ' });
	expect([missing.status, missing.data]).toEqual([
		400,
		{
			status_code: 400,
			message: 'Bridge creation failed.',
			errors: { name: ['This field may not be blank.'], slug: ['This field is required.'] },
		},
	]);
	const invalid = await api().post(path, { name: 'X', slug: 'sales line' });
	expect(invalid.data.errors).toEqual({
		slug: ['Enter a valid "slug" consisting of letters, numbers, underscores or hyphens.'],
	});
	const long = await api().post(path, { name: 'X', slug: 'a'.repeat(51) });
	expect(long.data.errors).toEqual({ slug: ['Ensure this field has no more than 50 characters.'] });
	const taken = await api().post(path, { name: 'X', slug: SEED.bridgeSlug });
	expect([taken.status, taken.data.errors]).toEqual([400, { slug: ['voice bridge with this slug already exists.'] }]);
	const created = await api().post(path, { name: 'Sales Bridge', slug: 'sales-bridge-001', region: 'US' });
	expect([created.status, created.data]).toEqual([
		201,
		{
			status_code: 201,
			message: 'Bridge created successfully.',
			data: { id: expect.any(Number), name: 'Sales Bridge', slug: 'sales-bridge-001', created_at: expect.any(String) },
		},
	]);
	const listed = await api().get(path);
	expect(listed.data.data[0]).toEqual({
		id: created.data.data.id,
		name: 'Sales Bridge',
		slug: 'sales-bridge-001',
		provider: null,
		numbers: [],
	});
	const renamed = await api().patch(`${path}sales-bridge-001/`, { name: 'Sales Bridge — Updated', status: 'ACTIVE' });
	expect(renamed.data.data).toEqual({
		id: created.data.data.id,
		name: 'Sales Bridge — Updated',
		slug: 'sales-bridge-001',
		numbers: [],
	});
	const one = await api().get(`${path}${SEED.bridgeSlug}/`);
	expect(Object.keys(one.data.data)).toEqual(['id', 'name', 'slug', 'numbers']);
	expect(one.data.data.numbers[0]).toEqual({
		id: 1,
		number_id: SEED.numberId,
		number: SEED.agentNumber,
		state: 'ASSIGNED',
		active: true,
		channels_count: 2,
		status: 'active',
	});
	const connected = await api().post(`${path}${SEED.bridgeSlug}/connect-provider/`, {
		provider_config_id: SEED.activeCredentialId,
		phone_number: SEED.agentNumber,
	});
	expect([connected.status, connected.data.data]).toEqual([
		200,
		{ message: 'Provider connected successfully', bridge_slug: SEED.bridgeSlug, phone_number: SEED.agentNumber },
	]);
	expect((await api().get(path)).data.data.find((b: { slug: string }) => b.slug === SEED.bridgeSlug).provider).toBe(
		'twilio',
	);
	expect((await api().delete(`${path}sales-bridge-001/`)).status).toBe(204);
	expect((await api().get(`${path}sales-bridge-001/`)).data).toEqual({ status_code: 404, message: 'Not found.' });
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

test('by default tasks are created as OpenAPI 2.0.0 has it: at tasks/create/ only, one status string', async () => {
	const spec = await startServer();
	try {
		expect((await createTasks(spec, {}, 'tasks/')).status).toBe(405);
		const created = await createTasks(spec, {}, 'tasks/create/');
		expect(created.status).toBe(200);
		expect(created.data.data).toMatchObject({
			run_id: expect.any(String),
			task_ids: [expect.any(String)],
			status: 'pending',
		});
	} finally {
		await spec.stop();
	}
});
