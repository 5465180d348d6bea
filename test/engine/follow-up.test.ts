/**
 * Task > Follow Up in n8n's engine against the local server, on a clock set to Wednesday
 * 2026-11-25 10:00 UTC (11:00 in Berlin): what each ended call asks for, the create requests
 * (one per slot, scheduled in UTC, the chain in the document), and no second follow-up on a re-run.
 */
import { TestClock } from '../helpers/clock';
import { itemsOf, outputOf, rowsNode } from '../helpers/n8n';
import { agentRef, spaceRef, unpodNode } from '../helpers/nodes';
import { Harness, startHarness, Workflows } from '../helpers/setup';
import type { IDataObject } from 'n8n-workflow';
import { SEED } from '../../dev/server/seed';
import { simplifyTask } from '../../nodes/shared/outcome';

const NOW = Date.parse('2026-11-25T10:00:00Z');
const TASKS = `/spaces/${SEED.secondSpaceToken}/tasks/`;

/** Ended calls as the triggers put them out with Simplify on. */
const ended = (taskId: string, extra: Record<string, unknown>) => ({
	task_id: taskId,
	run_id: 'Rprevious',
	status: 'completed',
	contact_name: `Contact ${taskId}`,
	contact_number: `+4930555${taskId.slice(-4)}`,
	call_status: 'completed',
	call_end_reason: 'Customer Ended The Call',
	end_time: '2026-11-25T09:00:00.000Z',
	callback_requested: false,
	callback_time: null,
	transcript: 'Assistant: Hello\nContact: Hi there',
	...extra,
});
const calls = [
	ended('Treached0001', {}),
	ended('Tbusy0000002', { status: 'failed', call_status: 'busy', transcript: '' }),
	ended('Tcallback003', { callback_requested: true, callback_time: '2026-11-26 15:30' }),
	ended('Tlast0000004', { status: 'failed', call_status: 'notConnected', attempt: 3 }),
	ended('Topen0000005', { status: 'in_progress', call_status: null }),
	ended('Tbusy0000006', { status: 'failed', call_status: 'no_answer', end_time: '2026-11-25T09:10:00.000Z' }),
];

const followUp = unpodNode(
	'task',
	'Follow Up',
	{
		operation: 'followUp',
		space: spaceRef(SEED.secondSpaceToken),
		agent: agentRef(SEED.secondAgentHandle),
		callContext: 'Try again: the renewal offer',
		options: { timeZone: 'Europe/Berlin' },
	},
	{ onError: 'continueRegularOutput' },
);

const workflows = new Workflows();
const campaign = workflows.chain('followUpCampaign', [rowsNode('Ended', calls), followUp]);

let h: Harness;
const clock = TestClock.install();

beforeAll(async () => {
	jest.setSystemTime(NOW);
	h = await startHarness({}, workflows, clock);
});
afterAll(async () => {
	await h?.close();
	clock.uninstall();
});

test('each ended call: a retry, a callback or nothing, paired with its item; follow-ups due in one slot share a request', async () => {
	const result = await h.run(campaign);
	expect(result.exitCode).toBe(0);
	const out = outputOf(result, 'Follow Up');
	expect(out.map((o) => [o.task_id, o.follow_up, o.follow_up_reason, o.follow_up_at, o.follow_up_attempt])).toEqual([
		['Treached0001', 'none', 'reached', null, null],
		['Tbusy0000002', 'retry', 'not_reached: busy', '2026-11-25T13:00:00.000Z', 2],
		['Tcallback003', 'callback', 'callback_requested', '2026-11-26T14:30:00.000Z', 2],
		['Tlast0000004', 'none', 'max_calls', null, null],
		// The open call: its input row and the error, as every failed item.
		['Topen0000005', undefined, undefined, undefined, undefined],
		['Tbusy0000006', 'retry', 'not_reached: no_answer', '2026-11-25T13:15:00.000Z', 2],
	]);
	// The open call fails its own item, naming it; the others go on.
	expect(out[4].error).toBe('Item 5 is a call that has not ended (status "in_progress")');
	expect(itemsOf(result, 'Follow Up').map((i) => i.pairedItem)).toEqual(calls.map((_, item) => ({ item })));

	// One create request per slot, scheduled in UTC; the chain in each document.
	const posts = h.server.requestsTo('POST', TASKS).map((r) => r.body as Record<string, any>);
	expect(posts.map((p) => p.schedule)).toEqual([
		{ type: 'custom', calling_date: '2026-11-25', calling_time: '13:00' },
		{ type: 'custom', calling_date: '2026-11-26', calling_time: '14:30' },
		{ type: 'custom', calling_date: '2026-11-25', calling_time: '13:15' },
	]);
	expect(posts[0]).toMatchObject({ pilot: SEED.secondAgentHandle, context: 'Try again: the renewal offer' });
	expect(posts[0].documents).toEqual([
		{
			name: 'Contact Tbusy0000002',
			contact_number: '+49305550002',
			attempt: 2,
			previous_task_id: 'Tbusy0000002',
		},
	]);
	for (const o of out.filter((x) => x.follow_up && x.follow_up !== 'none')) {
		const task = h.server.store.tasksById.get(o.follow_up_task_id)!;
		expect(task.status).toBe('scheduled');
		expect(task.input).toMatchObject({ previous_task_id: o.task_id, attempt: 2 });
	}
});

