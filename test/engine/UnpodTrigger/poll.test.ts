/** Poll sequences of the Unpod Trigger, polled by n8n-core against the local server, on the test's clock. */
import { TestClock } from '../../helpers/clock';
import { addNumberedTasks, emittedIds, Poller, spacePoller } from '../../helpers/poll';
import { startServer, UnpodServer } from '../../../dev/server/server';
import { SEED } from '../../../dev/server/seed';
import { capCdrPageSize } from '../../../dev/server/routes/callLogs';
import type { Space } from '../../../dev/server/types';

let server: UnpodServer;
let leads: Space;
// Poll spacing, Retry-After and the store's clock are the test's.
const clock = TestClock.install();
afterAll(() => clock.uninstall());

const credentials = () => ({
	baseUrl: server.url,
	apiToken: SEED.token,
	orgHandle: SEED.orgHandle,
	productId: SEED.productId,
});
const poller = (parameters: Record<string, unknown> = {}) => spacePoller(server, { space: leads.token, parameters });

const createTasks = (n: number, space = leads, pilot = SEED.agentHandle) =>
	addNumberedTasks(server, n, space.token, pilot);

beforeEach(async () => {
	server = await startServer();
	leads = server.store.spaces.get(SEED.spaceToken)!;
});

afterEach(async () => {
	await server.stop();
});

test('the first poll only remembers what exists; calls ending later are emitted once each', async () => {
	const old = createTasks(30);
	old.slice(0, 10).forEach((t) => server.store.finishTask(t, 'completed'));
	// The test's clock stands still unless moved: history ends a second before activation.
	await clock.advance(1000);
	const p = poller();
	expect(await clock.drive(p.poll())).toBeNull();
	expect(Object.keys(p.state.state.open)).toHaveLength(20);

	server.store.finishTask(old[15], 'completed');
	server.store.finishTask(old[16], 'failed');
	const emitted = await clock.drive(p.poll());
	expect(emittedIds(emitted)).toEqual([old[15].task_id, old[16].task_id]);
	expect(emitted![0].json).toMatchObject({
		status: 'completed',
		contact_name: old[15].input.name,
		call_status: 'completed',
		transcript: expect.stringContaining('Assistant:'),
	});
	expect(emitted![1].json).toMatchObject({ status: 'failed', call_status: expect.any(String) });
	expect(await clock.drive(p.poll())).toBeNull();
	expect(Object.keys(p.state.state.open)).toHaveLength(18);
});

test('tasks created and finished between two polls are emitted; those still pending are tracked', async () => {
	createTasks(5);
	const p = poller();
	await clock.drive(p.poll());
	const fresh = createTasks(250);
	fresh.slice(0, 240).forEach((t, i) => server.store.finishTask(t, i % 4 === 0 ? 'failed' : 'completed'));
	const emitted = emittedIds(await clock.drive(p.poll()));
	expect(emitted).toHaveLength(240);
	expect(new Set(emitted)).toEqual(new Set(fresh.slice(0, 240).map((t) => t.task_id)));
	// Oldest first, the order calls were listed in.
	expect(emitted[0]).toBe(fresh[0].task_id);
	fresh.slice(240).forEach((t) => server.store.finishTask(t, 'completed'));
	expect(emittedIds(await clock.drive(p.poll()))).toEqual(fresh.slice(240).map((t) => t.task_id));
});

test('only the selected endings are emitted', async () => {
	const tasks = createTasks(6);
	const p = poller({ events: ['completed'] });
	await clock.drive(p.poll());
	tasks.forEach((t, i) => server.store.finishTask(t, i < 3 ? 'failed' : 'completed'));
	expect(emittedIds(await clock.drive(p.poll()))).toEqual(tasks.slice(3).map((t) => t.task_id));
	expect(await clock.drive(p.poll())).toBeNull();
});

test('a manual run returns the newest ended call and leaves the stored state alone', async () => {
	const tasks = createTasks(5);
	const p = poller();
	await expect(p.poll('manual')).rejects.toThrow('No call has ended yet in this space');
	await clock.drive(p.poll());
	const before = p.state;
	server.store.finishTask(tasks[1], 'completed');
	server.store.finishTask(tasks[3], 'failed');
	const sample = await clock.drive(p.poll('manual'));
	expect(emittedIds(sample)).toEqual([tasks[3].task_id]);
	expect(p.state).toEqual(before);
	// The live poll still emits both, since the manual run changed nothing.
	expect(emittedIds(await clock.drive(p.poll()))).toEqual([tasks[1].task_id, tasks[3].task_id]);
});

