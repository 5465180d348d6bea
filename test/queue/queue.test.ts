/**
 * The package on n8n's distributed engine: a main that takes webhooks and runs pollers,
 * two workers that run the executions, PostgreSQL and Redis between them. Each test
 * checks where its executions ran (n8n's "Worker started execution" log lines, and the
 * `$env.UNPOD_PROCESS` each process sets, read by an expression in the workflow).
 */
import { startServer, UnpodServer } from '../../dev/server/server';
import { SEED } from '../../dev/server/seed';
import { RECORDING } from '../../dev/server/recordings';
import type { Task } from '../../dev/server/types';
import { WEBHOOK_SECRET } from '../helpers/setup';
import { QueueCluster } from './cluster';
import {
	CREATE_POSTS,
	workflows,
	TRIGGER_SPACE,
	CALL_EVENTS_HOOK,
	triggerWorkflow,
	callEventsWorkflow,
	APPROVER,
	approvalWorkflow,
	contacts,
	recordingsWorkflow,
} from './workflows';
import { testNote } from '../helpers/notes';

let server: UnpodServer;
let cluster: QueueCluster;

beforeAll(async () => {
	server = await startServer();
	cluster = await QueueCluster.start(server, [
		...workflows,
		recordingsWorkflow('recordings'),
		triggerWorkflow('outcomes', `${server.url}/__sim/sink`),
		callEventsWorkflow('callEvents', CALL_EVENTS_HOOK, `${server.url}/__sim/sink`),
		approvalWorkflow('approval', `${server.url}/__sim/sink`),
	]);
	await cluster.activate(...workflows.map((w) => w.id), 'recordings', 'callEvents', 'approval');
});

afterAll(async () => {
	await cluster?.close();
	await server?.stop();
});

afterEach(() => server.resetTraffic());

/** Tasks the local server holds for these CRM ids, by id: a contact called twice shows up as 2. */
function tasksPerContact(prefix: string): Map<string, Task[]> {
	const byId = new Map<string, Task[]>();
	for (const task of server.store.tasks) {
		const id = String(task.input.document_id ?? '');
		if (!id.startsWith(`${prefix}-`)) continue;
		byId.set(id, [...(byId.get(id) ?? []), task]);
	}
	return byId;
}

function expectEveryRowOneTask(rows: any[], prefix: string, count: number) {
	expect(rows).toHaveLength(count);
	const perContact = tasksPerContact(prefix);
	expect(perContact.size).toBe(count);
	expect([...perContact.values()].every((tasks) => tasks.length === 1)).toBe(true);
	for (const row of rows) expect(row.task_id).toBe(perContact.get(row.crm_id)![0].task_id);
}

const workerNames = () => cluster.workers.map((w) => w.name);

test('a 2,000-row import runs on a worker: 20 create requests, every row its own task', async () => {
	const rows = contacts('Bulk', 2000);
	const before = cluster.executionsRun();
	const started = Date.now();
	const answer = await cluster.webhook('bulk', { rows });
	const seconds = (Date.now() - started) / 1000;
	expect(answer.status).toBe(200);
	const out = answer.data as any[];
	expectEveryRowOneTask(out, 'Bulk', 2000);
	expect(server.requestsTo('POST', CREATE_POSTS)).toHaveLength(Math.ceil(2000 / 100));
	// Where it ran: a worker's expression, a worker's log, and nothing run on the main.
	const ranOn = new Set(out.map((r) => r.ran_on));
	expect(ranOn.size).toBe(1);
	expect(workerNames()).toContain([...ranOn][0]);
	const after = cluster.executionsRun();
	const worker = cluster.workers.find((w) => w.name === [...ranOn][0])!;
	expect(after[worker.name].length).toBe(before[worker.name].length + 1);
	expect(after.main).toEqual([]);
	testNote(
		`Queue mode, 2,000 rows in one execution on ${worker.name}: ${seconds.toFixed(1)} s from webhook to answer, ` +
			`${server.requests.length} requests to Unpod (${server.requestsTo('POST', CREATE_POSTS).length} creates)`,
	);
});

