/**
 * The law where the phone rings, as a user meets it: Task > Create with Schedule Custom and a
 * Call At per row, Keep to Calling Hours on, in n8n's engine against the local server, on a
 * clock set to Saturday 2026-11-28 00:06 UTC. Each call asked for an hour the law there forbids
 * is moved to a later, legal time; each asked for a legal one is sent as asked. Then limits
 * counted across one run and a 30-day history, a Call At already past, the user's own hours with
 * the law's rules off, and Follow Up's callback read where most of the number's people live.
 */
import { outputOf } from '../../../dev/harness/run-results';
import { rowsNode } from '../../../dev/harness/workflow-builders';
import { ZoneClock } from '../../../nodes/shared/callingHours/window';
import { agentRef, createInSecondSpace, spaceRef, unpodNode } from '../../helpers/nodes';
import { harnessAt, Workflows } from '../../helpers/setup';
import { SEED } from '../../../dev/server/seed';

const NOW = Date.parse('2026-11-28T00:06:00Z');
const TASKS = `/spaces/${SEED.secondSpaceToken}/tasks/`;
const clock = new ZoneClock();

/** A contact whose Call At is `local` (`2027-03-07 10:00`) on the wall clock of `zone`. */
function asked(name: string, phone: string, zone: string, local: string) {
	const [y, m, d, h, mi] = local.split(/[- :]/).map(Number);
	return { name, phone, callAt: new Date(clock.instant(y, m, d, h, mi, zone)).toISOString().slice(0, 16) };
}

const CHICAGO = 'America/Chicago';
// Saturday 2027-03-06, Sunday 7, Monday 8, Tuesday 9; US summer time starts on the 14th.
const FORBIDDEN = [
	asked('Texas Sunday 10:00', '+15125550101', CHICAGO, '2027-03-07 10:00'),
	asked('Texas Monday 08:30', '+15125550102', CHICAGO, '2027-03-08 08:30'),
	asked('Louisiana Sunday', '+15045550103', CHICAGO, '2027-03-07 12:00'),
	asked('Alabama Sunday', '+12055550104', CHICAGO, '2027-03-07 12:00'),
	asked('Utah Sunday', '+18015550105', 'America/Denver', '2027-03-07 12:00'),
	asked('Mississippi Sunday', '+16015550106', CHICAGO, '2027-03-07 12:00'),
	asked('Alabama Christmas', '+12055550107', CHICAGO, '2026-12-25 12:00'),
	asked("Utah New Year's Day", '+18015550108', 'America/Denver', '2027-01-01 12:00'),
	asked('Rhode Island Saturday 09:30', '+14015550109', 'America/New_York', '2027-03-06 09:30'),
	asked('Rhode Island Tuesday 18:30', '+14015550110', 'America/New_York', '2027-03-09 18:30'),
	asked('Ontario Saturday 18:30', '+14165550111', 'America/Toronto', '2027-03-06 18:30'),
	asked('Ontario Sunday 09:30', '+14165550112', 'America/Toronto', '2027-03-07 09:30'),
	asked('France Saturday', '+33145670113', 'Europe/Paris', '2027-03-06 11:00'),
	asked('France Tuesday 09:15', '+33145670114', 'Europe/Paris', '2027-03-09 09:15'),
	asked('France Tuesday 13:30', '+33145670115', 'Europe/Paris', '2027-03-09 13:30'),
	asked('France Christmas', '+33145670116', 'Europe/Paris', '2026-12-25 11:00'),
	asked('Sydney Sunday', '+61298760117', 'Australia/Sydney', '2027-03-07 12:00'),
	asked('Sydney Saturday 17:30', '+61298760118', 'Australia/Sydney', '2027-03-06 17:30'),
	asked('Sydney Christmas', '+61298760119', 'Australia/Sydney', '2026-12-25 12:00'),
	asked('Australian mobile 06:30 in Perth', '+61412340120', 'Australia/Perth', '2027-03-09 06:30'),
	asked('Johannesburg Saturday 14:00', '+27115550121', 'Africa/Johannesburg', '2027-03-06 14:00'),
	asked('Johannesburg Sunday', '+27115550122', 'Africa/Johannesburg', '2027-03-07 12:00'),
	asked('Russian mobile 21:00 in Vladivostok', '+79141230123', 'Asia/Vladivostok', '2027-03-09 21:00'),
];
const ALLOWED = [
	asked('Texas Monday 10:00', '+15125550201', CHICAGO, '2027-03-08 10:00'),
	asked('Rhode Island Monday 10:00', '+14015550202', 'America/New_York', '2027-03-08 10:00'),
	asked('Ontario Sunday 12:00', '+14165550203', 'America/Toronto', '2027-03-07 12:00'),
	asked('France Tuesday 14:30', '+33145670204', 'Europe/Paris', '2027-03-09 14:30'),
	asked('Sydney Saturday 10:00', '+61298760205', 'Australia/Sydney', '2027-03-06 10:00'),
	asked('Johannesburg Saturday 10:00', '+27115550206', 'Africa/Johannesburg', '2027-03-06 10:00'),
];
// Chile's clock skips midnight on 2027-09-05: 22:00 the evening before goes to the next morning.
const SANTIAGO = asked('Santiago Saturday 22:00', '+56223450301', 'America/Santiago', '2027-09-04 22:00');