test('the same ended calls again: no second follow-up; each item names the one already scheduled', async () => {
	const before = h.server.store.tasks.length;
	h.server.resetTraffic();
	const again = await h.run(campaign);
	expect(again.exitCode).toBe(0);
	expect(h.server.requestsTo('POST', TASKS)).toHaveLength(0);
	expect(h.server.store.tasks.length).toBe(before);
	const out = outputOf(again, 'Follow Up');
	const busy = out[1];
	expect(busy).toMatchObject({ follow_up: 'retry', follow_up_task_id: expect.stringMatching(/^T/) });
	expect(busy.unpod_skipped).toBe(
		`Not sent: follow-up ${busy.follow_up_task_id} of task Tbusy0000002 is already scheduled`,
	);
});

test("from the push's raw task and from a flat item alike, the follow-up carries the whole document, custom fields too", async () => {
	h.server.resetTraffic();
	const [pushed, polled] = h.server.addTasks(
		[
			{ name: 'Raw Rita', contact_number: '+4930777001', plan: 'gold' },
			{ name: 'Flat Fred', contact_number: '+4930777002', plan: 'silver' },
		],
		{ space: SEED.secondSpaceToken, pilot: SEED.secondAgentHandle, context: 'first call' },
	);
	for (const task of [pushed, polled]) h.server.store.finishTask(task, 'failed');
	const raw = h.server.webhooks.taskDocument(pushed);
	// As the triggers put it out with Simplify on: no custom field, but its run.
	const flat = simplifyTask(h.server.webhooks.taskDocument(polled) as IDataObject);
	expect(flat.plan).toBeUndefined();
	const id = workflows.chain(`followUpShapes${Date.now()}`, [rowsNode('Ended', [raw, flat]), followUp]);
	await h.n8n.importWorkflows(workflows.list.filter((w) => w.id === id));
	const result = await h.run(id);
	expect(result.exitCode).toBe(0);
	expect(outputOf(result, 'Follow Up').map((o) => o.follow_up)).toEqual(['retry', 'retry']);
	const documents = h.server.requestsTo('POST', TASKS).flatMap((r) => (r.body as Record<string, any>).documents);
	expect(documents).toEqual(
		expect.arrayContaining([
			{ name: 'Raw Rita', contact_number: '+4930777001', plan: 'gold', attempt: 2, previous_task_id: pushed.task_id },
			{
				name: 'Flat Fred',
				contact_number: '+4930777002',
				plan: 'silver',
				attempt: 2,
				previous_task_id: polled.task_id,
			},
		]),
	);
	// The flat item's document was read back from its run: one request.
	expect(h.server.requestsTo('GET', `/spaces/${SEED.secondSpaceToken}/runs/${polled.run_id}/tasks/`)).toHaveLength(1);
});

test('a contact never reached plays out on the test clock: called at most Max Calls times, each call inside the window', async () => {
	jest.setSystemTime(NOW);
	h.server.resetTraffic();
	const [first] = h.server.addTasks([{ name: 'Never There', contact_number: '+4930888001' }], {
		space: SEED.secondSpaceToken,
		pilot: SEED.secondAgentHandle,
		context: 'first call',
	});
	h.server.store.finishTask(first, 'failed');
	// Every call to this number rings out: it fails a minute after it starts.
	h.server.callScripts = [{ number: '+4930888001', end: 'failed', afterMs: 60_000 }];
	const window = new Intl.DateTimeFormat('en-GB', {
		timeZone: 'Europe/Berlin',
		weekday: 'short',
		hour: '2-digit',
		minute: '2-digit',
		hourCycle: 'h23',
	});
	const decisions: string[] = [];
	let ended = first;
	for (let round = 0; round < 4; round++) {
		const id = workflows.chain(`followUpRound${round}`, [
			rowsNode('Ended', [simplifyTask(h.server.webhooks.taskDocument(ended) as IDataObject)]),
			followUp,
		]);
		await h.n8n.importWorkflows(workflows.list.filter((w) => w.id === id));
		const [out] = outputOf(await h.run(id), 'Follow Up');
		decisions.push(
			`${out.follow_up} ${out.follow_up_reason} ${out.follow_up_at ? window.format(Date.parse(out.follow_up_at)) : ''}`.trim(),
		);
		if (out.follow_up === 'none') break;
		const next = h.server.store.tasksById.get(out.follow_up_task_id)!;
		expect(next.status).toBe('scheduled');
		// The clock moves to the slot and past the call: the server plays it out.
		jest.setSystemTime(Date.parse(out.follow_up_at) + 5 * 60_000);
		h.server.store.advancePlans();
		expect(next.status).toBe('failed');
		ended = next;
	}
	// Wednesday 11:00 in Berlin; 4 h after the first call, then 8 h after the second (past 19:00: Thursday 09:00).
	expect(decisions).toEqual([
		`retry not_reached: ${String(first.output.call_status)} Wed 15:00`,
		expect.stringMatching(/^retry not_reached: \S+ Thu 09:00$/),
		'none max_calls',
	]);
	const creates = h.server.requestsTo('POST', TASKS);
	expect(creates).toHaveLength(2);
});
