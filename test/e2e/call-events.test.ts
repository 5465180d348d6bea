/**
 * The Unpod Call Events Trigger in a running n8n (`n8n start`), fed by the local server's
 * agent webhooks as Unpod's backend sends them: the agent's webhook form set through Unpod's
 * own pilot endpoint (a Studio login), deliveries with Unpod's retry rule. And what it relays:
 * Task > Call and Wait for Approval, a step that waits (status `waiting`, nothing running)
 * while the approver's call is open and resumes with `approved` once the trigger rings it, or
 * the Unpod Trigger's poll when the push is lost. A forged ring approves nothing; a wait past
 * its limit goes on without approval. Call and Wait "until Unpod reports" waits the same way.
 */
import { spaceForm } from '../../dev/server/answers';
import axios from 'axios';
import type { IDataObject } from 'n8n-workflow';
import type { N8n } from '../helpers/n8n';
import { N8N_VERSION } from '../helpers/paths';
import { waitFor } from '../helpers/wait-for';
import { graph, N8nNode, reportNode } from '../helpers/workflow-builders';
import { N8nServer, POLL_BY_REACTIVATION } from '../helpers/n8n-server';
import { agentRef, askByPhoneNode, postedWebhook, spaceRef, unpodNode } from '../helpers/nodes';
import { OpenAiStandIn } from '../helpers/openai-standin';
import {
	CREDENTIAL,
	Harness,
	NO_SECRET_CREDENTIAL,
	startProcessHarness,
	WEBHOOK_SECRET,
	Workflows,
} from '../helpers/setup';
import { SEED } from '../../dev/server/seed';
import type { ApprovalAnswer, Task } from '../../dev/server/types';
import { RESUME_FIELD } from '../../nodes/shared/resume';
import { simplifyTask } from '../../nodes/shared/outcome';

const TYPE = 'n8n-nodes-unpod.unpodCallEventsTrigger';
const ENDS = { id: 'callEnds', webhookId: 'unpod-call-ends' };
const LIVE = { id: 'callLive', webhookId: 'unpod-call-live' };
const NO_SECRET = { id: 'callNoSecret', webhookId: 'unpod-call-nosecret' };

let h: Harness<N8n>;
let n8n: N8nServer | undefined;
const workflows = new Workflows();

/** The trigger, then a node that reports each item to the local server's sink. */
function eventsWorkflow(
	spec: { id: string; webhookId: string },
	parameters: IDataObject,
	credentials = CREDENTIAL,
): void {
	const trigger: N8nNode = { name: 'Call events', type: TYPE, parameters, credentials, webhookId: spec.webhookId };
	const report = reportNode('Report', '={{ $env.UNPOD_SINK }}');
	workflows.add(graph(spec.id, [trigger, report], [['Call events', 'Report']]));
}

const urlOf = (spec: { webhookId: string }) => `${n8n!.url}/webhook/${spec.webhookId}/unpod`;

const ENDINGS = ['completed', 'failed', 'partially_completed'];
/** A workflow step that asks for approval by phone and reports what it resumed with. */
const STEP = workflows.add(
	graph(
		'approvalStep',
		[postedWebhook('approval-request'), askByPhoneNode(), reportNode('Report', '={{ $env.UNPOD_SINK }}')],
		[
			['Request', 'Ask by phone'],
			['Ask by phone', 'Report'],
		],
	),
);
/**
 * The same step with the shortest limit, in the second space (the tests here end the first
 * space's open calls): started first, it times out while the other tests run.
 */
