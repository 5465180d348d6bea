/**
 * Numbers that cost far more than a call, and countries not allowed, in n8n's engine against the
 * local server: Create leaves each out before any request and its item says why; the option
 * allows them; Allowed Countries keeps to its countries; a code that is no country stops the
 * node; a wait (the approval) places none; Follow Up schedules no next call to such a number.
 */
import { outputOf } from '../../../dev/harness/run-results';
import { rowsNode } from '../../../dev/harness/workflow-builders';
import { createInSecondSpace, taskInSecondSpace } from '../../helpers/nodes';
import { harnessAt, Workflows } from '../../helpers/setup';
import { SEED } from '../../../dev/server/seed';

const TASKS = `/spaces/${SEED.secondSpaceToken}/tasks/`;

/** What a new user pasted: the six costly numbers, the other kinds, and ordinary ones. */
const COSTLY = [
	{ name: 'US premium rate', phone: '+1 900 555 0123', kind: 'premium-rate' },
	{ name: 'UK premium rate', phone: '+44 909 090 1234', kind: 'premium-rate' },
	{ name: 'France premium rate', phone: '+33 8 99 12 34 56', kind: 'premium-rate' },
	{ name: 'Germany premium rate', phone: '+49 900 1 234567', kind: 'premium-rate' },
	{ name: 'Inmarsat', phone: '+870 773 123 456', kind: 'satellite' },
	{ name: 'International network', phone: '+882 16 1234 5678', kind: 'international network' },
	{ name: 'Iridium', phone: '+881 6 1234 5678', kind: 'satellite' },
	{ name: 'International premium rate', phone: '+979 123 456 789', kind: 'international premium-rate' },
	{ name: 'International shared cost', phone: '+808 1234 5678', kind: 'international shared-cost' },
	{ name: 'France shared cost', phone: '+33 8 10 12 34 56', kind: 'shared-cost' },
	{ name: 'UK personal number', phone: '+44 70 1234 5678', kind: 'personal' },
];
const ORDINARY = [
	{ name: 'New York', phone: '+1 212 555 0123' },
	{ name: 'Toronto', phone: '+1 416 555 0123' },
	{ name: 'London', phone: '+44 20 7946 0321' },
	{ name: 'Kingston', phone: '+1 876 555 0123' },
];

const create = (options: Record<string, unknown> = {}) =>
	createInSecondSpace({ callingHours: false, skipExisting: false, options }, { onError: 'continueRegularOutput' });

const workflows = new Workflows();
const pasted = workflows.chain('costlyPasted', [rowsNode('Sheet', [...COSTLY, ...ORDINARY]), create()]);
const allowed = workflows.chain('costlyAllowed', [
	rowsNode('Sheet', [...COSTLY, ...ORDINARY]),
	create({ allowCostlyNumbers: true }),
]);
const northAmerica = workflows.chain('countriesUsCa', [
	rowsNode('Sheet', ORDINARY),
	create({ allowedCountries: 'us, CA' }),
]);
const badCountry = workflows.chain('countriesBad', [
	rowsNode('Sheet', ORDINARY),
	createInSecondSpace({ callingHours: false, skipExisting: false, options: { allowedCountries: 'US, UK' } }),
]);
const approval = workflows.chain('costlyApproval', [
	rowsNode('Approvers', [ORDINARY[0], COSTLY[0]]),
	taskInSecondSpace('Ask', { operation: 'sendAndWait', callingHours: false, message: 'Approve the refund?' }),
]);
const followUp = workflows.chain('costlyFollowUp', [
	rowsNode(
		'Ended',
		[COSTLY[1], ORDINARY[2]].map((contact, i) => ({
			task_id: `Tcostly00000${i}`,
			run_id: 'Rprevious',
			status: 'failed',
			call_status: 'no_answer',
			contact_name: contact.name,
			contact_number: contact.phone.replace(/ /g, ''),
			end_time: '2026-11-27T10:00:00.000Z',
		})),
	),
	taskInSecondSpace('Follow Up', { operation: 'followUp', callingHours: false, options: { allowedCountries: 'GB' } }),
]);

