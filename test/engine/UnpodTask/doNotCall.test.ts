/**
 * Do-not-call in n8n's engine against the local server: a person who opts out on a call is
 * never called again (Follow Up, a re-import with the guard off, another campaign, an approval),
 * and a list entry that is no phone number stops the node before any request. Calls run on the
 * test's clock.
 */
import { TestClock } from '../../helpers/clock';
import { stopExecuteContextTimers } from '../../../dev/harness/engine';
import { createExecutor } from '../../helpers/execute';
import { outputOf } from '../../../dev/harness/run-results';
import { rowsNode } from '../../../dev/harness/workflow-builders';
import { agentRef, spaceRef, taskInSecondSpace } from '../../helpers/nodes';
import { Harness, startHarness, Workflows } from '../../helpers/setup';
import { SEED } from '../../../dev/server/seed';
import { ANALYSED_AGENT } from '../../../dev/server/postCall';
import { simplifyTask } from '../../../nodes/shared/outcome';
import type { IDataObject } from 'n8n-workflow';

const TASKS = `/spaces/${SEED.secondSpaceToken}/tasks/`;
const OPTS_OUT = { name: 'Olga Optout', phone: '+1 (646) 555-0188' };
const SAYS_YES = { name: 'Yuri Yes', phone: '+1 646 555 0199' };

const inSecondSpace = taskInSecondSpace;

const workflows = new Workflows();
const firstCalls = workflows.chain('dncFirstCalls', [
	rowsNode('Sheet', [OPTS_OUT, SAYS_YES]),
	inSecondSpace('Call', { operation: 'callAndWait', skipExisting: false, options: { checkSeconds: 5 } }),
	inSecondSpace('Follow Up', { operation: 'followUp', options: { timeZone: 'America/New_York' } }),
]);

let h: Harness;
const clock = TestClock.install();

beforeAll(async () => {
	jest.setSystemTime(Date.parse('2026-11-25T15:00:00Z'));
	h = await startHarness({ agentSettings: { [SEED.secondAgentHandle]: ANALYSED_AGENT } }, workflows, clock);
	h.server.calls.callScripts = [
		{ number: '+16465550188', end: 'completed', afterMs: 20_000, outcome: 'do_not_call' },
		{ number: '+16465550199', end: 'completed', afterMs: 20_000, outcome: 'callback' },
	];
});
afterAll(async () => {
	stopExecuteContextTimers();
	await h?.close();
	clock.uninstall();
});

test('the outcome says do_not_call, with its reason; Follow Up schedules nothing for it and says so', async () => {
	const run = await h.run(firstCalls);
	expect(run.exitCode).toBe(0);
	const [olga, yuri] = outputOf(run, 'Call');
	expect(olga).toMatchObject({ do_not_call: true, do_not_call_reason: 'Asked to be taken off the list' });
	expect(olga.transcript).toMatch(/do not call me again/);
	expect(yuri).toMatchObject({ do_not_call: false, do_not_call_reason: null });

	const [olgaNext, yuriNext] = outputOf(run, 'Follow Up');
	expect(olgaNext).toMatchObject({
		task_id: olga.task_id,
		follow_up: 'none',
		follow_up_reason: 'do_not_call',
		follow_up_at: null,
		do_not_call: true,
		do_not_call_reason: 'Asked to be taken off the list',
		unpod_next_call_task_id: null,
	});
	expect(olgaNext.unpod_warning).toBeUndefined();
	// The one who asked for a callback gets it from Unpod's own follow-up; the one who said no, nothing.
	expect(yuriNext).toMatchObject({ follow_up: 'unpod', do_not_call: false });
	const sent = h.server.requestsTo('POST', TASKS).flatMap((r) => (r.body as { documents: any[] }).documents);
	expect(sent.map((d) => d.contact_number)).toEqual(['+16465550188', '+16465550199']);
	const olgas = h.server.store.tasks.filter((t) => t.input.contact_number === '+16465550188');
	expect(olgas.map((t) => t.status)).toEqual(['completed']);
});

test("Unpod's own follow-up scheduled all the same: the item names it and warns, and nothing else is scheduled", async () => {
	h.server.resetTraffic();
	const [ended, unpods] = h.server.calls.addTasks(
		[
			{ name: 'Nina No', contact_number: '+16465550177' },
			{ name: 'Nina No', contact_number: '+16465550177' },
		],
		{ space: SEED.secondSpaceToken, pilot: SEED.secondAgentHandle, context: 'first call' },
	);
	ended.outcome = 'do_not_call';
	h.server.store.finishTask(ended, 'completed');
	// As Unpod's follow-up engine leaves it when its LLM still asked for a next call.
	unpods.status = 'scheduled';
	unpods.output = { referenced_task: ended.task_id, followup_count: 1, scheduled_time: '2026-11-26T15:00:00.000Z' };
	const flat: IDataObject = {
		...simplifyTask(h.server.webhooks.taskDocument(ended) as IDataObject),
		unpod_follow_up_status: 'call_scheduled',
		unpod_follow_up_at: '2026-11-26T15:00:00.000Z',
	};
	expect(flat.do_not_call).toBe(true);
	h.server.resetTraffic();
	const id = workflows.chain(`dncUnpodAgain${Date.now()}`, [
		rowsNode('Ended', [flat]),
		inSecondSpace('Follow Up', { operation: 'followUp' }),
	]);
	await h.n8n.importWorkflows(workflows.list.filter((w) => w.id === id));
	const [out] = outputOf(await h.run(id), 'Follow Up');
	expect(out).toMatchObject({
		follow_up: 'none',
		follow_up_reason: 'do_not_call',
		do_not_call: true,
		unpod_next_call_task_id: unpods.task_id,
		unpod_next_call_at: '2026-11-26T15:00:00.000Z',
		unpod_warning: expect.stringContaining(`Unpod itself calls this contact again (task ${unpods.task_id})`),
	});
	expect(h.server.requestsTo('POST', TASKS)).toHaveLength(0);
});

