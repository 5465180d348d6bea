/**
 * The AI-agent example, end to end in real n8n with no network: a chat message reaches n8n's
 * AI Agent, whose OpenAI Chat Model (credential Base URL) is a local stand-in that asks for
 * one Call and Wait; the call runs on the local Unpod server, and its outcome must reach the
 * model's second request.
 */
import type { N8n } from '../helpers/n8n';
import { loadExample } from '../helpers/examples';
import { N8nServer } from '../helpers/n8n-server';
import { OpenAiStandIn } from '../helpers/openai-standin';
import { CREDENTIAL, Harness, startProcessHarness } from '../helpers/setup';
import { TOOL_DESCRIPTION } from '../../nodes/UnpodTask/resources/task/callAndWait.operation';

const DANA = '+15550100201';
const OPENAI = { id: 'openAiLocal', name: 'OpenAI (local stand-in)' };

let h: Harness<N8n>;
let model: OpenAiStandIn;
let n8n: N8nServer | undefined;

beforeAll(async () => {
	model = await new OpenAiStandIn(
		{
			tool: (names) => names.find((n) => /call_and_wait/i.test(n)),
			arguments: { contact: 'Dana Reyes', what_to_ask: 'Ask when the technician may come on Tuesday' },
		},
		(result) => `Dana answered. Tool result: ${result}`,
	).start();
	h = await startProcessHarness();
	h.n8n.env.N8N_COMMUNITY_PACKAGES_ALLOW_TOOL_USAGE = 'true';
	await h.n8n.importCredentials([
		{ ...OPENAI, type: 'openAiApi', data: { apiKey: 'sk-local-standin', url: model.url } },
	]);
});

afterAll(async () => {
	await n8n?.stop();
	await h?.close();
	await model?.stop();
});

test('a chat message makes the agent call Dana; what Dana said reaches the model and the chat', async () => {
	const workflow = loadExample('ai-agent-call-and-wait.json', {
		credential: CREDENTIAL.unpodApi,
		filesDir: h.n8n.folder,
	});
	for (const node of workflow.nodes) {
		if (node.credentials?.openAiApi) node.credentials.openAiApi = OPENAI;
		// The example's chat is private (the editor's chat); the test reaches it as a public one.
		if (node.type.endsWith('.chatTrigger')) node.parameters = { ...node.parameters, public: true, mode: 'hostedChat' };
		// A quicker first check than the example's 15 s; everything else as the example has it.
		if (node.parameters?.operation === 'callAndWait')
			(node.parameters.options as Record<string, unknown>).checkSeconds = 5;
	}
	const callNode = workflow.nodes.find((n) => n.name === 'Call and wait')!;
	expect(String(callNode.parameters?.toolDescription).startsWith(TOOL_DESCRIPTION)).toBe(true);
	await h.n8n.importWorkflows([workflow]);
	h.server.callScripts = [{ number: DANA, end: 'completed', afterMs: 2000 }];

	n8n = await N8nServer.start(h.n8n);
	await n8n.setActive(workflow.id, true);
	const trigger = workflow.nodes.find((n) => n.type.endsWith('.chatTrigger'))!;
	const chat = await n8n.postWebhook(`${trigger.webhookId}/chat`, {
		action: 'sendMessage',
		sessionId: 'test-session',
		chatInput: 'Call Dana and ask when the technician may come',
	});
	expect({ status: chat.status, log: chat.status === 200 ? '' : n8n.logTail() }).toEqual({ status: 200, log: '' });

	// One call, to the allowed number, with what the model asked for.
	const creates = h.server.requestsTo('POST', '/tasks/');
	expect(creates).toHaveLength(1);
	expect(creates[0].body).toMatchObject({
		context: 'Ask when the technician may come on Tuesday',
		documents: [{ name: 'Dana Reyes', contact_number: DANA }],
	});
	const task = h.server.store.tasks.find((t) => t.input.contact_number === DANA)!;
	expect(task.status).toBe('completed');

	// The model's second request carries the call's outcome.
	expect(model.requests).toHaveLength(2);
	const [toolResult] = model.toolResults();
	expect(toolResult).toContain(task.task_id);
	expect(toolResult).toContain('"wait_status":"ended"');
	expect(toolResult).toContain(JSON.stringify(String(task.output.call_summary)).slice(1, -1));
	// The tool offered to the model says what it costs and how long it takes.
	const offered = model.requests[0].tools!.find((t) => /call_and_wait/i.test(t.function.name))!;
	expect(offered.function.description).toContain('paid call');
	expect(offered.function.parameters).toMatchObject({ properties: { contact: {}, what_to_ask: {} } });
	// And the chat gets the model's answer.
	expect(JSON.stringify(chat.data)).toContain('Dana answered.');
});