test('a request failing mid-scan makes a quiet poll that keeps what it read; the next poll emits the rest, nothing twice', async () => {
	const tasks = createTasks(350);
	const p = poller();
	await clock.drive(p.poll());
	tasks.forEach((t) => server.store.finishTask(t, 'completed'));
	// Page 1 goes through, the next page read fails.
	server.faults.add({ kind: 'serverError', method: 'GET', path: '/tasks/', after: 1, times: 1 });
	const requestsBefore = server.requests.length;
	const first = emittedIds(await clock.drive(p.poll()));
	expect(server.requests.slice(requestsBefore).map((r) => r.status)).toEqual([200, 500]);
	// The 100 ends on page 1 are out already.
	expect(first).toHaveLength(100);
	const rest = emittedIds(await clock.drive(p.poll()));
	expect(rest).toHaveLength(250);
	expect(new Set([...first, ...rest]).size).toBe(350);
	expect(await clock.drive(p.poll())).toBeNull();
});

test('a failure that waiting will not heal fails the poll with the API message', async () => {
	createTasks(3);
	const p = poller();
	await clock.drive(p.poll());
	server.faults.add({ kind: 'status', status: 206, body: { message: 'Invalid Space Token' }, times: 1 });
	await expect(p.poll()).rejects.toMatchObject({
		name: 'NodeApiError',
		httpCode: '206',
		message: `Invalid Space Token: space "${leads.token}"`,
	});
});

test('a quiet poll of a large space reads one page', async () => {
	createTasks(1000).forEach((t) => server.store.finishTask(t, 'completed'));
	const p = poller();
	await clock.drive(p.poll());
	const fresh = createTasks(10);
	server.resetTraffic();
	expect(await clock.drive(p.poll())).toBeNull();
	expect(server.requests).toHaveLength(1);
	fresh.forEach((t) => server.store.finishTask(t, 'completed'));
	server.resetTraffic();
	expect(emittedIds(await clock.drive(p.poll()))).toHaveLength(10);
	expect(server.requests.map((r) => r.query)).toEqual([{ page: '1', page_size: '100' }]);
});

test('calls pending for over a week are no longer watched', async () => {
	const [task] = createTasks(1);
	createTasks(3);
	const p = poller();
	await clock.drive(p.poll());
	const state = p.workflow.staticData['node:Unpod Trigger'] as any;
	state.state.open[task.task_id][1] = Math.floor((Date.now() - 8 * 24 * 3600 * 1000) / 1000);
	await clock.drive(p.poll());
	expect(Object.keys(p.state.state.open)).not.toContain(task.task_id);
	expect(Object.keys(p.state.state.open)).toHaveLength(3);
	// It stays out on later polls, and its end is not emitted.
	await clock.drive(p.poll());
	expect(Object.keys(p.state.state.open)).not.toContain(task.task_id);
	server.store.finishTask(task, 'completed');
	expect(await clock.drive(p.poll())).toBeNull();
});

test('the activation option emits calls that ended in the last hours on the first poll', async () => {
	const tasks = createTasks(4);
	tasks.forEach((t) => server.store.finishTask(t, 'completed'));
	const p = poller({ options: { backfillHours: 1 } });
	expect(emittedIds(await clock.drive(p.poll()))).toEqual(tasks.map((t) => t.task_id));
	expect(await clock.drive(p.poll())).toBeNull();
});

test('watching an agent works the same way', async () => {
	const tasks = createTasks(3, server.store.spaces.get(SEED.secondSpaceToken)!, SEED.secondAgentHandle);
	const p = poller({ callsOf: 'agent', agent: { __rl: true, mode: 'handle', value: SEED.secondAgentHandle } });
	await clock.drive(p.poll());
	server.store.finishTask(tasks[2], 'failed');
	expect(emittedIds(await clock.drive(p.poll()))).toEqual([tasks[2].task_id]);
	expect(server.requests.every((r) => r.path === `/api/v2/platform/agents/${SEED.secondAgentHandle}/tasks/`)).toBe(
		true,
	);
});