const TIMEOUT_STEP = workflows.add(
	graph(
		'approvalTimeout',
		[
			postedWebhook('approval-timeout'),
			askByPhoneNode({
				space: spaceRef(SEED.secondSpaceToken),
				agent: agentRef(SEED.secondAgentHandle),
				options: { limitWaitMinutes: 1 },
			}),
			reportNode('Report', '={{ $env.UNPOD_SINK }}', '={{ JSON.stringify({ timed_out_step: $json }) }}'),
		],
		[
			['Request', 'Ask by phone'],
			['Ask by phone', 'Report'],
		],
	),
);
const TIMEOUT_PHONE = '+15550400020';
/** What the timeout step put out (kept apart: the sink is emptied after each test). */
const timedOut: IDataObject[] = [];
const isTimedOut = (r: IDataObject) => 'timed_out_step' in r;
/** The sink less the timeout step's report, which may come during any test. */
const sink = () => (h.server.sink as IDataObject[]).filter((r) => !isTimedOut(r));
/** Call and Wait holding no worker: one call per posted contact, then a report of each outcome. */
const REPORTED_STEP = workflows.add(
	graph(
		'callAndWaitReported',
		[
			postedWebhook('wait-request'),
			{
				name: 'Contacts',
				type: 'n8n-nodes-base.splitOut',
				typeVersion: 1,
				parameters: { fieldToSplitOut: 'body.contacts', options: {} },
			},
			unpodNode('task', 'Call and wait', {
				operation: 'callAndWait',
				waitMode: 'untilReported',
				space: spaceRef(SEED.spaceToken),
				agent: agentRef(SEED.agentHandle),
				contactName: '={{ $json.name }}',
				contactNumber: '={{ $json.phone }}',
				callContext: 'Confirm the appointment',
				simplify: true,
				options: {},
			}),
			reportNode('Report', '={{ $env.UNPOD_SINK }}', '={{ JSON.stringify({ reported_step: $json }) }}'),
		],
		[
			['Request', 'Contacts'],
			['Contacts', 'Call and wait'],
			['Call and wait', 'Report'],
		],
	),
);
/** The Unpod Trigger polling the space: the relay's safety net. */
const POLL = workflows.add(
	graph(
		'approvalPoll',
		[
			{
				name: 'Safety net',
				type: 'n8n-nodes-unpod.unpodTrigger',
				parameters: {
					pollTimes: { item: [{ mode: 'everyMinute' }] },
					callsOf: 'space',
					space: spaceRef(SEED.spaceToken),
					events: ENDINGS,
					simplify: true,
					options: {},
				},
				credentials: CREDENTIAL,
			},
			{ name: 'Done', type: 'n8n-nodes-base.noOp', typeVersion: 1 },
		],
		[['Safety net', 'Done']],
	),
);
const polls = () => h.server.requestsTo('GET', `/spaces/${SEED.spaceToken}/tasks/`).length;

/** n8n 2.x makes a human-review variant of the Task node for AI Agent v3's tools; 1.x has none. */
const HUMAN_REVIEW = Number(N8N_VERSION.split('.')[0]) >= 2;
const OPENAI = { id: 'openAiLocal', name: 'OpenAI (local stand-in)' };
const REVIEWER = '+15550400010';
/** An AI agent whose tool "List agents" runs only after the reviewer approves by phone. */
const AGENT = workflows.add(
	graph(
		'approvalAgent',
		[
			postedWebhook('approval-agent'),
			{
				name: 'AI Agent',
				type: '@n8n/n8n-nodes-langchain.agent',
				typeVersion: 3,
				parameters: { promptType: 'define', text: '={{ $json.body.chatInput }}', options: {} },
			},
			{
				name: 'OpenAI Chat Model',
				type: '@n8n/n8n-nodes-langchain.lmChatOpenAi',
				typeVersion: 1.2,
				parameters: { model: { __rl: true, mode: 'list', value: 'gpt-4o-mini' }, options: {} },
				credentials: { openAiApi: OPENAI },
			},
			{
				name: 'Ask by phone first',
				type: 'n8n-nodes-unpod.unpodTaskHitlTool',
				typeVersion: 1,
				parameters: {
					message: '=The assistant wants to run {{ $tool.name }}. Do you approve?',
					space: spaceRef(SEED.spaceToken),
					agent: agentRef(SEED.agentHandle),
					contactName: 'Rita Reviewer',
					contactNumber: REVIEWER,
					options: {},
				},
				credentials: CREDENTIAL,
			},
			{
				name: 'List agents',
				type: 'n8n-nodes-unpod.unpodAgentTool',
				typeVersion: 1,
				parameters: { operation: 'getAll', returnAll: true },
				credentials: CREDENTIAL,
			},
		],
		[['Request', 'AI Agent']],
	),
);
{
	const connections = workflows.list.find((w) => w.id === AGENT)!.connections as Record<string, unknown>;
	connections['OpenAI Chat Model'] = { ai_languageModel: [[{ node: 'AI Agent', type: 'ai_languageModel', index: 0 }]] };
	connections['Ask by phone first'] = { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] };
	connections['List agents'] = { ai_tool: [[{ node: 'Ask by phone first', type: 'ai_tool', index: 0 }]] };
}
let model: OpenAiStandIn;

