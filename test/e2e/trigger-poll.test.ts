/** Poll sequences of the Unpod Trigger, polled by n8n-core against the local server. */
import { Poller } from '../helpers/poll';
import { startServer, UnpodServer } from '../../dev/server/server';
import { SEED } from '../../dev/server/seed';
import type { Space, Task } from '../../dev/server/store';

let server: UnpodServer;
let leads: Space;

const credentials = () => ({
	baseUrl: server.url,
	apiToken: SEED.token,
	orgHandle: SEED.orgHandle,
	productId: SEED.productId,
});
const poller = (parameters: Record<string, unknown> = {}) =>
	new Poller({
		credentials: credentials(),
		parameters: {
			watch: 'space',
			space: { __rl: true, mode: 'token', value: leads.token },
			events: ['completed', 'failed'],
			simplify: true,
			options: {},
			...parameters,
		},
	});

function createTasks(n: number, space = leads, pilot = SEED.agentHandle): Task[] {
	const contacts = Array.from({ length: n }, (_, i) => ({
		name: `Person ${server.store.tasks.length + i}`,
		contact_number: `+1415${String(server.store.tasks.length + i).padStart(7, '0')}`,
	}));
	return server.store.createTasks(space, pilot, contacts, 'test', server.store.users.get(SEED.token)!, null).tasks;
}

const ids = (items: Array<{ json: any }> | null) => (items ?? []).map((i) => i.json.task_id);

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
	const p = poller();
	expect(await p.poll()).toBeNull();
	expect(Object.keys(p.state.state.pending)).toHaveLength(20);

	server.store.finishTask(old[15], 'completed');
	server.store.finishTask(old[16], 'failed');
	const emitted = await p.poll();
	expect(ids(emitted)).toEqual([old[15].task_id, old[16].task_id]);
	expect(emitted![0].json).toMatchObject({
		status: 'completed',
		contact_name: old[15].input.name,
		call_status: 'completed',
		transcript: expect.stringContaining('Assistant:'),
	});
	expect(emitted![1].json).toMatchObject({ status: 'failed', call_status: expect.any(String) });
	expect(await p.poll()).toBeNull();
	expect(Object.keys(p.state.state.pending)).toHaveLength(18);
});

test('tasks created and finished between two polls are emitted; those still pending are tracked', async () => {
	createTasks(5);
	const p = poller();
	await p.poll();
	const fresh = createTasks(250);
	fresh.slice(0, 240).forEach((t, i) => server.store.finishTask(t, i % 4 === 0 ? 'failed' : 'completed'));
	const emitted = ids(await p.poll());
	expect(emitted).toHaveLength(240);
	expect(new Set(emitted)).toEqual(new Set(fresh.slice(0, 240).map((t) => t.task_id)));
	// Oldest first, the order calls were listed in.
	expect(emitted[0]).toBe(fresh[0].task_id);
	fresh.slice(240).forEach((t) => server.store.finishTask(t, 'completed'));
	expect(ids(await p.poll())).toEqual(fresh.slice(240).map((t) => t.task_id));
});

test('only the selected endings are emitted', async () => {
	const tasks = createTasks(6);
	const p = poller({ events: ['completed'] });
	await p.poll();
	tasks.forEach((t, i) => server.store.finishTask(t, i < 3 ? 'failed' : 'completed'));
	expect(ids(await p.poll())).toEqual(tasks.slice(3).map((t) => t.task_id));
	expect(await p.poll()).toBeNull();
});

test('a manual run returns the newest ended call and leaves the stored state alone', async () => {
	const tasks = createTasks(5);
	const p = poller();
	await expect(p.poll('manual')).rejects.toThrow('No call has ended yet in this space');
	await p.poll();
	const before = p.state;
	server.store.finishTask(tasks[1], 'completed');
	server.store.finishTask(tasks[3], 'failed');
	const sample = await p.poll('manual');
	expect(ids(sample)).toEqual([tasks[3].task_id]);
	expect(p.state).toEqual(before);
	// The live poll still emits both, since the manual run changed nothing.
	expect(ids(await p.poll())).toEqual([tasks[1].task_id, tasks[3].task_id]);
});