const custom = (name: string, parameters: Record<string, unknown> = {}) =>
	createInSecondSpace(
		{ callingHours: true, skipExisting: false, schedule: 'custom', callAt: '={{ $json.callAt }}', ...parameters },
		{ onError: 'continueRegularOutput' },
		name,
	);
const now = (parameters: Record<string, unknown> = {}) =>
	createInSecondSpace({ callingHours: true, skipExisting: false, ...parameters }, { onError: 'continueRegularOutput' });

const workflows = new Workflows();
const lawRun = workflows.chain('lawCustom', [
	rowsNode('Sheet', [...FORBIDDEN, ...ALLOWED, SANTIAGO]),
	custom('Create'),
]);
const fiveRows = workflows.chain('lawFiveRows', [
	rowsNode(
		'Sheet',
		Array.from({ length: 5 }, (_, i) => ({ name: `Row ${i + 1}`, phone: '+1 305 555 0150' })),
	),
	now(),
]);
const french = workflows.chain('lawFrance30Days', [
	rowsNode('Sheet', [{ name: 'Fleur', phone: '+33 1 45 67 01 50' }]),
	now(),
]);
const past = workflows.chain('lawPast', [
	rowsNode('Sheet', [{ name: 'Lou London', phone: '+44 20 7039 1291', callAt: '2026-11-27T10:00' }]),
	custom('Create'),
]);
// Keep to Calling Hours off: the user's own days and hours still hold, in the callee's zone.
const ownHours = workflows.chain('lawOwnHoursOnly', [
	rowsNode('Sheet', [{ name: 'Lou London', phone: '+44 20 7039 1291' }]),
	now({ callingHours: false, options: { callingDays: [1, 2, 3, 4, 5], callingFrom: '09:00', callingTo: '17:00' } }),
]);
const followUp = workflows.chain('lawFollowUp', [
	rowsNode('Ended', [
		{
			task_id: 'Tak0000000001',
			run_id: 'Rprevious',
			status: 'completed',
			call_status: 'completed',
			contact_name: 'Alaska',
			contact_number: '+19075550160',
			callback_requested: true,
			// No zone of its own: read where most of Alaska's people live, Anchorage, not Adak.
			callback_time: '2026-11-30 10:00',
			transcript: 'Assistant: Hello\nContact: Call me Monday at ten',
			end_time: '2026-11-27T23:50:00.000Z',
		},
		{
			task_id: 'Tun0000000002',
			run_id: 'Rprevious',
			status: 'completed',
			call_status: 'completed',
			contact_name: 'Lou London',
			contact_number: '+442070391291',
			transcript: 'Assistant: Hello\nContact: Busy now',
			end_time: '2026-11-27T23:50:00.000Z',
			// Unpod's own follow-up engine set a call for 02:00 London time.
			unpod_follow_up_status: 'call_scheduled',
			unpod_follow_up_at: '2026-11-28T02:00:00.000Z',
		},
	]),
	unpodNode(
		'task',
		'Follow Up',
		{
			operation: 'followUp',
			space: spaceRef(SEED.secondSpaceToken),
			agent: agentRef(SEED.secondAgentHandle),
			callContext: 'Call back',
			callingHours: true,
		},
		{ onError: 'continueRegularOutput' },
	),
]);

const h = harnessAt(NOW, workflows, { eachTestAtNow: true });
const posts = () => h.server.requestsTo('POST', TASKS).map((r) => r.body as Record<string, any>);