/** What Studio's form saves: enable, the URL, the secret header (Unpod's v1 pilot endpoint, with a login). */
async function setAgentWebhook(url: string): Promise<void> {
	const res = await axios.put(
		`${h.server.url}/api/v1/core/pilots/${SEED.agentHandle}/`,
		{
			components: {
				'webhook-integration__enable_webhook': true,
				'webhook-integration__webhook_url': url,
				'webhook-integration__headers': [{ header_name: WEBHOOK_SECRET.header, header_value: WEBHOOK_SECRET.value }],
			},
		},
		{ headers: { Authorization: `JWT ${SEED.jwt}`, 'Org-Handle': SEED.orgHandle } },
	);
	expect(res.status).toBe(200);
}

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
	axios.post(url, typeof body === 'string' ? body : JSON.stringify(body), {
		headers: { 'Content-Type': 'application/json', ...headers },
		validateStatus: () => true,
		transformResponse: (data) => data,
	});

/** Waits until the URL is registered (n8n answers our 401, not its own 404). */
const registered = (url: string) =>
	waitFor(`${url} to be registered`, async () => (await post(url, {})).status === 401);

beforeAll(async () => {
	eventsWorkflow(ENDS, { events: ['completed', 'failed', 'partially_completed'], simplify: true });
	eventsWorkflow(LIVE, { events: ['call_started', 'call_hang_up', 'call_missed'], simplify: true });
	eventsWorkflow(NO_SECRET, { events: ['completed'] }, NO_SECRET_CREDENTIAL);
	model = await new OpenAiStandIn(
		{
			tool: (names) => names.find((n) => /list_agents/i.test(n)),
			arguments: { toolParameters: {}, hitlParameters: {} },
		},
		(result) => `Done. Tool result: ${result}`,
	).start();
	h = await startProcessHarness({}, workflows, [
		{ ...OPENAI, type: 'openAiApi', data: { apiKey: 'sk-local-standin', url: model.url } },
	]);
	h.n8n.env.UNPOD_SINK = `${h.server.url}/__sim/sink`;
	// The address n8n signs resume addresses with, as on any server (its default names localhost).
	h.n8n.env.WEBHOOK_URL = `http://127.0.0.1:${h.n8n.env.N8N_PORT}/`;
	n8n = await N8nServer.start(h.n8n);
	await n8n.setActive(STEP, true);
	await n8n.setActive(TIMEOUT_STEP, true);
	await n8n.setActive(REPORTED_STEP, true);
	await n8n.setActive(POLL, true, polls);
	await n8n.setActive(ENDS.id, true);
	await n8n.setActive(LIVE.id, true);
	await registered(urlOf(ENDS));
	await registered(urlOf(LIVE));
	// The approver never answers; n8n's wait tracker ends the wait once the minute has passed.
	h.server.calls.callScripts = [{ number: TIMEOUT_PHONE, end: 'never', afterMs: 400 }];
	const started = await n8n.postWebhook('approval-timeout', {
		name: 'Tim Out',
		phone: TIMEOUT_PHONE,
		message: 'Approve?',
	});
	expect(started.status).toBe(200);
	await waitFor('the timeout step to wait', async () => (await n8n!.executionCount(TIMEOUT_STEP, ['waiting'])) === 1);
});

afterAll(async () => {
	await n8n?.stop();
	await h?.close();
	await model?.stop();
});

afterEach(async () => {
	await h.server.webhooks.settled();
	timedOut.push(...(h.server.sink as IDataObject[]).filter(isTimedOut));
	h.server.sink.length = 0;
	h.server.resetTraffic();
});

test('without a Webhook Secret in the credential the trigger refuses to activate, saying how to set one', async () => {
	expect(await n8n!.activationError(NO_SECRET.id)).toMatch(
		/no Webhook Secret.*Set it in the Unpod credential, then the same header in the agent's webhook form/,
	);
	expect((await post(urlOf(NO_SECRET), { task_id: 'T1', status: 'completed' })).status).toBe(404);
});

