/**
 * Task > Call and Wait in n8n's engine: calls placed in one request, followed through their run,
 * until they end or time runs out. Check Every, Max Call Wait and the calls' lengths run on the test's clock.
 */
import { TestClock } from '../../helpers/clock';
import { itemsOf } from '../../../dev/harness/run-results';
import { rowsNode } from '../../../dev/harness/workflow-builders';
import type { N8nNode } from '../../../dev/harness/workflow-builders';
import { agentRef, spaceRef, unpodNode } from '../../helpers/nodes';
import { Harness, startHarness, Workflows } from '../../helpers/setup';
import { SEED } from '../../../dev/server/seed';
import type { CallScript } from '../../../dev/server/types';

const RUN_TASKS = /\/runs\/[^/]+\/tasks\/$/;

const callAndWait = (parameters: Record<string, unknown> = {}, extra: Partial<N8nNode> = {}) =>
	unpodNode(
		'task',
		'Call',
		{
			operation: 'callAndWait',
			space: spaceRef(SEED.spaceToken),
			agent: agentRef(SEED.agentHandle),
			contactName: '={{ $json.name }}',
			contactNumber: '={{ $json.phone }}',
			callContext: 'Ask when the technician may come',
			...parameters,
		},
		extra,
	);

/** Each test calls numbers of its own, so the duplicate guard never meets another test's calls. */
const contacts = (prefix: string, names: string[]) =>
	names.map((name, i) => ({ name, phone: `+1${prefix}55501${String(i).padStart(2, '0')}` }));

const three = contacts('212', ['Ada', 'Ben', 'Cy']);
const openForGood = contacts('313', ['Dee']);
const throughFaults = contacts('414', ['Eli']);
const cancelled = contacts('515', ['Flo']);

const workflows = new Workflows();
const threeCalls = workflows.chain('cawThree', [
	rowsNode('Sheet', three),
	callAndWait({ options: { checkSeconds: 5 } }),
]);
const neverEnds = workflows.chain('cawNeverEnds', [
	rowsNode('Sheet', openForGood),
	callAndWait({ options: { checkSeconds: 5, maxCallWaitMinutes: 0.5 } }),
]);
const faulty = workflows.chain('cawFaults', [
	rowsNode('Sheet', throughFaults),
	callAndWait({ options: { checkSeconds: 5 } }),
]);
const again = workflows.chain('cawAgain', [rowsNode('Sheet', three), callAndWait({ options: { checkSeconds: 5 } })]);
const cancelWorkflow = workflows.chain('cawCancel', [
	rowsNode('Sheet', cancelled),
	callAndWait({ options: { checkSeconds: 5, maxCallWaitMinutes: 5 } }),
]);

const noRateLimitWait = workflows.chain('cawNoRateWait', [
	rowsNode('Sheet', contacts('616', ['Gus'])),
	callAndWait({ skipExisting: false, options: { maxRateLimitWaitSeconds: 0 } }),
]);

/** Until Unpod reports: the calls of one wait go in one request, so their context must be one. */
const mixedContexts = workflows.chain('cawReportedMixed', [
	rowsNode('Sheet', [
		{ ...contacts('717', ['Hal'])[0], goal: 'Confirm' },
		{ ...contacts('818', ['Ivy'])[0], goal: 'Reschedule' },
	]),
	callAndWait({ waitMode: 'untilReported', callContext: '={{ $json.goal }}' }),
]);
const badNumber = workflows.chain('cawReportedBadNumber', [
	rowsNode('Sheet', [...contacts('919', ['Jo']), { name: 'Kim', phone: 'call me' }]),
	callAndWait({ waitMode: 'untilReported' }),
]);

const reported = contacts('929', ['Lu', 'Mo']);
const untilReported = workflows.chain('cawReported', [
	rowsNode('Sheet', reported),
	callAndWait({ waitMode: 'untilReported' }),
]);

let h: Harness;
const script = (scripts: CallScript[]) => (h.server.calls.callScripts = scripts);
const runListRequests = () => h.server.requests.filter((r) => r.method === 'GET' && RUN_TASKS.test(r.path));

const clock = TestClock.install();

beforeAll(async () => {
	h = await startHarness({}, workflows, clock);
});

afterAll(async () => {
	await h?.close();
	clock.uninstall();
});

afterEach(() => h.server.resetTraffic());

