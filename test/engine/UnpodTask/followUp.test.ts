/**
 * Task > Follow Up in n8n's engine against the local server, on a clock set to Wednesday
 * 2026-11-25 10:00 UTC (11:00 in Berlin): what each ended call asks for, the create requests
 * (one per slot, scheduled in UTC, the chain in the document), and no second follow-up on a re-run.
 */
import { itemsOf, outputOf } from '../../../dev/harness/run-results';
import { rowsNode } from '../../../dev/harness/workflow-builders';
import { agentRef, spaceRef, unpodNode } from '../../helpers/nodes';
import { harnessAt, Workflows } from '../../helpers/setup';
import type { IDataObject } from 'n8n-workflow';
import { SEED } from '../../../dev/server/seed';
import { simplifyTask } from '../../../nodes/shared/outcome';
import { ANALYSED_AGENT } from '../../../dev/server/postCall';
import { phoneThat } from '../../helpers/calls';

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
		// Weekdays 09:00 to 19:00, as the campaign examples set them; the zone is the numbers' own.
		options: { timeZone: 'Europe/Berlin', callingDays: [1, 2, 3, 4, 5], callingFrom: '09:00', callingTo: '19:00' },
	},
	{ onError: 'continueRegularOutput' },
);

const workflows = new Workflows();
const campaign = workflows.chain('followUpCampaign', [rowsNode('Ended', calls), followUp]);

const h = harnessAt(NOW, workflows);