test('a request failing mid-pagination leaves the state as it was; the next poll emits everything once', async () => {
	const tasks = createTasks(350);
	const p = poller();
	await p.poll();
	const before = p.state;
	tasks.forEach((t) => server.store.finishTask(t, 'completed'));
	// Page 1 goes through, page 2 fails.
	server.faults.add({ kind: 'serverError', method: 'GET', path: '/tasks/', after: 1, times: 1 });
	const requestsBefore = server.requests.length;
	await expect(p.poll()).rejects.toMatchObject({ name: 'NodeApiError', httpCode: '500' });
	expect(server.requests.slice(requestsBefore).map((r) => [r.query.page, r.status])).toEqual([
		['1', 200],
		['2', 500],
	]);
	expect(p.state).toEqual(before);
	const emitted = ids(await p.poll());
	expect(emitted).toHaveLength(350);
	expect(new Set(emitted).size).toBe(350);
	expect(await p.poll()).toBeNull();
});

test('a quiet poll of a large space reads one page', async () => {
	createTasks(1000).forEach((t) => server.store.finishTask(t, 'completed'));
	const p = poller();
	await p.poll();
	const fresh = createTasks(10);
	server.resetTraffic();
	expect(await p.poll()).toBeNull();
	expect(server.requests).toHaveLength(1);
	fresh.forEach((t) => server.store.finishTask(t, 'completed'));
	server.resetTraffic();
	expect(ids(await p.poll())).toHaveLength(10);
	expect(server.requests.map((r) => r.query)).toEqual([{ page: '1', page_size: '100' }]);
});

test('the state stays bounded after 10,000 transitions', async () => {
	const tasks = createTasks(10_000);
	const p = poller();
	await p.poll();
	const whilePending = JSON.stringify(p.state).length;
	let emitted = 0;
	for (let start = 0; start < tasks.length; start += 2500) {
		tasks.slice(start, start + 2500).forEach((t) => server.store.finishTask(t, 'completed'));
		emitted += (await p.poll())?.length ?? 0;
	}
	expect(emitted).toBe(10_000);
	const after = JSON.stringify(p.state).length;
	expect(Object.keys(p.state.state.pending)).toHaveLength(0);
	expect(after).toBeLessThan(600);
	expect(whilePending).toBeLessThan(10_000 * 60);
	console.log(`Trigger state: ${whilePending} bytes with 10,000 calls pending, ${after} bytes after all 10,000 ended`);
});

test('calls pending for over a week are no longer watched', async () => {
	const [task] = createTasks(1);
	createTasks(3);
	const p = poller();
	await p.poll();
	const state = p.workflow.staticData['node:Unpod Trigger'] as any;
	state.state.pending[task.task_id] = Date.now() - 8 * 24 * 3600 * 1000;
	await p.poll();
	expect(Object.keys(p.state.state.pending)).not.toContain(task.task_id);
	expect(Object.keys(p.state.state.pending)).toHaveLength(3);
	// It stays out on later polls, and its end is not emitted.
	await p.poll();
	expect(Object.keys(p.state.state.pending)).not.toContain(task.task_id);
	server.store.finishTask(task, 'completed');
	expect(await p.poll()).toBeNull();
});

test('the activation option emits calls that ended in the last hours on the first poll', async () => {
	const tasks = createTasks(4);
	tasks.forEach((t) => server.store.finishTask(t, 'completed'));
	const p = poller({ options: { backfillHours: 1 } });
	expect(ids(await p.poll())).toEqual(tasks.map((t) => t.task_id));
	expect(await p.poll()).toBeNull();
});

