/** The AI-agent example in the running n8n: a chat message makes the agent call, and the answer comes back. */
import type { N8n } from '../../../dev/harness/n8n';
import type { OpenAiStandIn } from '../../helpers/openai-standin';
import type { Harness, Workflows } from '../../helpers/setup';
import { onPinnedN8n } from '../../helpers/versions';
import { type ExamplesSuite, DANA } from './suite';

let h: Harness<N8n>;
let model: OpenAiStandIn;
let workflows: Workflows;

export function aiAgentExample(suite: ExamplesSuite): void {
	beforeAll(() => {
		({ h, model, workflows } = suite);
	});

	test('a chat message makes the agent call Dana; what Dana said reaches the model and the chat', async () => {
		const workflow = workflows.list.find((w) => w.id === 'aiagentcallandwait')!;
		const callNode = workflow.nodes.find((n) => n.name === 'Call and wait')!;
		// What the model must be told: a use is a paid call to a person, how long it takes, and what comes back.
		const told = String(callNode.parameters?.toolDescription);
		for (const phrase of ['real phone call', 'Max Call Wait', 'unpod_wait_status', 'paid call', 'never to retry']) {
			expect(told).toContain(phrase);
		}
		h.server.calls.callScripts = [{ number: DANA, end: 'completed', afterMs: 2000 }];

		await suite.doNotCallTable();
		const n8n = await suite.startN8n();
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
		// The tool keeps consent on, as shipped: Dana's consent date travels with the call.
		expect(creates[0].body).toMatchObject({
			context: expect.stringMatching(/^Opening, required by law: .*\n\nAsk when the technician may come on Tuesday$/s),
			documents: [
				{
					name: 'Dana Reyes',
					contact_number: DANA,
					consent_at: '2026-01-15T10:00:00.000Z',
					consent_source: 'service agreement',
				},
			],
		});
		const task = h.server.store.tasks.find((t) => t.input.contact_number === DANA)!;
		expect(task.status).toBe('completed');

		// The model's second request carries the call's outcome.
		expect(model.requests).toHaveLength(2);
		const [toolResult] = model.toolResults();
		expect(toolResult).toContain(task.task_id);
		expect(toolResult).toContain('"unpod_wait_status":"ended"');
		expect(toolResult).toContain(JSON.stringify(String(task.output.call_summary)).slice(1, -1));
		// The tool offered to the model says what it costs and how long it takes.
		const offered = model.requests[0].tools!.find((t) => /call_and_wait/i.test(t.function.name))!;
		expect(offered.function.description).toContain('paid call');
		expect(offered.function.parameters).toMatchObject({ properties: { contact: {}, what_to_ask: {} } });
		// And the chat gets the model's answer.
		expect(JSON.stringify(chat.data)).toContain('Dana answered.');
		await n8n.setActive(workflow.id, false);
	});

	onPinnedN8n(
		'Dana said no: on the shared do-not-call list, the tool calls nobody and tells the model why',
		async () => {
			const workflow = workflows.list.find((w) => w.id === 'aiagentcallandwait')!;
			const n8n = await suite.startN8n();
			await n8n.dataTables.insert(await suite.doNotCallTable(), [
				{ phone: '212 555 0181', reason: 'Asked to be taken off the list', source: 'manual', added_at: '' },
			]);
			const asked = model.requests.length;
			await n8n.setActive(workflow.id, true);
			try {
				const trigger = workflow.nodes.find((n) => n.type.endsWith('.chatTrigger'))!;
				const chat = await n8n.postWebhook(`${trigger.webhookId}/chat`, {
					action: 'sendMessage',
					sessionId: 'test-session-2',
					chatInput: 'Call Dana and ask when the technician may come',
				});
				expect(chat.status).toBe(200);
				expect(h.server.requestsTo('POST', '/tasks/')).toHaveLength(0);
				expect(model.requests.length).toBe(asked + 2);
				const toolResult = model.toolResults().at(-1)!;
				expect(toolResult).toContain(`${DANA} is on the do-not-call list (Do-Not-Call Numbers); not called`);
				expect(toolResult).toContain('"unpod_created":false');
			} finally {
				await n8n.setActive(workflow.id, false);
			}
		},
	);
}