test('a missing or wrong secret gets 401 and a body that is not an Unpod event 400, as JSON, and start nothing', async () => {
	const url = urlOf(ENDS);
	const ended = { task_id: `T${'a'.repeat(32)}`, status: 'completed', input: { name: 'X' }, output: {} };
	const before = await n8n!.executionCount(ENDS.id);
	const good = { [WEBHOOK_SECRET.header]: WEBHOOK_SECRET.value };

	const missing = await post(url, ended);
	expect(missing.status).toBe(401);
	expect(JSON.parse(missing.data)).toEqual({ error: `Missing or wrong ${WEBHOOK_SECRET.header} header` });
	expect((await post(url, ended, { [WEBHOOK_SECRET.header]: `${WEBHOOK_SECRET.value}x` })).status).toBe(401);
	expect((await post(url, ended, { 'X-Other': WEBHOOK_SECRET.value })).status).toBe(401);

	const notUnpod = await post(url, { hello: 'world' }, good);
	expect(notUnpod.status).toBe(400);
	expect(JSON.parse(notUnpod.data).error).toMatch(/no task_id/);
	const text = await post(url, 'task_id=T1', { ...good, 'Content-Type': 'text/plain' });
	expect(text.status).toBe(400);
	expect(JSON.parse(text.data)).toEqual({ error: 'The body is not JSON' });
	// A body declared JSON that does not parse: n8n itself refuses it before the node runs.
	const broken = await post(url, '{"task_id": "T', good);
	expect(broken.status).toBe(400);
	// n8n's own JSON parser hands the node a string there: not an object, refused all the same.
	expect(JSON.parse(broken.data).error).toMatch(/^The body is not (JSON|a JSON object)$/);

	const open = await post(url, { ...ended, status: 'in_progress' }, good);
	expect(open.status).toBe(200);
	expect(JSON.parse(open.data)).toEqual({
		received: true,
		started: false,
		reason: 'Task status in_progress is not an ending',
	});
	expect(await n8n!.executionCount(ENDS.id)).toBe(before);
	expect(sink()).toEqual([]);
});

test('50 calls end at once: each reaches the workflow once, with the polling trigger simplify fields; live events not selected start nothing', async () => {
	await setAgentWebhook(urlOf(ENDS));
	const before = await n8n!.executionCount(ENDS.id);
	const tasks = h.server.calls.addTasks(
		Array.from({ length: 50 }, (_, i) => ({
			name: `Lead ${i}`,
			contact_number: `+1415555${String(i).padStart(4, '0')}`,
		})),
	);
	// Each start sends call_started, each end call_hang_up or call_missed, then the task itself.
	h.server.calls.startCalls({ count: 50, space: SEED.spaceToken });
	h.server.calls.finishCalls({ failRate: 0.2, space: SEED.spaceToken });
	await h.server.webhooks.settled();
	await waitFor('50 outcomes', () => sink().length >= 50);
	await n8n!.executionsFinished(ENDS.id);

	const deliveries = h.server.webhooks.deliveries;
	expect(deliveries.filter((d) => d.kind === 'task')).toHaveLength(50);
	expect(deliveries.filter((d) => d.kind === 'event')).toHaveLength(100);
	// Unpod's retry rule is satisfied at the first attempt: 200 with a JSON body.
	const unanswered = deliveries.filter((d) => d.state !== 'delivered' || d.attempts.join() !== '200');
	expect(unanswered.map((d) => [d.event, d.state, d.attempts])).toEqual([]);

	const received = sink();
	expect(new Set(received.map((r) => r.task_id)).size).toBe(50);
	for (const task of tasks) {
		const item = received.find((r) => r.task_id === task.task_id);
		expect(item).toEqual({
			event: `call_${task.status}`,
			...simplifyTask(spaceForm(task) as IDataObject),
		});
	}
	expect(received.filter((r) => r.event === 'call_failed').length).toBe(
		tasks.filter((t) => t.status === 'failed').length,
	);
	expect(await n8n!.executionCount(ENDS.id)).toBe(before + 50);
});