test('each ended call: a retry, a callback or nothing, paired with its item; follow-ups due in one slot share a request', async () => {
	const result = await h.run(campaign);
	expect(result.exitCode).toBe(0);
	const out = outputOf(result, 'Follow Up');
	expect(out.map((o) => [o.task_id, o.follow_up, o.follow_up_reason, o.follow_up_at, o.follow_up_attempt])).toEqual([
		['Treached0001', 'none', 'reached', null, null],
		['Tbusy0000002', 'retry', 'not_reached: busy', '2026-11-25T13:00:00.000Z', 2],
		['Tcallback003', 'callback', 'callback_requested', '2026-11-26T14:30:00.000Z', 2],
		['Tlast0000004', 'none', 'max_calls', null, null],
		// The open call is passed through undecided, not a failed run.
		['Topen0000005', 'none', 'not_ended', null, null],
		['Tbusy0000006', 'retry', 'not_reached: no_answer', '2026-11-25T13:15:00.000Z', 2],
	]);
	expect(out[4].error).toBeUndefined();
	expect(itemsOf(result, 'Follow Up').map((i) => i.pairedItem)).toEqual(calls.map((_, item) => ({ item })));

	// One create request per slot, scheduled in UTC; the chain in each document.
	const posts = h.server.requestsTo('POST', TASKS).map((r) => r.body as Record<string, any>);
	expect(posts.map((p) => p.schedule)).toEqual([
		{ type: 'custom', calling_date: '2026-11-25', calling_time: '13:00' },
		{ type: 'custom', calling_date: '2026-11-26', calling_time: '14:30' },
		{ type: 'custom', calling_date: '2026-11-25', calling_time: '13:15' },
	]);
	expect(posts[0]).toMatchObject({
		pilot: SEED.secondAgentHandle,
		context: expect.stringMatching(/\n\nTry again: the renewal offer$/),
	});
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
	const [pushed, polled] = h.server.calls.addTasks(
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
	const [first] = h.server.calls.addTasks([{ name: 'Never There', contact_number: '+4930888001' }], {
		space: SEED.secondSpaceToken,
		pilot: SEED.secondAgentHandle,
		context: 'first call',
	});
	h.server.store.finishTask(first, 'failed');
	// Every call to this number rings out: it fails a minute after it starts.
	h.server.calls.callScripts = [{ number: '+4930888001', end: 'failed', afterMs: 60_000 }];
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

describe("Unpod's own follow-ups (Enable Followup, Enable Callback): nobody called twice", () => {
	const settle = () => {
		h.server.resetTraffic();
		h.server.store.agentSettings.set(SEED.secondAgentHandle, ANALYSED_AGENT);
	};
	afterEach(() => h.server.store.agentSettings.delete(SEED.secondAgentHandle));

	let numbers = 0;
	/**
	 * Calls of the second agent ended now, their outcome set by task id (outcomes.ts: 01 a
	 * callback, 00 reached, 02 not interested); `drops`: the line drops after the greeting.
	 */
	function endedCalls(ids: string[], outcome: 'completed' | 'failed' = 'completed', drops = false) {
		const phone = () => {
			const found = phoneThat(drops, numbers);
			numbers = found.next;
			return found.number;
		};
		const tasks = h.server.calls.addTasks(
			ids.map((id) => ({ name: `Unpod ${id}`, contact_number: phone(), deal: id })),
			{ space: SEED.secondSpaceToken, pilot: SEED.secondAgentHandle, context: 'first call' },
		);
		tasks.forEach((task, i) => {
			h.server.store.tasksById.delete(task.task_id);
			task.task_id = `T${ids[i]}${task.task_id.slice(1 + ids[i].length)}`;
			h.server.store.tasksById.set(task.task_id, task);
			h.server.store.finishTask(task, outcome);
		});
		return tasks;
	}

	async function runFollowUp(name: string, rows: IDataObject[], node = followUp) {
		const id = workflows.chain(`${name}${Date.now()}`, [rowsNode('Ended', rows), node]);
		await h.n8n.importWorkflows(workflows.list.filter((w) => w.id === id));
		const result = await h.run(id);
		expect(result.exitCode).toBe(0);
		return outputOf(result, 'Follow Up');
	}

	test("a callback Unpod scheduled: no call; the item names Unpod's task, from the push and from a flat item alike", async () => {
		settle();
		// 01...: the person asked for a callback; 0100: the call does not drop.
		const [pushed, polled] = endedCalls(['0100aa', '0101aa']);
		const unpods = h.server.store.tasks.filter((t) => t.output.referenced_task);
		const unpodOf = (task: { task_id: string }) => unpods.find((t) => t.output.referenced_task === task.task_id)!;
		expect(unpodOf(pushed)).toBeDefined();
		const out = await runFollowUp('unpodCallback', [
			h.server.webhooks.taskDocument(pushed) as IDataObject,
			simplifyTask(h.server.webhooks.taskDocument(polled) as IDataObject),
		]);
		expect(out.map((o) => [o.follow_up, o.follow_up_reason, o.follow_up_task_id, o.follow_up_attempt])).toEqual([
			['unpod', 'unpod_follow_up', unpodOf(pushed).task_id, 2],
			['unpod', 'unpod_follow_up', unpodOf(polled).task_id, 2],
		]);
		expect(out[0].follow_up_at).toBe(new Date(Number(unpodOf(pushed).scheduled_timestamp) * 1000).toISOString());
		expect(h.server.requestsTo('POST', TASKS)).toHaveLength(0);
	});

	test("an item that does not say Unpod scheduled it (an older flat shape): Unpod's task naming the call is found, no call", async () => {
		settle();
		const [call] = endedCalls(['0102aa']);
		const flat = simplifyTask(h.server.webhooks.taskDocument(call) as IDataObject);
		for (const key of Object.keys(flat)) if (key.startsWith('unpod_')) delete flat[key];
		const [out] = await runFollowUp('unpodFound', [flat]);
		expect(out).toMatchObject({ follow_up: 'unpod', follow_up_reason: 'unpod_follow_up' });
		expect(h.server.store.tasksById.get(out.follow_up_task_id)!.output.referenced_task).toBe(call.task_id);
		expect(h.server.requestsTo('POST', TASKS)).toHaveLength(0);
	});

	test("Max Calls counts Unpod's calls: its second follow-up, not reached, is the third call", async () => {
		settle();
		h.server.store.agentSettings.set(SEED.secondAgentHandle, { ...ANALYSED_AGENT, follow_up_enabled: false });
		const [call] = endedCalls(['0203aa'], 'failed');
		// As Unpod saved it: its second follow-up of an earlier call, which ended without reaching anyone.
		call.output = { ...call.output, referenced_task: 'Tearlier', followup_count: 2 };
		const [out] = await runFollowUp('unpodMaxCalls', [h.server.webhooks.taskDocument(call) as IDataObject]);
		expect(out).toMatchObject({ attempt: 3, follow_up: 'none', follow_up_reason: 'max_calls' });
		expect(h.server.requestsTo('POST', TASKS)).toHaveLength(0);
	});

	test('a dropped call Unpod redials: no call; the item names the same task, which Unpod calls again', async () => {
		settle();
		h.server.store.agentSettings.set(SEED.secondAgentHandle, { ...ANALYSED_AGENT, follow_up_enabled: false });
		const [call] = endedCalls(['00aa00'], 'completed', true);
		expect(call.status).toBe('scheduled');
		// As the push carried it: sent when the call completed, before Unpod scheduled the redial.
		const asPushed = { ...h.server.webhooks.taskDocument(call), status: 'completed' } as IDataObject;
		const [out] = await runFollowUp('unpodRedial', [asPushed]);
		expect(out).toMatchObject({
			follow_up: 'unpod',
			follow_up_reason: 'unpod_redial',
			follow_up_task_id: call.task_id,
			attempt: 1,
		});
		expect(h.server.requestsTo('POST', TASKS)).toHaveLength(0);
	});

	test('Get Many with Status Completed and Failed -> Follow Up: only ended calls listed, none called where Unpod calls again', async () => {
		settle();
		endedCalls(['0104aa', '0005aa']);
		endedCalls(['0206aa'], 'failed');
		const getMany = unpodNode('task', 'Get Many', {
			operation: 'getAll',
			callsOf: 'space',
			space: spaceRef(SEED.secondSpaceToken),
			returnAll: true,
			filters: { status: ['completed', 'failed'], search: 'Unpod (0104|0005|0206)' },
		});
		const id = workflows.chain(`getManyFollowUp${Date.now()}`, [getMany, followUp]);
		await h.n8n.importWorkflows(workflows.list.filter((w) => w.id === id));
		const result = await h.run(id);
		expect(result.exitCode).toBe(0);
		const listed = outputOf(result, 'Get Many');
		expect(new Set(listed.map((t) => t.status))).toEqual(new Set(['completed', 'failed']));
		const out = outputOf(result, 'Follow Up');
		const byTask = Object.fromEntries(out.map((o) => [String(o.task_id).slice(0, 7), o.follow_up]));
		// The callback and the unreached call are Unpod's to follow; the reached one is done.
		expect(byTask).toMatchObject({ T0104aa: 'unpod', T0005aa: 'none', T0206aa: 'unpod' });
		expect(h.server.requestsTo('POST', TASKS)).toHaveLength(0);
	});
});