test('the real lifecycle: in_progress, a failed attempt back to pending and scheduled calls are open; each end is emitted once', async () => {
	const [a, b, c] = createTasks(3);
	const [scheduled] = server.calls.addTasks([{ name: 'Later', contact_number: '+14150000001' }], {
		space: leads.token,
		scheduleType: 'auto',
	});
	const p = poller({ events: ['completed', 'failed'] });
	expect(await clock.drive(p.poll())).toBeNull();

	server.store.startTask(a);
	server.store.startTask(b);
	expect(await clock.drive(p.poll())).toBeNull();
	// An attempt that failed and will be retried is not an end.
	server.store.failAttempt(a, 'busy');
	expect(a.status).toBe('pending');
	expect(await clock.drive(p.poll())).toBeNull();

	server.store.startTask(a);
	server.store.finishTask(a, 'completed');
	server.store.finishTask(b, 'failed');
	expect(emittedIds(await clock.drive(p.poll()))).toEqual([a.task_id, b.task_id]);
	expect(await clock.drive(p.poll())).toBeNull();

	// First seen in_progress or scheduled, then ended.
	server.store.startTask(c);
	server.store.startTask(scheduled);
	expect(await clock.drive(p.poll())).toBeNull();
	server.store.finishTask(c, 'completed');
	server.store.finishTask(scheduled, 'failed');
	expect(emittedIds(await clock.drive(p.poll()))).toEqual([c.task_id, scheduled.task_id]);
	expect(await clock.drive(p.poll())).toBeNull();
});

test('a 429 makes a quiet poll (this n8n has no failure cause to declare) and no request is sent until Retry-After', async () => {
	const tasks = createTasks(3);
	const p = poller();
	await clock.drive(p.poll());
	server.store.finishTask(tasks[0], 'completed');
	server.faults.add({ kind: 'rateLimit', retryAfter: 1, times: 1 });
	expect(await clock.drive(p.poll())).toBeNull();
	const after429 = server.requests.length;
	expect(await clock.drive(p.poll())).toBeNull();
	expect(server.requests.length).toBe(after429);
	await clock.advance(1100);
	expect(emittedIds(await clock.drive(p.poll()))).toEqual([tasks[0].task_id]);
});