test('3 contacts: one create request, one run followed; each item gets its own outcome; checks at Check Every', async () => {
	script([
		{ number: three[0].phone, end: 'completed', afterMs: 2000 },
		{ number: three[1].phone, end: 'failedAfterRetry', afterMs: 3000 },
		{ number: three[2].phone, end: 'completed', afterMs: 7000 },
	]);
	const run = await h.run(threeCalls);
	expect(run.exitCode).toBe(0);

	const creates = h.server.requestsTo('POST', `/spaces/${SEED.spaceToken}/tasks/`);
	expect(creates).toHaveLength(1);
	expect((creates[0].body as { documents: unknown[] }).documents).toHaveLength(3);
	const runId = [...h.server.store.runs.values()].at(-1)!.run_id;
	const lists = runListRequests();
	expect(lists.every((r) => r.path.includes(runId))).toBe(true);
	// Ada and Ben ended by the first check (5 s), Cy by the second (5 s after a change).
	expect(lists).toHaveLength(2);
	expect(lists[0].at - creates[0].at).toBeGreaterThanOrEqual(4500);
	expect(lists[1].at - lists[0].at).toBeGreaterThanOrEqual(4500);

	const out = itemsOf(run, 'Call');
	expect(out.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	const tasks = h.server.store.runs.get(runId)!.tasks;
	out.forEach(({ json }, i) => {
		const task = tasks.find((t) => t.input.name === three[i].name)!;
		expect(json).toMatchObject({
			task_id: task.task_id,
			run_id: runId,
			contact_name: three[i].name,
			contact_number: three[i].phone,
			unpod_wait_status: 'ended',
			status: task.status,
		});
	});
	expect(out.map((i) => i.json.status)).toEqual(['completed', 'failed', 'completed']);
	// What the person said reaches the workflow.
	expect(out[0].json.transcript).toMatch(/^Assistant: .+\nContact: /);
	expect(out[0].json.call_summary).toEqual(expect.any(String));
	expect(out[0].json.recording_url).toMatch(/^http/);
	expect(out[1].json.call_status).toEqual(expect.any(String));
});

test('nobody is called twice: a second run follows the calls already made instead of placing them', async () => {
	const before = h.server.store.tasks.length;
	const run = await h.run(again);
	expect(run.exitCode).toBe(0);
	expect(h.server.requestsTo('POST', '/tasks/')).toHaveLength(0);
	expect(h.server.store.tasks.length).toBe(before);
	const out = itemsOf(run, 'Call').map((i) => i.json);
	expect(out.map((j) => j.unpod_wait_status)).toEqual(['ended', 'ended', 'ended']);
	expect(out.every((j) => String(j.unpod_skipped).startsWith('Not sent: task '))).toBe(true);
	// Ended calls come out as the guard read them: no check at all.
	expect(runListRequests()).toHaveLength(0);
});

test('a call that never ends comes out timed_out at Max Call Wait, with its task ID, and nothing is asked after', async () => {
	script([{ number: openForGood[0].phone, end: 'never', afterMs: 1000 }]);
	const started = Date.now();
	const run = await h.run(neverEnds);
	expect(run.exitCode).toBe(0);
	const [item] = itemsOf(run, 'Call');
	const task = h.server.store.tasks.find((t) => t.input.contact_number === openForGood[0].phone)!;
	expect(item.json).toMatchObject({ task_id: task.task_id, unpod_wait_status: 'timed_out', status: 'in_progress' });
	const creates = h.server.requestsTo('POST', '/tasks/');
	const lists = runListRequests();
	// Picked up by the first check (5 s: a change), then 10, 17.5 and 27.5 s, and a last one at the 30 s limit.
	expect(lists).toHaveLength(5);
	expect(lists.at(-1)!.at - creates[0].at).toBeLessThan(31_000);
	expect(lists.at(-1)!.at - creates[0].at).toBeGreaterThanOrEqual(28_000);
	const lastRequest = Math.max(...h.server.requests.map((r) => r.at));
	expect(lastRequest).toBe(lists.at(-1)!.at);
	expect(clock.elapsed(started)).toBeGreaterThanOrEqual(30_000);
});

test('a 429 and a 500 while waiting are waited out; the outcome still arrives', async () => {
	script([{ number: throughFaults[0].phone, end: 'completed', afterMs: 6000 }]);
	h.server.faults.add({ kind: 'rateLimit', method: 'GET', path: RUN_TASKS, times: 1, retryAfter: 2 });
	h.server.faults.add({ kind: 'serverError', method: 'GET', path: RUN_TASKS, times: 1 });
	const run = await h.run(faulty);
	expect(run.exitCode).toBe(0);
	const [item] = itemsOf(run, 'Call');
	expect(item.json).toMatchObject({
		contact_number: throughFaults[0].phone,
		unpod_wait_status: 'ended',
		status: 'completed',
	});
	const lists = runListRequests();
	expect(lists.slice(0, 3).map((r) => r.status)).toEqual([429, 500, 200]);
	// Retry-After: 2 was honoured before the next try.
	expect(lists[1].at - lists[0].at).toBeGreaterThanOrEqual(1900);
});

test('a cancelled execution stops checking at once', async () => {
	script([{ number: cancelled[0].phone, end: 'never', afterMs: 1000 }]);
	let stoppedAt = 0;
	// The Stop button, pressed once the call has been checked: n8n aborts the execution's signal.
	h.server.onRequest = () => {
		if (stoppedAt || runListRequests().length < 1) return;
		stoppedAt = Date.now();
		setImmediate(() => h.n8n.cancel());
	};
	try {
		const run = await h.run(cancelWorkflow);
		// n8n's engine aborted the execution's signal; the node's wait ended at once, with its own error.
		expect(run.resultData?.error?.message).toBe('The execution was cancelled while waiting on Unpod');
		expect(run.resultData?.error?.description).toBe('Nothing more was sent after the cancel.');
		expect(stoppedAt).toBeGreaterThan(0);
		const checksBefore = runListRequests().length;
		// The window in which a check would have come (every 5 s while the call changes, 7.5 s
		// after a quiet check), on the test's clock, watched for requests that must not come.
		await clock.advance(12_000);
		expect(runListRequests().filter((r) => r.at > stoppedAt)).toEqual([]);
		expect(runListRequests().length).toBe(checksBefore);
	} finally {
		h.server.onRequest = undefined;
	}
});

test("Max Rate Limit Wait (Seconds) bounds Call and Wait's create as it bounds Create's: at 0 a 429 ends the node at once", async () => {
	h.server.faults.add({ kind: 'rateLimit', retryAfter: 30, times: 3 });
	const started = Date.now();
	const result = await h.run(noRateLimitWait);
	expect(result.exitCode).toBe(1);
	expect(result.resultData?.error).toMatchObject({ httpCode: '429' });
	expect(h.server.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
	expect(clock.elapsed(started)).toBe(0);
});

test('until Unpod reports, items that would go in two requests, or a row that cannot be sent, stop the run before any call', async () => {
	const mixed = await h.run(mixedContexts);
	expect(mixed.exitCode).toBe(1);
	expect(mixed.resultData?.error?.message).toBe(
		'Item 2: Space, Agent and Call Context must be the same for every item when the execution waits holding no worker',
	);
	const bad = await h.run(badNumber);
	expect(bad.exitCode).toBe(1);
	expect(bad.resultData?.error?.message).toMatch(/^Item 2: .*Nothing was sent\.$/);
	expect(h.server.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
});

test('until Unpod reports, no contact is left out as called already: the wait sends every call in one request, reading no list', async () => {
	const [first] = h.server.calls.addTasks([{ name: 'Lu', contact_number: reported[0].phone }]);
	const run = await h.run(untilReported);
	expect(run.exitCode).toBe(0);
	expect(run.resultData?.lastNodeExecuted).toBe('Call');
	const posts = h.server.requests.filter((r) => r.method === 'POST');
	expect(posts).toHaveLength(1);
	const documents = (posts[0].body as { documents: Array<Record<string, unknown>> }).documents;
	expect(documents.map((d) => d.contact_number)).toEqual(reported.map((c) => c.phone));
	expect(documents.every((d) => String(d.n8n_resume_url).includes('/webhook-waiting/'))).toBe(true);
	// The guard's read of the space's tasks is not made.
	expect(h.server.requests.filter((r) => r.method === 'GET')).toEqual([]);
	// Lu is called again beside the task Lu already had.
	const lus = h.server.store.tasks.filter((t) => t.input.contact_number === reported[0].phone);
	expect(lus).toHaveLength(2);
	expect(lus[0].task_id).toBe(first.task_id);
	expect(lus[1].task_id).not.toBe(first.task_id);
});