test('Retry On Fail after 5xx in the middle of an import: n8n retries on the same worker, no row is sent twice', async () => {
	const rows = contacts('Retried', 1000);
	// Batches 5 and 6 meet four 500s in a row: more than the node's own 2 s of retries, so
	// the node fails and n8n's Retry On Fail runs it again.
	server.faults.add({ kind: 'serverError', method: 'POST', path: CREATE_POSTS, after: 4, times: 4 });
	const before = cluster.executionsRun();
	const answer = await cluster.webhook('retried', { rows });
	expect(answer.status).toBe(200);
	const out = answer.data as any[];
	expectEveryRowOneTask(out, 'Retried', 1000);
	const statuses = server.requestsTo('POST', CREATE_POSTS).map((r) => r.status);
	expect(statuses.filter((s) => s === 500)).toHaveLength(4);
	expect(statuses.filter((s) => s === 200)).toHaveLength(10);
	// One execution, started once, on one worker: the retried node stayed where it failed.
	const after = cluster.executionsRun();
	const started = cluster.workers.filter((w) => after[w.name].length > before[w.name].length);
	expect(started.map((w) => after[w.name].length - before[w.name].length)).toEqual([1]);
	expect(new Set(out.map((r) => r.ran_on))).toEqual(new Set([started[0].name]));
	testNote(`Retry On Fail in queue mode: create answers ${statuses.join(', ')}; all on ${started[0].name}`);
});

test('the duplicate guard across workers: the same rows again, run by the other worker, call nobody twice', async () => {
	const rows = contacts('Guard', 300);
	const first = await cluster.webhook('guarded', { rows });
	expect(first.status).toBe(200);
	expectEveryRowOneTask(first.data, 'Guard', 300);
	const firstWorker = cluster.workers.find((w) => w.name === first.data[0].ran_on)!;
	// Stop that worker (gracefully): the next execution can only be the other one's, which
	// has never seen these rows in its memory.
	await cluster.stopWorker(firstWorker);
	try {
		server.resetTraffic();
		const again = await cluster.webhook('guarded', { rows });
		expect(again.status).toBe(200);
		const out = again.data as any[];
		expect(new Set(out.map((r) => r.ran_on)).has(firstWorker.name)).toBe(false);
		expectEveryRowOneTask(out, 'Guard', 300);
		expect(server.requestsTo('POST', CREATE_POSTS)).toHaveLength(0);
		expect(out.every((r, i) => r.unpod_skipped && r.task_id === first.data[i].task_id)).toBe(true);
		testNote(
			`Duplicate guard across workers: first run on ${firstWorker.name}, second on ${out[0].ran_on}: ` +
				`300 skipped, ${server.requests.length} requests (lookup only)`,
		);
	} finally {
		await cluster.startWorker(firstWorker);
	}
});

test('recordings downloaded on a worker are stored in the database (N8N_DEFAULT_BINARY_DATA_MODE=database)', async () => {
	const calls = server.calls.addTasks(contacts('Recorded', 3), { space: TRIGGER_SPACE });
	for (const call of calls) server.store.finishTask(call, 'completed');
	const answer = await cluster.webhook('recordings', {});
	expect(answer.status).toBe(200);
	const stored = (answer.data as any[]).filter((r) => calls.some((c) => c.task_id === r.task_id));
	expect(stored).toHaveLength(3);
	for (const row of stored) {
		expect(row.binary_id).toMatch(/^database:/);
		expect(Number(row.binary_bytes)).toBe(RECORDING.length);
		expect(workerNames()).toContain(row.ran_on);
	}
	testNote(
		`Recordings in queue mode: 3 files of ${RECORDING.length} bytes stored by ${stored[0].ran_on} as ${stored[0].binary_id.split(':')[0]} binary data`,
	);
});