test('watching an agent works the same way', async () => {
	const tasks = createTasks(3, server.store.spaces.get(SEED.secondSpaceToken)!, SEED.secondAgentHandle);
	const p = poller({ watch: 'agent', agent: { __rl: true, mode: 'handle', value: SEED.secondAgentHandle } });
	await p.poll();
	server.store.finishTask(tasks[2], 'failed');
	expect(ids(await p.poll())).toEqual([tasks[2].task_id]);
	expect(server.requests.every((r) => r.path === `/api/v2/platform/agents/${SEED.secondAgentHandle}/tasks/`)).toBe(
		true,
	);
});

test('soak: 500 polls with random faults emit every transition exactly once', async () => {
	const random = (() => {
		let a = 42;
		return () => (a = (a * 1103515245 + 12345) % 2147483648) / 2147483648;
	})();
	createTasks(50);
	const p = poller();
	await p.poll();
	const seededFinal = new Set(server.store.tasks.filter((t) => t.status !== 'pending').map((t) => t.task_id));
	server.faults.setRandom({
		rate: 0.05,
		kinds: ['serverError', 'rateLimit', 'malformed', 'html', 'drop', 'slow'],
		delayMs: 20,
		seed: 7,
	});
	const counts = new Map<string, number>();
	let failedPolls = 0;
	for (let i = 0; i < 500; i++) {
		if (random() < 0.3) createTasks(1 + Math.floor(random() * 60));
		for (const t of server.store.tasks) {
			if (t.status === 'pending' && random() < 0.15)
				server.store.finishTask(t, random() < 0.3 ? 'failed' : 'completed');
		}
		try {
			for (const id of ids(await p.poll())) counts.set(id, (counts.get(id) ?? 0) + 1);
		} catch (error) {
			failedPolls++;
			expect((error as Error).name).toBe('NodeApiError');
		}
	}
	server.faults.clear();
	for (const id of ids(await p.poll())) counts.set(id, (counts.get(id) ?? 0) + 1);
	const ended = server.store.tasks
		.filter((t) => t.status !== 'pending' && !seededFinal.has(t.task_id))
		.map((t) => t.task_id);
	expect(failedPolls).toBeGreaterThan(25);
	expect(failedPolls).toBeLessThan(400);
	expect(ended.length).toBeGreaterThan(2000);
	expect([...counts.values()].every((c) => c === 1)).toBe(true);
	expect(new Set(counts.keys())).toEqual(new Set(ended));
	console.log(
		`Soak: ${ended.length} transitions over 500 polls, ${failedPolls} polls failed on injected faults, each transition emitted once`,
	);
});

test('the real lifecycle: in_progress, a failed attempt back to pending and scheduled calls are open; each end is emitted once', async () => {
	const [a, b, c] = createTasks(3);
	const scheduled = server.store.createTasks(
		leads,
		SEED.agentHandle,
		[{ name: 'Later', contact_number: '+14150000001' }],
		'test',
		server.store.users.get(SEED.token)!,
		null,
		'auto',
	).tasks[0];
	const p = poller({ events: ['completed', 'failed'] });
	expect(await p.poll()).toBeNull();

	server.store.startTask(a);
	server.store.startTask(b);
	expect(await p.poll()).toBeNull();
	// An attempt that failed and will be retried is not an end.
	server.store.failAttempt(a, 'busy');
	expect(a.status).toBe('pending');
	expect(await p.poll()).toBeNull();

	server.store.startTask(a);
	server.store.finishTask(a, 'completed');
	server.store.finishTask(b, 'failed');
	expect(ids(await p.poll())).toEqual([a.task_id, b.task_id]);
	expect(await p.poll()).toBeNull();

	// First seen in_progress or scheduled, then ended.
	server.store.startTask(c);
	server.store.startTask(scheduled);
	expect(await p.poll()).toBeNull();
	server.store.finishTask(c, 'completed');
	server.store.finishTask(scheduled, 'failed');
	expect(ids(await p.poll())).toEqual([c.task_id, scheduled.task_id]);
	expect(await p.poll()).toBeNull();
});