test('a repeated delivery of an ending starts nothing, as many times as Unpod sends it', async () => {
	await setAgentWebhook(urlOf(ENDS));
	const before = await n8n!.executionCount(ENDS.id);
	const tasks = h.server.calls.addTasks(
		Array.from({ length: 10 }, (_, i) => ({
			name: `Again ${i}`,
			contact_number: `+1415666${String(i).padStart(4, '0')}`,
		})),
	);
	// Calls end one after another, each once the last one's record is stored (n8n stores it
	// just after the node answers); Unpod's other code paths then send each end again.
	for (const task of tasks) {
		h.server.store.finishTask(task, 'completed');
		await h.server.webhooks.settled();
		await waitFor('the record of the delivery', async () =>
			Object.keys((await n8n!.staticData(ENDS.id))['node:Call events']?.deliveries?.seen ?? {}).includes(
				`${task.task_id}:completed`,
			),
		);
	}
	for (const round of [1, 2]) {
		for (const task of tasks) h.server.webhooks.redeliver(task.task_id);
		await h.server.webhooks.settled();
		expect(h.server.webhooks.deliveries.filter((d) => d.repeat)).toHaveLength(10 * round);
	}
	const repeats = h.server.webhooks.deliveries.filter((d) => d.repeat);
	expect(repeats.every((d) => d.state === 'delivered' && d.attempts.join() === '200')).toBe(true);
	await waitFor('10 outcomes', () => sink().length >= 10);
	await n8n!.executionsFinished(ENDS.id);
	expect(await n8n!.executionCount(ENDS.id)).toBe(before + 10);
	expect(
		sink()
			.map((r) => r.task_id)
			.sort(),
	).toEqual(tasks.map((t) => t.task_id).sort());
});

test('live events arrive as their own kind, flat; a new attempt of the same call is a new event', async () => {
	await setAgentWebhook(urlOf(LIVE));
	const before = await n8n!.executionCount(LIVE.id);
	const [answered, missed] = h.server.calls.addTasks([
		{ name: 'Ann', contact_number: '+14155550101' },
		{ name: 'Bob', contact_number: '+14155550102' },
	]);
	h.server.calls.startCalls({ count: 2, space: SEED.spaceToken });
	await h.server.webhooks.settled();
	h.server.calls.failAttempts({ count: 2, reason: 'no-answer', space: SEED.spaceToken }); // both attempts missed; Unpod retries them
	await h.server.webhooks.settled();
	h.server.calls.startCalls({ count: 2, space: SEED.spaceToken });
	await h.server.webhooks.settled();
	h.server.store.finishTask(answered, 'completed');
	h.server.store.finishTask(missed, 'failed');
	await h.server.webhooks.settled();
	await waitFor('8 live events', () => sink().length >= 8);
	await n8n!.executionsFinished(LIVE.id);

	const received = sink();
	const kinds = (task: string) => received.filter((r) => r.task_id === task).map((r) => r.event);
	expect(kinds(answered.task_id).sort()).toEqual(['call_hang_up', 'call_missed', 'call_started', 'call_started']);
	expect(kinds(missed.task_id).sort()).toEqual(['call_missed', 'call_missed', 'call_started', 'call_started']);
	const hangUp = received.find((r) => r.event === 'call_hang_up')!;
	expect(hangUp).toMatchObject({
		task_id: answered.task_id,
		call_id: answered.thread_id,
		contact_name: 'Ann',
		contact_number: '+14155550101',
		call_type: 'outbound',
		end_time: expect.stringMatching(/Z$/),
		transcript: expect.stringMatching(/^Assistant: /),
	});
	// The endings (delivery A) are not selected in this workflow: answered, nothing started.
	expect(h.server.webhooks.deliveries.filter((d) => d.kind === 'task').every((d) => d.state === 'delivered')).toBe(
		true,
	);
	expect(await n8n!.executionCount(LIVE.id)).toBe(before + 8);
});

test("an inbound call's live events, which carry no task_id, reach the workflow named by their room, once each", async () => {
	await setAgentWebhook(urlOf(LIVE));
	const before = await n8n!.executionCount(LIVE.id);
	const log = h.server.calls.inboundCall({ agent: SEED.agentHandle, from: '+442079460321' });
	await h.server.webhooks.settled();
	await waitFor('2 inbound events', () => sink().length >= 2);
	await n8n!.executionsFinished(LIVE.id);
	// The two deliveries run side by side: either may arrive first.
	const received = sink().sort((a, b) => String(a.event).localeCompare(String(b.event)));
	expect(received.map((r) => [r.event, r.call_type, r.contact_number, r.task_id])).toEqual([
		['call_hang_up', 'inbound', '+442079460321', null],
		['call_started', 'inbound', '+442079460321', null],
	]);
	expect(h.server.webhooks.deliveries.map((d) => [d.event, d.attempts])).toEqual([
		['call_started', [200]],
		['call_hang_up', [200]],
	]);
	expect(received[0]).toMatchObject({ room: `room-inbound-${log.id}`, end_time: expect.stringMatching(/Z$/) });
	// Unpod sending the same event again starts nothing.
	const again = await post(urlOf(LIVE), h.server.webhooks.deliveries[1].body, {
		[WEBHOOK_SECRET.header]: WEBHOOK_SECRET.value,
	});
	expect(again.status).toBe(200);
	expect(await n8n!.executionCount(LIVE.id)).toBe(before + 2);
});