test("the trigger on the main, on n8n's own poll schedule, while imports keep both workers busy: every ended call arrives once", async () => {
	const open = server.calls.addTasks(contacts('Caller', 40), { space: TRIGGER_SPACE });
	const polls = () => server.requestsTo('GET', `/spaces/${TRIGGER_SPACE}/tasks/`).length;
	const before = cluster.executionsRun();
	const started = Date.now();
	await cluster.main.setActive('outcomes', true, polls);
	// Two import loops, creates answering slowly: at every poll both workers are running imports.
	server.faults.add({ kind: 'slow', method: 'POST', path: CREATE_POSTS, delayMs: 2000 });
	let importing = true;
	const answers: Array<{ prefix: string; status: number; data: any }> = [];
	const importLoop = async (loop: number) => {
		for (let round = 1; importing; round++) {
			const prefix = `Busy${loop}x${round}`;
			answers.push({ prefix, ...(await cluster.webhook('busy', { rows: contacts(prefix, 200) })) });
		}
	};
	const loops = [importLoop(1), importLoop(2)];
	const ended: Task[] = [];
	/** From a poll's first request to its last outcome reaching the sink, per round. */
	const delivery: number[] = [];
	const nextPoll = async () => {
		const count = polls();
		const deadline = Date.now() + 90_000;
		while (polls() === count) {
			if (Date.now() > deadline) throw new Error(`No poll within 90 s:\n${cluster.main.logTail()}`);
			await new Promise((r) => setTimeout(r, 250));
		}
	};
	try {
		for (let round = 1; round <= 3; round++) {
			ended.push(...server.calls.finishCalls({ space: TRIGGER_SPACE, count: 10, failRate: 0.3 }));
			const count = polls();
			await nextPoll();
			const polled = server.requestsTo('GET', `/spaces/${TRIGGER_SPACE}/tasks/`)[count].at;
			const deadline = Date.now() + 60_000;
			while (server.sink.length < ended.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
			delivery.push(Date.now() - polled);
		}
		// One more poll of a space with nothing new: whatever could arrive twice has had its chance.
		await nextPoll();
	} finally {
		importing = false;
		await Promise.all(loops);
		await cluster.main.setActive('outcomes', false);
	}
	const minutes = (Date.now() - started) / 60_000;

	for (const answer of answers) {
		expect(answer.status).toBe(200);
		expectEveryRowOneTask(answer.data, answer.prefix, 200);
	}
	const received = server.sink as Array<{ task_id: string; status: string; ran_on: string }>;
	expect(received.map((r) => r.task_id).sort()).toEqual(ended.map((t) => t.task_id).sort());
	for (const r of received) expect(r.status).toBe(open.find((t) => t.task_id === r.task_id)!.status);
	expect(received.every((r) => workerNames().includes(r.ran_on))).toBe(true);
	const after = cluster.executionsRun();
	expect(after.main).toEqual([]);
	const runs = workerNames().map((name) => `${name} ${after[name].length - before[name].length}`);
	testNote(
		`Trigger on the main over ${minutes.toFixed(1)} min (${polls()} trigger requests) while ${answers.length} imports ` +
			`of 200 rows ran: ${ended.length} ended calls, ${received.length} delivered, ` +
			`${new Set(received.map((r) => r.task_id)).size} distinct, each round delivered ` +
			`${delivery.map((ms) => (ms / 1000).toFixed(1)).join(' s, ')} s after its poll; executions per worker: ${runs.join(', ')}`,
	);
});

test('a worker killed in the middle of an import: the import run again on the other worker calls nobody twice', async () => {
	const rows = contacts('Crash', 1000);
	server.faults.add({ kind: 'slow', method: 'POST', path: CREATE_POSTS, delayMs: 500 });
	const before = cluster.executionsRun();
	const walkAway = new AbortController();
	const first = cluster.webhook('crashed', { rows }, walkAway.signal).catch((error: Error) => error);
	const victim = await cluster.waitForJob(before);
	const answered = () => server.requestsTo('POST', CREATE_POSTS).filter((r) => r.status === 200).length;
	const deadline = Date.now() + 60_000;
	while (answered() < 4 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
	await cluster.stopWorker(victim, 'SIGKILL');
	walkAway.abort();
	await first;
	// Unpod still handles the request the dead worker had sent. A run started before that
	// answer would not see those tasks yet, and would call them again: wait it out, as a
	// user who sees the crashed execution does.
	while (server.inFlight() > 0) await new Promise((r) => setTimeout(r, 50));
	const createdBeforeCrash = tasksPerContact('Crash').size;
	expect(createdBeforeCrash).toBeGreaterThanOrEqual(200);
	expect(createdBeforeCrash).toBeLessThan(1000);

	server.resetTraffic();
	const again = await cluster.webhook('crashed', { rows });
	expect(again.status).toBe(200);
	const out = again.data as any[];
	expectEveryRowOneTask(out, 'Crash', 1000);
	const survivor = cluster.workers.find((w) => w !== victim)!;
	expect(new Set(out.map((r) => r.ran_on))).toEqual(new Set([survivor.name]));
	const skipped = out.filter((r) => r.unpod_skipped).length;
	expect(skipped).toBe(createdBeforeCrash);
	testNote(
		`Worker ${victim.name} killed after ${createdBeforeCrash} of 1,000 rows were created; run again on ` +
			`${survivor.name}: ${skipped} skipped, ${1000 - skipped} created, ${server.requests.length} requests`,
	);
	await cluster.startWorker(victim);
});

test("Unpod's pushes reach the main's webhook, the executions run on the workers, repeats start nothing", async () => {
	const url = `${cluster.main.url}/webhook/${CALL_EVENTS_HOOK}/unpod`;
	server.webhooks.configure(SEED.agentHandle, {
		enable_webhook: true,
		webhook_url: url,
		headers: [{ header_name: WEBHOOK_SECRET.header, header_value: WEBHOOK_SECRET.value }],
	});
	const before = cluster.executionsRun();
	// The trigger test's outcomes are still in the sink.
	server.sink.length = 0;
	try {
		const tasks = server.calls.addTasks(contacts('Pushed', 30), { space: TRIGGER_SPACE });
		// Calls end one after another; then Unpod pushes each end again.
		for (const [i, task] of tasks.entries()) {
			server.store.finishTask(task, i % 4 === 0 ? 'failed' : 'completed');
			await server.webhooks.settled();
			// n8n stores the trigger's record just after the node answers: each call ends once it is stored.
			const key = `${task.task_id}:${task.status}`;
			const deadline = Date.now() + 30_000;
			const stored = async () =>
				Object.keys((await cluster.main.staticData('callEvents'))['node:Call events']?.deliveries?.seen ?? {});
			while (!(await stored()).includes(key)) {
				if (Date.now() > deadline) throw new Error(`The record of ${key} was not stored`);
				await new Promise((r) => setTimeout(r, 50));
			}
		}
		for (const task of tasks) {
			server.webhooks.redeliver(task.task_id);
			await server.webhooks.settled();
		}
		const deadline = Date.now() + 60_000;
		while (server.sink.length < 30 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
		await cluster.main.executionsFinished('callEvents');

		const deliveries = server.webhooks.deliveries.filter((d) => d.kind === 'task');
		expect(deliveries).toHaveLength(60);
		expect(deliveries.every((d) => d.state === 'delivered' && d.attempts.join() === '200')).toBe(true);
		const received = server.sink as Array<{ task_id: string; event: string; status: string; ran_on: string }>;
		expect(received.map((r) => r.task_id).sort()).toEqual(tasks.map((t) => t.task_id).sort());
		for (const r of received) expect(r.event).toBe(`call_${r.status}`);
		expect(received.every((r) => workerNames().includes(r.ran_on))).toBe(true);
		const after = cluster.executionsRun();
		expect(after.main).toEqual([]);
		const ran = workerNames().reduce((sum, name) => sum + after[name].length - before[name].length, 0);
		expect(ran).toBe(30);
		testNote(
			`Queue mode, call events: 30 ends pushed to the main, each pushed again: ` +
				`${received.length} reached the workflow, ${ran} executions, all on workers ` +
				`(${workerNames()
					.map((name) => `${name} ${after[name].length - before[name].length}`)
					.join(', ')})`,
		);
	} finally {
		server.webhooks.configure(SEED.agentHandle, { enable_webhook: false, webhook_url: url, headers: {} });
	}
});

test('Call and Wait for Approval in queue mode: the execution waits holding no worker, the main relays the pushed end, a worker resumes it', async () => {
	const url = `${cluster.main.url}/webhook/${CALL_EVENTS_HOOK}/unpod`;
	server.webhooks.configure(SEED.agentHandle, {
		enable_webhook: true,
		webhook_url: url,
		headers: [{ header_name: WEBHOOK_SECRET.header, header_value: WEBHOOK_SECRET.value }],
	});
	server.sink.length = 0;
	server.calls.callScripts = [{ number: APPROVER, end: 'never', afterMs: 400 }];
	try {
		const started = await cluster.main.postWebhook('approval-queue', {});
		expect(started.status).toBe(200);
		const deadline = Date.now() + 60_000;
		const task = async () => server.store.tasks.find((t) => t.input.contact_number === APPROVER);
		while (!(await task()) || (await cluster.main.executionCount('approval', ['waiting'])) !== 1) {
			if (Date.now() > deadline) throw new Error('The approval step did not wait');
			await new Promise((r) => setTimeout(r, 100));
		}
		expect(await cluster.main.executionCount('approval', ['running', 'new'])).toBe(0);
		const call = (await task())!;
		call.answer = 'approved';
		server.store.finishTask(call, 'completed');
		await server.webhooks.settled();
		const resumed = () => (server.sink as Array<Record<string, unknown>>).find((r) => 'approved' in r);
		while (!resumed()) {
			if (Date.now() > deadline) throw new Error('The approval step did not resume');
			await new Promise((r) => setTimeout(r, 100));
		}
		await cluster.main.executionsFinished('approval');
		expect(resumed()).toMatchObject({ approved: true, approval: 'approved', task_id: call.task_id });
		expect(workerNames()).toContain(resumed()!.ran_on);
		testNote(`Queue mode, approval by phone: waited, relayed by the main, resumed on ${String(resumed()!.ran_on)}`);
	} finally {
		server.webhooks.configure(SEED.agentHandle, { enable_webhook: false, webhook_url: url, headers: {} });
	}
});