describe('Watch: Call Log', () => {
	const callLogPoller = (direction = 'all', simplify = true, options: Record<string, unknown> = {}) =>
		new Poller({ credentials: credentials(), parameters: { callsOf: 'callLog', direction, simplify, options } });
	const callLogIds = (items: Array<{ json: Record<string, unknown> }> | null) =>
		(items ?? []).map((i) => Number(i.json.call_log_id ?? i.json.id));

	test('the first poll learns the log; each call logged later is emitted once, inbound and outbound, oldest first', async () => {
		const p = callLogPoller();
		expect(await clock.drive(p.poll())).toBeNull();
		const inbound = server.calls.inboundCall({ from: '+442079460555' });
		const [task] = createTasks(1);
		server.store.finishTask(task, 'completed');
		const emitted = await clock.drive(p.poll());
		expect(emitted!.map((i) => [i.json.direction, i.json.destination_number])).toEqual([
			['inbound', '+442079460555'],
			['outbound', task.input.contact_number],
		]);
		expect(emitted![0].json).toMatchObject({
			call_log_id: inbound.id,
			status: 'completed',
			bridge: 'Main Line',
			failure_source: null,
		});
		expect(await clock.drive(p.poll())).toBeNull();
		// One request a poll at cdr/, and none wasted, while fewer than 100 calls come in between.
		const before = server.requests.length;
		server.calls.inboundCall();
		expect(await clock.drive(p.poll())).toHaveLength(1);
		expect(server.requests.slice(before).map((r) => [r.path, r.query])).toEqual([
			['/api/v2/platform/cdr/', { page: '1', page_size: '100' }],
		]);
		expect(server.requestsTo('GET', '/call-logs/')).toEqual([]);
		expect(p.state.state).toMatchObject({ v: 2, scope: 'callLog:all', path: '/cdr/' });
	});

	test('a cursor over several polls, calls logged in the same second and between polls: each once, none lost', async () => {
		const p = callLogPoller('all', true, { maxRequests: 2 });
		server.calls.inboundCall();
		await clock.drive(p.poll());
		const logged: number[] = [];
		const received: number[] = [];
		// Calls a poll: some in one second (Unpod writes whole seconds), some a second apart,
		// a burst past what two requests read newest first.
		for (const [calls, secondApart] of [
			[3, false],
			[0, false],
			[5, true],
			[1, false],
			[260, false],
			[2, true],
			[0, false],
			[4, false],
		] as const) {
			for (let i = 0; i < calls; i++) {
				if (secondApart) await clock.advance(1000);
				logged.push(server.calls.inboundCall({ from: `+44207946${String(logged.length).padStart(4, '0')}` }).id);
			}
			received.push(...callLogIds(await clock.drive(p.poll())));
		}
		// The burst took the polls the budget asks: the rest of them bring what remained.
		for (let poll = 0; poll < 3; poll++) received.push(...callLogIds(await clock.drive(p.poll())));
		expect(received).toEqual(logged);
		const cdr = server.requestsTo('GET', '/cdr/');
		expect(cdr.every((r) => r.status === 200 && r.query.page_size === '100')).toBe(true);
	});

	test('Direction: Inbound asks Unpod for inbound calls only; 250 in one go arrive over the polls the budget allows', async () => {
		const p = new Poller({
			credentials: credentials(),
			parameters: { callsOf: 'callLog', direction: 'inbound', simplify: false, options: { maxRequests: 2 } },
		});
		await clock.drive(p.poll());
		const calls = Array.from({ length: 250 }, (_, i) =>
			server.calls.inboundCall({ from: `+4420794${String(i).padStart(5, '0')}` }),
		);
		const [task] = createTasks(1);
		server.store.finishTask(task, 'completed');
		const received: number[] = [];
		for (let poll = 0; poll < 3; poll++) received.push(...callLogIds(await clock.drive(p.poll())));
		expect(received).toEqual(calls.map((c) => c.id));
		const cdr = server.requestsTo('GET', '/cdr/');
		expect(cdr.length).toBeGreaterThan(3);
		expect(cdr.every((r) => r.query.call_type === 'inbound')).toBe(true);
	});

	test('a cdr/ serving pages of 20 whatever page_size asks: every call once, in order, read by pages of 20', async () => {
		capCdrPageSize(server.store, 20);
		const p = callLogPoller('all', true, { maxRequests: 3 });
		server.calls.inboundCall();
		await clock.drive(p.poll());
		const logged: number[] = [];
		const received: number[] = [];
		// 50 read newest first in three pages of 20; 130 from the oldest page of 20 up, over polls.
		for (const calls of [50, 130, 0, 0, 0, 0, 0, 0]) {
			for (let i = 0; i < calls; i++)
				logged.push(server.calls.inboundCall({ from: `+44207946${String(logged.length).padStart(4, '0')}` }).id);
			received.push(...callLogIds(await clock.drive(p.poll())));
		}
		expect(received).toEqual(logged);
		const cdr = server.requestsTo('GET', '/cdr/');
		expect(cdr.every((r) => r.status === 200 && r.query.page_size === '100')).toBe(true);
		expect(cdr.map((r) => r.query.page)).toContain('7');
	});

	test('an Unpod without cdr/ (shape source): one 404 there at the first poll, then call-logs/ only, the path kept between polls', async () => {
		server.behaviour.shapes = 'source';
		const p = callLogPoller();
		expect(await clock.drive(p.poll())).toBeNull();
		const inbound = server.calls.inboundCall({ from: '+442079460556' });
		expect(callLogIds(await clock.drive(p.poll()))).toEqual([inbound.id]);
		expect(await clock.drive(p.poll())).toBeNull();
		expect(server.requestsTo('GET', '/cdr/').map((r) => r.status)).toEqual([404]);
		expect(server.requestsTo('GET', '/call-logs/').map((r) => r.status)).toEqual([200, 200, 200]);
		expect(p.state.state).toMatchObject({ path: '/call-logs/' });
	});

	test('a manual run returns the newest call logged and touches no state', async () => {
		const p = callLogPoller('outbound');
		const sample = await clock.drive(p.poll('manual'));
		expect(sample!.map((i) => i.json.direction)).toEqual(['outbound']);
		expect(p.state).toEqual({});
	});
});