/** What the approval step resumed with (the ENDS workflow reports every ending to the same sink). */
const results = () => sink().filter((r) => 'approval' in r);

/** Asks `phone` for approval through the workflow; the call stays open until the test ends it. */
async function ask(phone: string): Promise<Task> {
	// The Call Events Trigger of ENDS receives the agent's pushes, and relays.
	await setAgentWebhook(urlOf(ENDS));
	h.server.calls.callScripts = [{ number: phone, end: 'never', afterMs: 400 }];
	const res = await n8n!.postWebhook('approval-request', {
		name: 'Rita Approver',
		phone,
		message: 'The assistant wants to refund 120 EUR on order 1234. Do you approve?',
	});
	expect(res.status).toBe(200);
	let task: Task | undefined;
	await waitFor(
		'the approval call',
		() => !!(task = h.server.store.tasks.find((t) => t.input.contact_number === phone)),
	);
	// Saved as waiting: no execution of the step is running while the call is open.
	await waitFor('the step to wait', async () => (await n8n!.executionCount(STEP, ['waiting'])) === 1);
	expect(await n8n!.executionCount(STEP, ['running', 'new'])).toBe(0);
	return task!;
}

/** Ends the call as the approver answered; Unpod pushes the end. */
function answer(task: Task, said: ApprovalAnswer | 'no answer'): void {
	if (said === 'no answer') h.server.store.finishTask(task, 'failed');
	else {
		task.answer = said;
		h.server.store.finishTask(task, 'completed');
	}
}

const resultOf = async (task: Task) => {
	await waitFor(
		`the step to resume for ${task.task_id}`,
		() => results().some((r) => r.task_id === task.task_id),
		60_000,
	);
	await n8n!.executionsFinished(STEP);
	return results().find((r) => r.task_id === task.task_id)!;
};

test.each([
	['approved', true, '+15550400001'],
	['declined', false, '+15550400002'],
	['unclear', false, '+15550400003'],
	['no answer', false, '+15550400004'],
] as const)(
	'the approver says %s: the step resumes with approved %s once the push is relayed',
	async (said, approved, phone) => {
		const task = await ask(phone);
		expect(task.input).toMatchObject({ name: 'Rita Approver', contact_number: phone });
		expect(String(task.input[RESUME_FIELD])).toMatch(
			/^http:\/\/127\.0\.0\.1:\d+\/webhook-waiting\/\d+\/.+wait=[0-9a-f]{32}/,
		);
		expect(task.task.objective).toBe('The assistant wants to refund 120 EUR on order 1234. Do you approve?');
		answer(task, said);
		const result = (await resultOf(task)) as IDataObject;
		expect(result).toMatchObject({
			approved,
			approval: said === 'no answer' ? 'not_answered' : said,
			task_id: task.task_id,
			contact_number: phone,
			unpod_wait_status: 'ended',
		});
		if (approved) expect(result).not.toHaveProperty('chatInput');
		else expect(result.chatInput).toMatch(/^Not approved by phone/);
		expect(await n8n!.executionCount(STEP, ['waiting'])).toBe(0);
	},
);

test('a forged ring (the right address, a body saying approved) resumes nothing while the call is open, nor approves after', async () => {
	const task = await ask('+15550400005');
	const url = String(task.input[RESUME_FIELD]);
	const forged = { task_id: task.task_id, run_id: task.run_id, status: 'completed', approved: true };
	const ring = await axios.post(url, forged, { validateStatus: () => true });
	expect([ring.status, ring.data]).toEqual([200, { resumed: false, reason: 'A call of this wait is still open' }]);
	// Another run named in the body: not this approval's calls.
	const elsewhere = await axios.post(url, { ...forged, run_id: 'Rnot-this-one' }, { validateStatus: () => true });
	expect(elsewhere.status).toBe(200);
	expect(elsewhere.data.resumed).toBe(false);
	// The address with another token: n8n's signature check refuses it.
	const otherToken = await axios.post(url.replace(/wait=[0-9a-f]+/, `wait=${'0'.repeat(32)}`), forged, {
		validateStatus: () => true,
	});
	expect(otherToken.status).toBe(401);
	expect(await n8n!.executionCount(STEP, ['waiting'])).toBe(1);
	expect(results().some((r) => r.task_id === task.task_id)).toBe(false);

	// The approver declines; a forged ring after the push changes nothing.
	answer(task, 'declined');
	expect(await resultOf(task)).toMatchObject({ approved: false, approval: 'declined' });
	await axios.post(url, forged, { validateStatus: () => true });
	expect(results().filter((r) => r.task_id === task.task_id)).toHaveLength(1);
});

