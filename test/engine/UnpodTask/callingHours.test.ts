/**
 * Keep to Calling Hours in n8n's engine against the local server, on a clock set to Saturday
 * 2026-11-28 00:06 UTC: Friday 16:06 in Los Angeles, 00:06 in London, 05:36 in India, 03:06 in
 * Moscow, 21:06 in Sao Paulo. What each operation sends, and what each item says.
 */
import { itemsOf, outputOf } from '../../../dev/harness/run-results';
import { rowsNode } from '../../../dev/harness/workflow-builders';
import { agentRef, createInSecondSpace, spaceRef, unpodNode } from '../../helpers/nodes';
import { harnessAt, Workflows } from '../../helpers/setup';
import { SEED } from '../../../dev/server/seed';

const NOW = Date.parse('2026-11-28T00:06:00Z');
const TASKS = `/spaces/${SEED.secondSpaceToken}/tasks/`;

const LOS_ANGELES = { name: 'Lena LA', phone: '+1 213 555 0100' };
const LONDON = { name: 'Lou London', phone: '+44 20 7039 1291' };
const INDIA = { name: 'Ishan India', phone: '+91 98123 45678' };
const MOSCOW = { name: 'Mira Moscow', phone: '+7 495 123 4567' };
const SAO_PAULO = { name: 'Sergio SP', phone: '+55 11 98765 4321' };
const MIAMI = { name: 'Mia Miami', phone: '+1 305 555 0100' };
const TOLL_FREE = { name: 'Tom Tollfree', phone: '+1 800 555 0100' };
const NO_COUNTRY = { name: 'Nina Nowhere', phone: '+800 1234 5678' };
const CONTACTS = [LOS_ANGELES, LONDON, INDIA, MOSCOW, SAO_PAULO, MIAMI, TOLL_FREE, NO_COUNTRY];

const create = (name: string, parameters: Record<string, unknown> = {}) =>
	createInSecondSpace({ callingHours: true, ...parameters }, { onError: 'continueRegularOutput' }, name);

const workflows = new Workflows();
const nowRun = workflows.chain('hoursNow', [rowsNode('Sheet', CONTACTS), create('Create')]);
const holdRun = workflows.chain('hoursHold', [
	rowsNode('Sheet', [LOS_ANGELES, LONDON]),
	create('Create', { options: { outsideHours: 'hold' } }),
]);
const autoRun = workflows.chain('hoursAuto', [
	rowsNode('Sheet', [LOS_ANGELES]),
	create('Create', { schedule: 'auto' }),
]);
const customRun = workflows.chain('hoursCustom', [
	rowsNode('Sheet', [LOS_ANGELES, LONDON]),
	create('Create', { schedule: 'custom', callAt: '2026-11-28T00:30:00' }),
]);
const fallbackRun = workflows.chain('hoursFallback', [
	rowsNode('Sheet', [NO_COUNTRY]),
	create('Create', { options: { timeZone: 'America/Chicago' } }),
]);
const ownZoneRun = workflows.chain('hoursOwnZone', [
	rowsNode('Sheet', [
		{ ...LONDON, tz: 'Asia/Tokyo' },
		{ ...LOS_ANGELES, tz: 'Mars/Olympus' },
	]),
	create('Create', { contactFields: { timezone: '={{ $json.tz }}' } } as Record<string, unknown>),
]);
const miamiAgain = workflows.chain('hoursMiamiLimit', [rowsNode('Sheet', [MIAMI]), create('Create')]);
const everyoneLimit = workflows.chain('hoursEveryoneLimit', [
	rowsNode('Sheet', [LOS_ANGELES]),
	create('Create', { options: { maxCallsPer24Hours: 1 } }),
]);
const offRun = workflows.chain('hoursOff', [
	rowsNode('Sheet', [LONDON]),
	createInSecondSpace({ callingHours: false }, {}, 'Create'),
]);