describe('every path that places a call refuses a do-not-call number before any request', () => {
	const executor = (parameters: Record<string, unknown>, onError?: 'continueRegularOutput' | 'continueErrorOutput') =>
		createExecutor(
			h.server,
			{
				space: spaceRef(SEED.secondSpaceToken),
				agent: agentRef(SEED.secondAgentHandle),
				callContext: 'Another campaign',
				doNotCall: '={{ $json.do_not_call }}',
				...parameters,
			},
			onError,
		);
	const posted = () => h.server.requestsTo('POST', TASKS).flatMap((r) => (r.body as { documents: any[] }).documents);
	beforeEach(() => h.server.resetTraffic());

	test('a row whose column says so (TRUE, yes, 1), and a number on the list written another way', async () => {
		const sheet = [
			{ row_number: 2, name: 'Olga Optout', phone: '646-555-0188', do_not_call: 'TRUE' },
			{ row_number: 3, name: 'Pat Plain', phone: '+1 646 555 0101', do_not_call: '' },
			{ row_number: 4, name: 'Quin Yes', phone: '+1 646 555 0102', do_not_call: 'yes' },
			{ row_number: 5, name: 'Olga Again', phone: '001.646.555.0188' },
			{ row_number: 6, name: 'Rae One', phone: '+1 646 555 0103', do_not_call: 1 },
		];
		const output = await executor({
			doNotCallNumbers: '(646) 555-0188\n+44 20 7946 0958',
			options: { defaultCountryCode: '+1' },
		}).run(sheet);
		expect(posted().map((d) => d.name)).toEqual(['Pat Plain']);
		expect(output.map((i) => i.pairedItem)).toEqual([0, 1, 2, 3, 4].map((item) => ({ item })));
		expect(output.map((i) => i.json.unpod_refused ?? null)).toEqual([
			'Row 2: +16465550188 is on the do-not-call list (its Do Not Call says yes); not called',
			null,
			'Row 4: +16465550102 is on the do-not-call list (its Do Not Call says yes); not called',
			'Row 5: +16465550188 is on the do-not-call list (Do-Not-Call Numbers); not called',
			'Row 6: +16465550103 is on the do-not-call list (its Do Not Call says yes); not called',
		]);
		expect(output[0].json).toMatchObject({ ...sheet[0], do_not_call: true, unpod_created: false });
		expect(output[1].json.task_id).toEqual(expect.any(String));
	});

	test('the list as an expression of rows a Data Table gave; on the error output, the not-created one', async () => {
		const rows = [{ name: 'Olga', phone: '+16465550188' }];
		const list = [{ phone: '+1 646 555 0188', reason: 'asked on a call', source: 'call' }];
		const output = await executor({ doNotCallNumbers: `={{ ${JSON.stringify(list)} }}` }, 'continueErrorOutput').run(
			rows,
		);
		expect(posted()).toEqual([]);
		expect(output[0].json).toEqual({
			error: 'Item 1: +16465550188 is on the do-not-call list (Do-Not-Call Numbers); not called',
			do_not_call: true,
			unpod_created: false,
			unpod_refused_by: 'doNotCall',
			unpod_refused: 'Item 1: +16465550188 is on the do-not-call list (Do-Not-Call Numbers); not called',
		});
		expect(output[0].error?.message).toBe(output[0].json.error);
	});

	test('a list entry that is not a phone number stops the node before any call, naming the entry', async () => {
		await expect(
			executor({ doNotCallNumbers: '+16465550188, ann@example.com, 42' }, 'continueRegularOutput').run([SAYS_YES]),
		).rejects.toThrow('Do-Not-Call Numbers: entry 2, "ann@example.com", is not a phone number. Nothing was sent.');
		expect(h.server.requests).toHaveLength(0);
	});

	test('refused rows are counted apart from bad rows', async () => {
		await expect(
			executor({ doNotCallNumbers: '+16465550188' }).run([
				{ name: 'Olga', phone: '+16465550188' },
				{ name: '', phone: '+16465550101' },
			]),
		).rejects.toThrow('Item 2: name is missing. Nothing was sent.');
		expect(posted()).toEqual([]);
	});

	test('Call and Wait for Approval and Call and Wait until reported stop before any request', async () => {
		const approval = executor({
			operation: 'sendAndWait',
			message: 'May we refund 120 EUR?',
			doNotCallNumbers: '6465550188',
		});
		await expect(approval.run([{ name: 'Olga', phone: '+16465550188' }])).rejects.toThrow(
			'Item 1, the approver: +16465550188 is on the do-not-call list (Do-Not-Call Numbers); not called. Nothing was sent.',
		);
		const parked = executor({ operation: 'callAndWait', waitMode: 'untilReported' });
		await expect(
			parked.run([
				{ name: 'Pat', phone: '+16465550101' },
				{ name: 'Olga', phone: '+16465550188', do_not_call: true },
			]),
		).rejects.toThrow(
			'Item 2: +16465550188 is on the do-not-call list (its Do Not Call says yes); not called. Nothing was sent.',
		);
		expect(h.server.requests.filter((r) => r.method === 'POST')).toEqual([]);
	});
});