test('a task naming a resume address on another host is not rung, nor does it disturb a waiting step', async () => {
	const task = await ask('+15550400007');
	const token = new URL(String(task.input[RESUME_FIELD])).searchParams.get('wait');
	const before = h.server.requests.length;
	const [away] = h.server.calls.addTasks([
		{
			name: 'Away',
			contact_number: '+15550400071',
			[RESUME_FIELD]: `${h.server.url}/webhook-waiting/1/n?wait=${token}`,
		},
	]);
	h.server.store.finishTask(away, 'completed');
	await h.server.webhooks.settled();
	await waitFor('the ending to reach the workflow', () => sink().some((r) => r.task_id === away.task_id));
	await n8n!.executionsFinished(ENDS.id);
	// Nothing was sent to the other host's address, and the step did not read any run.
	expect(
		h.server.requests.slice(before).filter((r) => r.path.includes('webhook-waiting') || r.path.includes('/runs/')),
	).toEqual([]);
	expect(await n8n!.executionCount(STEP, ['waiting'])).toBe(1);

	answer(task, 'approved');
	expect(await resultOf(task)).toMatchObject({ approved: true, task_id: task.task_id });
});

(POLL_BY_REACTIVATION ? test : test.skip)(
	"the push is lost: the Unpod Trigger's poll rings, and the step resumes",
	async () => {
		const task = await ask('+15550400006');
		h.server.webhooks.faults = { dropRate: 1, repeatRate: 0 };
		answer(task, 'approved');
		await h.server.webhooks.settled();
		expect(await n8n!.executionCount(STEP, ['waiting'])).toBe(1);
		await n8n!.pollNow(POLL, polls);
		expect(await resultOf(task)).toMatchObject({ approved: true, task_id: task.task_id });
	},
);

(HUMAN_REVIEW ? test : test.skip)(
	"as an AI agent's human review (n8n 2.x): the gated tool runs after an approving call, not after a refusing one",
	async () => {
		await setAgentWebhook(urlOf(ENDS));
		await n8n!.setActive(AGENT, true);
		const listed = () => h.server.requests.filter((r) => r.method === 'GET' && /\/agents\/$/.test(r.path)).length;
		for (const said of ['declined', 'approved'] as const) {
			model.requests.length = 0;
			h.server.calls.callScripts = [{ number: REVIEWER, end: 'never', afterMs: 400 }];
			const before = listed();
			const calls = h.server.store.tasks.length;
			const res = await n8n!.postWebhook('approval-agent', { chatInput: 'List my agents' });
			expect(res.status).toBe(200);
			let task: Task | undefined;
			await waitFor(
				'the review call',
				() => !!(task = h.server.store.tasks.slice(calls).find((t) => t.input.contact_number === REVIEWER)),
			);
			await waitFor('the agent to wait', async () => (await n8n!.executionCount(AGENT, ['waiting'])) === 1);
			expect(task!.task.objective).toMatch(/^The assistant wants to run List.agents\. Do you approve\?$/);
			// Nothing ran while the reviewer's phone rang.
			expect(listed()).toBe(before);
			answer(task!, said);
			await waitFor('the model to hear back', () => model.requests.length >= 2, 60_000);
			await n8n!.executionsFinished(AGENT);
			const [toolResult] = model.toolResults();
			if (said === 'approved') {
				expect(listed()).toBe(before + 1);
				expect(toolResult).toContain(SEED.agentHandle);
			} else {
				expect(listed()).toBe(before);
				expect(toolResult).toContain('Not approved by phone (declined)');
			}
		}
	},
);