const callAndWait = (name: string, parameters: Record<string, unknown>) =>
	unpodNode('task', name, {
		operation: 'callAndWait',
		space: spaceRef(SEED.secondSpaceToken),
		agent: agentRef(SEED.secondAgentHandle),
		contactName: '={{ $json.name }}',
		contactNumber: '={{ $json.phone }}',
		callContext: 'Confirm the appointment',
		skipExisting: false,
		callingHours: true,
		...parameters,
	});
const waitInExecution = workflows.chain('hoursCallAndWait', [
	rowsNode('Sheet', [LOS_ANGELES, LONDON]),
	callAndWait('Call', { options: { checkSeconds: 5 } }),
]);
const capCallAndWait = workflows.chain('hoursCallAndWaitCap', [
	rowsNode('Sheet', [LOS_ANGELES]),
	callAndWait('Call', { skipExisting: true, options: { checkSeconds: 5, maxCallsPerDay: 10 } }),
]);
const waitUntilReported = workflows.chain('hoursUntilReported', [
	rowsNode('Sheet', [INDIA, MOSCOW]),
	callAndWait('Call', { waitMode: 'untilReported', options: { limitWaitMinutes: 300 } }),
]);
const waitTooLong = workflows.chain('hoursUntilReportedShort', [
	rowsNode('Sheet', [LONDON]),
	callAndWait('Call', { waitMode: 'untilReported', options: { limitWaitMinutes: 60 } }),
]);

const approval = workflows.chain('hoursApproval', [
	rowsNode('Approver', [LONDON]),
	unpodNode('task', 'Ask', {
		operation: 'sendAndWait',
		space: spaceRef(SEED.secondSpaceToken),
		agent: agentRef(SEED.secondAgentHandle),
		contactName: '={{ $json.name }}',
		contactNumber: '={{ $json.phone }}',
		message: 'May we refund 120 EUR on order 1234?',
		callingHours: true,
		options: { limitWaitMinutes: 600 },
	}),
]);

/** Ended calls as the triggers put them out with Simplify on, for Follow Up. */
const ended = (taskId: string, phone: string, extra: Record<string, unknown>) => ({
	task_id: taskId,
	run_id: 'Rprevious',
	status: 'failed',
	contact_name: `Contact ${taskId}`,
	contact_number: phone,
	call_status: 'busy',
	end_time: '2026-11-27T23:50:00.000Z',
	transcript: '',
	...extra,
});
const followUp = workflows.chain('hoursFollowUp', [
	rowsNode('Ended', [
		// Friday 15:50 in Los Angeles: 4 hours later is 19:50, after Follow Up's 19:00: Monday 09:00 there.
		ended('Tla0000000001', '+12135550100', {}),
		// A callback asked for 23:30 Saturday, London time: moved to Monday 09:00 there.
		ended('Tlon000000002', '+442070391291', {
			status: 'completed',
			call_status: 'completed',
			callback_requested: true,
			callback_time: '2026-11-28 23:30',
			transcript: 'Assistant: Hello\nContact: Call me tonight',
		}),
		// A number of no country (international freephone): no zone, no next call.
		ended('Tnone00000003', '+80012345678', {}),
	]),
	unpodNode(
		'task',
		'Follow Up',
		{
			operation: 'followUp',
			space: spaceRef(SEED.secondSpaceToken),
			agent: agentRef(SEED.secondAgentHandle),
			callContext: 'Try again',
			callingHours: true,
			// As the campaign examples set them: weekdays, 09:00 to 19:00, in the callee's zone.
			options: { callingDays: [1, 2, 3, 4, 5], callingFrom: '09:00', callingTo: '19:00' },
		},
		{ onError: 'continueRegularOutput' },
	),
]);

const h = harnessAt(NOW, workflows, { eachTestAtNow: true });
const posts = () => h.server.requestsTo('POST', TASKS).map((r) => r.body as Record<string, any>);

