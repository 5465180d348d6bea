/** The Unpod Trigger's poll under load, polled by n8n-core against the local server on the test's clock: thousands of transitions, random faults, a rate limit. */
import { TestClock } from '../../helpers/clock';
import { addNumberedTasks, emittedIds, spacePoller } from '../../helpers/poll';
import { startServer, UnpodServer } from '../../../dev/server/server';
import { SEED } from '../../../dev/server/seed';
import type { Space } from '../../../dev/server/types';
import { testNote } from '../../helpers/notes';

let server: UnpodServer;
let leads: Space;
// Poll spacing, Retry-After and the store's clock are the test's.
const clock = TestClock.install();
afterAll(() => clock.uninstall());

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

test('the state stays bounded after 5,000 transitions', async () => {
	const tasks = createTasks(5_000);
	const p = poller();
	// Activation learns 50 pages, 10 requests a poll.
	let activationPolls = 0;
	do {
		const before = server.requests.length;
		expect(await clock.drive(p.poll())).toBeNull();
		expect(server.requests.length - before).toBeLessThanOrEqual(10);
		activationPolls++;
	} while (p.state.state.todo.length);
	// Page 1 is read by every poll: 10 pages the first poll, 9 new ones each poll after.
	expect(activationPolls).toBe(Math.ceil((50 - 10) / 9) + 1);
	const whilePending = JSON.stringify(p.state).length;
	let emitted = 0;
	let polls = 0;
	for (let start = 0; start < tasks.length; start += 1250) {
		tasks.slice(start, start + 1250).forEach((t) => server.store.finishTask(t, 'completed'));
		for (let i = 0; i < 12; i++, polls++) {
			const before = server.requests.length;
			emitted += (await clock.drive(p.poll()))?.length ?? 0;
			expect(server.requests.length - before).toBeLessThanOrEqual(10);
		}
	}
	expect(emitted).toBe(5_000);
	const after = JSON.stringify(p.state).length;
	expect(Object.keys(p.state.state.open)).toHaveLength(0);
	expect(after).toBeLessThan(600);
	expect(whilePending).toBeLessThan(5_000 * 100);
	testNote(`Trigger state: ${whilePending} bytes with 5,000 calls pending, ${after} bytes after all 5,000 ended`);
});

test('soak: 150 polls with random faults emit every transition exactly once', async () => {
	const random = (() => {
		let a = 42;
		return () => (a = (a * 1103515245 + 12345) % 2147483648) / 2147483648;
	})();
	createTasks(50);
	const p = poller();
	await clock.drive(p.poll());
	const seededFinal = new Set(server.store.tasks.filter((t) => t.status !== 'pending').map((t) => t.task_id));
	server.faults.setRandom({
		rate: 0.05,
		// 429s make the trigger skip polls until Retry-After: covered by the scan's unit tests.
		kinds: ['serverError', 'malformed', 'html', 'drop', 'slow'],
		delayMs: 20,
		seed: 7,
	});
	const counts = new Map<string, number>();
	for (let i = 0; i < 150; i++) {
		if (random() < 0.3) createTasks(1 + Math.floor(random() * 60));
		for (const t of server.store.tasks) {
			if (t.status === 'pending' && random() < 0.15) server.store.startTask(t);
			else if (t.status === 'in_progress' && random() < 0.3)
				server.store.finishTask(t, random() < 0.3 ? 'failed' : 'completed');
		}
		// Passing failures never fail a poll: it stops, keeps what it read, and the next goes on.
		for (const id of emittedIds(await clock.drive(p.poll()))) counts.set(id, (counts.get(id) ?? 0) + 1);
	}
	const failedPolls = server.faults.injected.filter((f) => f.kind !== 'slow').length;
	server.faults.clear();
	// Let a Retry-After pass, then poll until quiet.
	await clock.advance(1100);
	for (let i = 0; i < 20; i++)
		for (const id of emittedIds(await clock.drive(p.poll()))) counts.set(id, (counts.get(id) ?? 0) + 1);
	const ended = server.store.tasks
		.filter((t) => ['completed', 'failed'].includes(t.status) && !seededFinal.has(t.task_id))
		.map((t) => t.task_id);
	expect(failedPolls).toBeGreaterThan(5);
	expect(ended.length).toBeGreaterThan(600);
	expect([...counts.values()].every((c) => c === 1)).toBe(true);
	expect(new Set(counts.keys())).toEqual(new Set(ended));
	testNote(
		`Soak: ${ended.length} transitions over 150 polls, ${failedPolls} requests failed on injected faults, each transition emitted once`,
	);
});

test('1,500 open calls under a rate limit: every end arrives once, no poll over budget (30 requests a minute, a poll every 5 s)', async () => {
	const open = createTasks(1500);
	createTasks(300).forEach((t) => server.store.finishTask(t, 'completed'));
	// History ended before activation: the store's microsecond clock may run a few ms ahead.
	await clock.advance(50);
	// 30 requests a minute with polls every 5 s.
	server.rateLimiter.configure(30, 30);
	const p = poller();
	const started = Date.now();
	const perPoll: number[] = [];
	const counts = new Map<string, number>();
	const pollOnce = async () => {
		const before = server.requests.length;
		for (const id of emittedIds(await clock.drive(p.poll()))) counts.set(id, (counts.get(id) ?? 0) + 1);
		perPoll.push(server.requests.length - before);
		await clock.advance(5000);
	};
	while (p.state?.state?.top === undefined || p.state.state.top < 0 || p.state.state.todo.length) await pollOnce();
	const activated = Date.now();
	const oldest = open.slice(0, 20);
	oldest.forEach((t) => server.store.finishTask(t, 'completed'));
	while (oldest.some((t) => !counts.has(t.task_id)) && Date.now() - activated < 600_000) await pollOnce();
	const delivered = Date.now() - activated;
	expect(oldest.filter((t) => counts.get(t.task_id) !== 1)).toEqual([]);
	expect([...counts.values()].every((c) => c === 1)).toBe(true);
	expect(counts.size).toBe(20);
	expect(Math.max(...perPoll)).toBeLessThanOrEqual(10);
	testNote(
		`1,500 open calls at 30/min: activation ${((activated - started) / 1000).toFixed(1)} s, 20 ends delivered in ${(delivered / 1000).toFixed(1)} s on the test's clock (${perPoll.length} polls, ${server.rateLimiter.limited} answered 429)`,
	);
});