/** What Call and Wait resumed with (the ENDS workflow reports every ending to the same sink). */
const reported = () =>
	sink()
		.filter((r) => 'reported_step' in r)
		.map((r) => r.reported_step as IDataObject);

test('Call and Wait until Unpod reports: waits holding no worker until every call has ended, then puts out each outcome', async () => {
	await setAgentWebhook(urlOf(ENDS));
	const phones = ['+15550400031', '+15550400032'];
	h.server.calls.callScripts = phones.map((number) => ({ number, end: 'never' as const, afterMs: 400 }));
	const res = await n8n!.postWebhook('wait-request', {
		contacts: [
			{ name: 'Una', phone: phones[0] },
			{ name: 'Duo', phone: phones[1] },
		],
	});
	expect(res.status).toBe(200);
	const tasks: Task[] = [];
	await waitFor('both calls', () => {
		tasks.splice(
			0,
			tasks.length,
			...h.server.store.tasks.filter((t) => phones.includes(String(t.input.contact_number))),
		);
		return tasks.length === 2;
	});
	await waitFor('the step to wait', async () => (await n8n!.executionCount(REPORTED_STEP, ['waiting'])) === 1);
	expect(await n8n!.executionCount(REPORTED_STEP, ['running', 'new'])).toBe(0);
	// One request for both: the wait reads one run back.
	expect(new Set(tasks.map((t) => t.run_id)).size).toBe(1);
	const requestsWhileWaiting = h.server.requests.length;

	// The first call's end is relayed: the ring is answered, the step keeps waiting for the other.
	const [first, second] = phones.map((p) => tasks.find((t) => t.input.contact_number === p)!);
	h.server.store.finishTask(first, 'completed');
	await h.server.webhooks.settled();
	await waitFor('the ring to be read', () =>
		h.server.requests.slice(requestsWhileWaiting).some((r) => r.path.includes(`/runs/${first.run_id}/`)),
	);
	await n8n!.executionsFinished(REPORTED_STEP);
	expect(await n8n!.executionCount(REPORTED_STEP, ['waiting'])).toBe(1);
	expect(reported()).toEqual([]);

	h.server.store.finishTask(second, 'failed');
	await waitFor('the step to resume', () => reported().length === 2, 60_000);
	await n8n!.executionsFinished(REPORTED_STEP);
	const [una, duo] = reported();
	expect(una).toMatchObject({
		task_id: first.task_id,
		run_id: first.run_id,
		status: 'completed',
		contact_number: phones[0],
		unpod_wait_status: 'ended',
	});
	expect(una.call_summary).toEqual(expect.any(String));
	expect(duo).toMatchObject({ task_id: second.task_id, status: 'failed', unpod_wait_status: 'ended' });
	// While the calls were open no request was sent but the rings' reads of the run (and the safety net's polls).
	// (Recorded paths are whole, `/api/v2/platform/...`: a poll that fell in this window failed the
	// check on 2.41, whose polls come each minute, when it compared them with the short path.)
	const pollPath = `/api/v2/platform/spaces/${SEED.spaceToken}/tasks/`;
	const sent = h.server.requests.slice(requestsWhileWaiting).filter((r) => r.path !== pollPath);
	const others = sent.filter((r) => !(r.method === 'GET' && r.path.includes(`/runs/${first.run_id}/`)));
	expect(others.map((r) => `${r.method} ${r.path}`)).toEqual([]);
});

test('the limit passes with the call open: the step goes on with its input items, without approved', async () => {
	await waitFor(
		'the timeout step to end its wait',
		async () => (await n8n!.executionCount(TIMEOUT_STEP, ['success'])) === 1,
		150_000,
	);
	await waitFor('its report', () => timedOut.length + (h.server.sink as IDataObject[]).filter(isTimedOut).length === 1);
	const [entry] = [...timedOut, ...(h.server.sink as IDataObject[]).filter(isTimedOut)];
	const item = entry.timed_out_step as IDataObject;
	expect(item).not.toHaveProperty('approved');
	expect(item.body).toMatchObject({ phone: TIMEOUT_PHONE });
	const call = h.server.store.tasks.find((t) => t.input.contact_number === TIMEOUT_PHONE)!;
	expect(call.status).not.toMatch(/completed|failed/);
	expect(await n8n!.executionCount(TIMEOUT_STEP, ['waiting'])).toBe(0);
}, 180_000);