// Tuesday 10:00 in London and 05:00 in New York: no calling hours are kept here (Keep to Calling Hours off).
const h = harnessAt(Date.parse('2026-12-01T10:00:00Z'), workflows, { eachTestAtNow: true });
const sentNumbers = () =>
	h.server
		.requestsTo('POST', TASKS)
		.flatMap((r) => (r.body as { documents: Array<{ contact_number: string }> }).documents)
		.map((d) => d.contact_number);

test('each number that costs more is left out before any request, its item saying what it is; the rest are called', async () => {
	const run = await h.run(pasted);
	expect(run.exitCode).toBe(0);
	expect(sentNumbers()).toEqual(['+12125550123', '+14165550123', '+442079460321', '+18765550123']);
	const out = outputOf(run, 'Create');
	COSTLY.forEach((row, i) => {
		expect(out[i]).toMatchObject({ name: row.name, unpod_created: false });
		expect([row.name, out[i].unpod_refused]).toEqual([
			row.name,
			expect.stringMatching(
				new RegExp(
					`^Item ${i + 1}: \\+\\d+ is a ${row.kind} number \\(\\+\\d+\\), which costs far more than a call; not called \\(Options > Allow Premium-Rate and Satellite Numbers\\)$`,
				),
			),
		]);
		expect(out[i]).not.toHaveProperty('do_not_call');
	});
	for (const row of out.slice(COSTLY.length)) expect(row.task_id).toMatch(/^T/);
});

test('Allow Premium-Rate and Satellite Numbers calls them all', async () => {
	const run = await h.run(allowed);
	expect(run.exitCode).toBe(0);
	expect(sentNumbers()).toHaveLength(COSTLY.length + ORDINARY.length);
	expect(outputOf(run, 'Create').every((row) => typeof row.task_id === 'string')).toBe(true);
});

test('Allowed Countries: the US and Canada are called; the UK and Jamaica are not, each item naming its country', async () => {
	const run = await h.run(northAmerica);
	expect(sentNumbers()).toEqual(['+12125550123', '+14165550123']);
	const [, , london, kingston] = outputOf(run, 'Create');
	expect(london.unpod_refused).toBe(
		'Item 3: +442079460321 is a number of GB, not of Allowed Countries (US, CA); not called',
	);
	expect(kingston.unpod_refused).toBe(
		'Item 4: +18765550123 is a number of JM, not of Allowed Countries (US, CA); not called',
	);
});

test('a code that is no country stops the node before any request, naming the field and the code', async () => {
	const run = await h.run(badCountry);
	expect(run.exitCode).not.toBe(0);
	expect(run.resultData?.error?.message).toMatch(/^Item 1: Allowed Countries: "UK" is not a country code/);
	expect(h.server.requestsTo('POST', TASKS)).toHaveLength(0);
});

test('an approval with a costly approver places no call at all, naming the item', async () => {
	const run = await h.run(approval);
	expect(run.exitCode).not.toBe(0);
	expect(run.resultData?.error?.message).toBe(
		'Item 2, the approver: +19005550123 is a premium-rate number (+1), which costs far more than a call; not called (Options > Allow Premium-Rate and Satellite Numbers). Nothing was sent.',
	);
	expect(h.server.requestsTo('POST', TASKS)).toHaveLength(0);
});

test('Follow Up schedules no retry to a number not allowed, and says why', async () => {
	const run = await h.run(followUp);
	expect(run.exitCode).toBe(0);
	const [premium, london] = outputOf(run, 'Follow Up');
	expect(premium).toMatchObject({ follow_up: 'none', follow_up_at: null });
	expect(premium.follow_up_reason).toMatch(/^not_allowed: \+449090901234 is a premium-rate number/);
	expect(london).toMatchObject({ follow_up: 'retry' });
	expect(sentNumbers()).toEqual(['+442079460321']);
});