test('23 calls asked for hours the law there forbids are each moved later; 6 asked for legal hours go as asked', async () => {
	const run = await h.run(lawRun);
	expect(run.exitCode).toBe(0);
	const out = outputOf(run, 'Create');
	const byName = Object.fromEntries(out.map((o) => [o.name, o]));
	const sentAt = new Map<string, string>();
	for (const post of posts())
		for (const doc of post.documents)
			sentAt.set(doc.name, `${post.schedule.calling_date}T${post.schedule.calling_time}`);
	expect(sentAt.size).toBe(FORBIDDEN.length + ALLOWED.length + 1);
	for (const row of ALLOWED) expect([row.name, sentAt.get(row.name)]).toEqual([row.name, row.callAt]);
	for (const row of FORBIDDEN) {
		expect([row.name, sentAt.get(row.name)! > row.callAt]).toEqual([row.name, true]);
		expect(byName[row.name].scheduled_at).toBe(`${sentAt.get(row.name)}:00.000Z`);
	}
	// Texas on a Sunday from noon; France after lunch; Johannesburg's Saturday ends at 13:00: Monday.
	expect(sentAt.get('Texas Sunday 10:00')).toBe('2027-03-07T18:00');
	expect(sentAt.get('France Tuesday 13:30')).toBe('2027-03-09T13:00');
	expect(sentAt.get('Johannesburg Saturday 14:00')).toBe('2027-03-08T06:00');
	// The mobile may ring anywhere +61 reaches, the Cocos Islands (UTC+6:30) the latest: 09:00 there,
	// 10:30 in Perth, 13:30 in Sydney.
	expect(sentAt.get('Australian mobile 06:30 in Perth')).toBe('2027-03-09T02:30');
	expect(byName['Australian mobile 06:30 in Perth'].unpod_callee_time_zones).toEqual(
		expect.arrayContaining(['Australia/Sydney', 'Australia/Perth', 'Indian/Cocos']),
	);
	// Across Santiago's skipped midnight to the next morning; Google's data puts every +56 number on
	// Easter Island's clock too, whose 08:00 is 10:00 in Santiago.
	expect(sentAt.get(SANTIAGO.name)).toBe('2027-09-05T13:00');
});

test('five rows of one Florida number in one run: three now, two the next day', async () => {
	const run = await h.run(fiveRows);
	expect(posts().map((p) => [p.schedule, p.documents.length])).toEqual([
		[{ type: 'now' }, 3],
		[{ type: 'custom', calling_date: '2026-11-29', calling_time: '00:15' }, 2],
	]);
	expect(outputOf(run, 'Create')[4].unpod_rescheduled).toMatch(/^3 calls to this number in 24 hours already \(at most 3, Florida's law\): Fri 2026-11-27 19:06, Fri 2026-11-27 19:06, Fri 2026-11-27 19:06 \(America\/New_York\)/);
});

test('a French number with 4 calls in the last 19 days: the 5th when the oldest is 30 days old', async () => {
	const tasks = h.server.calls.addTasks(
		[19, 12, 5, 1].map(() => ({ name: 'Fleur', contact_number: '+33145670150' })),
		{ space: SEED.secondSpaceToken },
	);
	[19, 12, 5, 1].forEach((days, i) => (tasks[i].createdUs = (NOW - days * 86_400_000) * 1000));
	h.server.resetTraffic();
	const run = await h.run(french);
	// The oldest was created 2026-11-09 00:06 UTC: 30 days on is Wednesday 2026-12-09, 10:00 in Paris.
	expect(posts().map((p) => p.schedule)).toEqual([
		{ type: 'custom', calling_date: '2026-12-09', calling_time: '09:00' },
	]);
	expect(outputOf(run, 'Create')[0].unpod_rescheduled).toMatch(
		/^4 calls to this number in 30 days already \(at most 4, France's law\): Mon 2026-11-09 01:06, Mon 2026-11-16 01:06, Mon 2026-11-23 01:06, Fri 2026-11-27 01:06 \(Europe\/Paris\)/,
	);
	expect(h.server.requestsTo('GET', TASKS)).toHaveLength(1);
});

test('a Call At already past is not sent as such: London at 00:06 goes at 08:00, saying why', async () => {
	const run = await h.run(past);
	expect(posts().map((p) => p.schedule)).toEqual([
		{ type: 'custom', calling_date: '2026-11-28', calling_time: '08:00' },
	]);
	expect(outputOf(run, 'Create')[0].unpod_rescheduled).toMatch(/^Call At 2026-11-27T10:00:00.000Z had passed/);
});

test("with Keep to Calling Hours off, the user's own Calling Days and Hours still hold, in the callee's zone", async () => {
	const run = await h.run(ownHours);
	// Saturday 00:06 in London: Monday 09:00 there.
	expect(posts().map((p) => p.schedule)).toEqual([
		{ type: 'custom', calling_date: '2026-11-30', calling_time: '09:00' },
	]);
	expect(outputOf(run, 'Create')[0].scheduled_at).toBe('2026-11-30T09:00:00.000Z');
});

test("Follow Up reads a callback time with no zone where most of the number's people live: Anchorage", async () => {
	const run = await h.run(followUp);
	// Monday 10:00 in Anchorage (UTC-9) is 19:00 UTC; in Adak it would be 20:00.
	expect(outputOf(run, 'Follow Up')[0]).toMatchObject({
		follow_up: 'callback',
		follow_up_at: '2026-11-30T19:00:00.000Z',
	});
});

test("Follow Up says so where Unpod's own follow-up rings outside the callee's calling hours", async () => {
	const run = await h.run(followUp);
	expect(outputOf(run, 'Follow Up')[1]).toMatchObject({
		follow_up: 'unpod',
		unpod_outside_hours:
			"Unpod's own follow-up rings at Sat 2026-11-28 02:00 (Europe/London), outside the callee's calling hours; Unpod cannot be told to move it",
	});
});