test('Schedule Now: each contact whose hours are open is called now, every other one at its next legal quarter hour, in UTC; one request per slot', async () => {
	const run = await h.run(nowRun);
	expect(run.exitCode).toBe(0);
	const out = outputOf(run, 'Create');
	const byName = Object.fromEntries(out.map((o) => [o.name, o]));
	expect(posts().map((p) => [p.schedule, p.documents.map((d: { name: string }) => d.name)])).toEqual([
		// Los Angeles (16:06), Miami (19:06, before Florida's 20:00) and the toll-free number: 00:06 UTC is
		// inside 08:00-21:00 in all of its 42 zones (22:00 to 00:30 UTC in November).
		[{ type: 'now' }, ['Lena LA', 'Mia Miami', 'Tom Tollfree']],
		[{ type: 'custom', calling_date: '2026-11-28', calling_time: '08:00' }, ['Lou London']],
		[{ type: 'custom', calling_date: '2026-11-28', calling_time: '02:30' }, ['Ishan India']],
		[{ type: 'custom', calling_date: '2026-11-28', calling_time: '05:00' }, ['Mira Moscow']],
		[{ type: 'custom', calling_date: '2026-11-28', calling_time: '11:00' }, ['Sergio SP']],
	]);
	expect(byName['Lena LA']).toMatchObject({ task_id: expect.stringMatching(/^T/) });
	expect(byName['Lena LA'].scheduled_at).toBeUndefined();
	expect(byName['Lou London']).toMatchObject({
		task_id: expect.stringMatching(/^T/),
		unpod_callee_time_zones: ['Europe/London'],
		unpod_callee_local_time: 'Sat 2026-11-28 00:06 (Europe/London)',
		scheduled_at: '2026-11-28T08:00:00.000Z',
	});
	// Which rule moved it, at the time there: one sentence shared by the rows of one callee.
	expect(byName['Lou London'].unpod_rescheduled).toBe(
		"Outside its calling hours at Sat 2026-11-28 00:06 (Europe/London) (the package's floor, kept everywhere: calls 08:00-21:00); scheduled for Sat 2026-11-28 08:00 (Europe/London)",
	);
	expect(byName['Sergio SP']).toMatchObject({
		unpod_callee_local_time: 'Fri 2026-11-27 21:06 (America/Sao_Paulo)',
		scheduled_at: '2026-11-28T11:00:00.000Z',
	});
	expect(byName['Nina Nowhere']).toMatchObject({
		unpod_created: false,
		unpod_callee_time_zones: [],
		unpod_next_allowed_at: null,
		unpod_held: expect.stringMatching(/\+80012345678: the number's time zone is not known .*; not called$/),
	});
	expect(byName['Nina Nowhere'].task_id).toBeUndefined();
	// Unpod keeps each moved call for its time.
	const london = h.server.store.tasksById.get(String(byName['Lou London'].task_id))!;
	expect(london.status).toBe('scheduled');
	expect(itemsOf(run, 'Create').map((i) => i.pairedItem)).toEqual(CONTACTS.map((_, item) => ({ item })));
});

test('Outside Calling Hours: Do Not Create leaves the contact out and says when it may be called', async () => {
	const run = await h.run(holdRun);
	expect(run.exitCode).toBe(0);
	expect(posts().map((p) => p.documents.length)).toEqual([1]);
	const [la, london] = outputOf(run, 'Create');
	expect(la.task_id).toMatch(/^T/);
	expect(london).toMatchObject({
		unpod_created: false,
		unpod_next_allowed_at: '2026-11-28T08:00:00.000Z',
		unpod_held:
			"Item 2: +442070391291: outside its calling hours at Sat 2026-11-28 00:06 (Europe/London) (the package's floor, kept everywhere: calls 08:00-21:00); not called; it may be called from Sat 2026-11-28 08:00 (Europe/London)",
	});
});

test("Schedule Auto is sent as Now when the callee's hours are open: Unpod's engine reads every +1 number as New York", async () => {
	await h.run(autoRun);
	expect(posts().map((p) => p.schedule)).toEqual([{ type: 'now' }]);
});

test('Schedule Custom: a time inside the hours is kept; one outside moves to the next legal time', async () => {
	const run = await h.run(customRun);
	expect(posts().map((p) => [p.schedule.calling_time, p.documents[0].name])).toEqual([
		// 00:30 UTC is 16:30 Friday in Los Angeles (19:30 in New York), 00:30 in London.
		['00:30', 'Lena LA'],
		['08:00', 'Lou London'],
	]);
	expect(outputOf(run, 'Create')[1].scheduled_at).toBe('2026-11-28T08:00:00.000Z');
});

test('a number whose zone is not known is called in Time Zone for Unknown Numbers', async () => {
	const run = await h.run(fallbackRun);
	// 18:06 Friday in Chicago.
	expect(posts().map((p) => p.schedule)).toEqual([{ type: 'now' }]);
	expect(outputOf(run, 'Create')[0].task_id).toMatch(/^T/);
});

test("a contact's own timezone wins over its number's; one that is no zone is a bad row naming the field", async () => {
	const run = await h.run(ownZoneRun);
	const [tokyo, bad] = outputOf(run, 'Create');
	// 09:06 Saturday in Tokyo: open, whatever London says.
	expect(tokyo.task_id).toMatch(/^T/);
	expect(posts().map((p) => p.schedule)).toEqual([{ type: 'now' }]);
	expect(String(bad.error)).toBe(
		'Item 2: timezone "Mars/Olympus" is not a time zone (use an IANA name such as America/Chicago)',
	);
});

test("Florida: a 4th call within 24 hours waits until the first of the 3 is 24 hours old; Unpod's redials count", async () => {
	// Miami was called at 00:06 (the first test); two tasks on Friday, one redialled by Unpod: four calls.
	const [first, second] = h.server.calls.addTasks(
		[
			{ name: MIAMI.name, contact_number: '+13055550100' },
			{ name: MIAMI.name, contact_number: '+13055550100' },
		],
		{ space: SEED.secondSpaceToken },
	);
	first.createdUs = Date.parse('2026-11-27T13:00:00Z') * 1000;
	second.createdUs = Date.parse('2026-11-27T15:00:00Z') * 1000;
	first.input.redial_count = 1;
	h.server.resetTraffic();

	const run = await h.run(miamiAgain);
	const [miami] = outputOf(run, 'Create');
	// The redialled task's two calls (13:00 UTC Friday) are 24 hours old at 13:00 Saturday, 08:00 in
	// Miami: then only 2 calls are within 24 hours; Unpod's engine lets +1 calls go from 09:00.
	expect(posts().map((p) => p.schedule)).toEqual([
		{ type: 'custom', calling_date: '2026-11-28', calling_time: '14:00' },
	]);
	expect(miami).toMatchObject({
		scheduled_at: '2026-11-28T14:00:00.000Z',
		unpod_rescheduled: expect.stringContaining(
			"4 calls to this number in 24 hours already (at most 3, Florida's law): Fri 2026-11-27 08:00, Fri 2026-11-27 08:00, Fri 2026-11-27 10:00, Fri 2026-11-27 19:06 (America/New_York)",
		),
	});
	// The space's tasks were read once, for the limit.
	expect(h.server.requestsTo('GET', TASKS)).toHaveLength(1);
});

test('Max Calls per 24 Hours holds for every number', async () => {
	const run = await h.run(everyoneLimit);
	// Lena LA was called in the first test, at 00:06: the next call 24 hours later.
	expect(outputOf(run, 'Create')[0]).toMatchObject({ scheduled_at: '2026-11-29T00:15:00.000Z' });
});

test('with Keep to Calling Hours off, a contact is called now at any hour', async () => {
	const run = await h.run(offRun);
	expect(posts().map((p) => p.schedule)).toEqual([{ type: 'now' }]);
	expect(outputOf(run, 'Create')[0].scheduled_at).toBeUndefined();
});

test('Call and Wait in the execution: a contact outside the hours is not called; the item says when it may be', async () => {
	h.server.calls.callScripts = [{ number: '+12135550100', end: 'completed', afterMs: 20_000 }];
	const run = await h.run(waitInExecution);
	expect(run.exitCode).toBe(0);
	const [la, london] = outputOf(run, 'Call');
	expect(posts().map((p) => p.documents.map((d: { name: string }) => d.name))).toEqual([['Lena LA']]);
	expect(la.status).toBe('completed');
	expect(london).toMatchObject({
		name: 'Lou London',
		unpod_created: false,
		unpod_next_allowed_at: '2026-11-28T08:00:00.000Z',
		unpod_callee_local_time: 'Sat 2026-11-28 00:06 (Europe/London)',
	});
});

test('Call and Wait with a cap: its guard reads its own day whole, the cap its weeks through the memory', async () => {
	h.server.calls.callScripts = [{ number: '+12135550100', end: 'completed', afterMs: 20_000 }];
	h.server.resetTraffic();
	const run = await h.run(capCallAndWait);
	expect(run.exitCode).toBe(0);
	const now = Math.floor(NOW / 1000);
	// The guard's 24 hours (a skipped call's whole task is put out), then the cap's day and the 45
	// days a call may be moved: a task created then may ring today. The second read goes through
	// the node's memory, which later runs read on from (as Create's: create.guardMemory.test.ts).
	const froms = h.server.requestsTo('GET', TASKS).map((r) => Number(r.query.from_ts));
	expect(froms).toEqual([now - 24 * 3600, now - 46 * 86_400]);
});

test('Call and Wait until Unpod reports: every call at the first time legal for all, within Limit Wait Time', async () => {
	const run = await h.run(waitUntilReported);
	expect(run.exitCode).toBe(0);
	// India opens at 02:30 UTC (08:00 there), Moscow at 05:00 UTC: both at 05:00, 4 h 54 min from now.
	expect(posts().map((p) => [p.schedule, p.documents.length])).toEqual([
		[{ type: 'custom', calling_date: '2026-11-28', calling_time: '05:00' }, 2],
	]);
	const tooLong = await h.run(waitTooLong);
	expect(tooLong.exitCode).toBe(1);
	expect(tooLong.resultData?.error?.message).toBe(
		'Outside calling hours: the first time legal for every callee is 2026-11-28T08:00:00.000Z (Sat 2026-11-28 08:00 (Europe/London) for item 1), after Limit Wait Time. Nothing was sent.',
	);
	expect(posts()).toHaveLength(1);
});

test('Call and Wait for Approval: an approver outside their hours is called at their next legal time, within Limit Wait Time', async () => {
	const run = await h.run(approval);
	expect(run.exitCode).toBe(0);
	expect(posts().map((p) => [p.schedule, p.documents[0].name])).toEqual([
		[{ type: 'custom', calling_date: '2026-11-28', calling_time: '08:00' }, 'Lou London'],
	]);
});

test("Follow Up: retries and callbacks land in the callee's own hours; a callback asked at an illegal hour says it moved", async () => {
	const run = await h.run(followUp);
	expect(run.exitCode).toBe(0);
	const [la, london, none] = outputOf(run, 'Follow Up');
	expect(la).toMatchObject({ follow_up: 'retry', follow_up_at: '2026-11-30T17:00:00.000Z' });
	expect(london).toMatchObject({
		follow_up: 'callback',
		follow_up_at: '2026-11-30T09:00:00.000Z',
		unpod_rescheduled: expect.stringMatching(/^The callback asked for 2026-11-28T23:30:00.000Z falls outside/),
	});
	expect(none).toMatchObject({
		follow_up: 'none',
		follow_up_reason: expect.stringMatching(/^calling_hours: the number's time zone is not known/),
	});
	expect(posts().map((p) => p.schedule.calling_date + ' ' + p.schedule.calling_time)).toEqual([
		'2026-11-30 17:00',
		'2026-11-30 09:00',
	]);
});
