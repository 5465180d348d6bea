/**
 * An AI agent's human review (n8n 2.x) in the running n8n: the Task node's human-review tool
 * calls the reviewer and waits holding no worker; the gated tool runs after an approving call,
 * not after a refusing one. Registered from waiting.ts, while the timeout step's limit passes.
 */
import { type CallEventsSuite, saveAgentWebhook, webhookUrl } from './suite';
import { N8N_VERSION } from '../../../dev/harness/paths';
import { waitFor } from '../../helpers/wait-for';
import { graph } from '../../../dev/harness/workflow-builders';
import { agentRef, postedWebhook, spaceRef, TASK_TEST_DEFAULTS } from '../../helpers/nodes';
import { CREDENTIAL } from '../../helpers/setup';
import { SEED } from '../../../dev/server/seed';
import type { ApprovalAnswer, Task } from '../../../dev/server/types';
import { ENDS, OPENAI } from './suite';
import { approverAnswers } from './waiting';

export function agentHumanReview(callEvents: CallEventsSuite): void {
	const { workflows } = callEvents;
	/** n8n 2.x makes a human-review variant of the Task node for AI Agent v3's tools; 1.x has none. */
	const HUMAN_REVIEW = Number(N8N_VERSION.split('.')[0]) >= 2;
	const REVIEWER = '+12125400010';
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
						// A colleague who agreed to be called, at any hour: the test runs at any hour.
						...TASK_TEST_DEFAULTS,
						consent: 'whereLawAsks',
						consentAt: '2026-01-05T09:00:00Z',
						consentSource: 'employment agreement',
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
		connections['OpenAI Chat Model'] = {
			ai_languageModel: [[{ node: 'AI Agent', type: 'ai_languageModel', index: 0 }]],
		};
		connections['Ask by phone first'] = { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] };
		connections['List agents'] = { ai_tool: [[{ node: 'Ask by phone first', type: 'ai_tool', index: 0 }]] };
	}

	(HUMAN_REVIEW ? test : test.skip)(
		"as an AI agent's human review (n8n 2.x): the gated tool runs after an approving call, not after a refusing one",
		async () => {
			const { h, n8n, model } = callEvents;
			const answer = (task: Task, said: ApprovalAnswer) => approverAnswers(h, task, said);
			await saveAgentWebhook(callEvents, webhookUrl(callEvents, ENDS));
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
				expect(task!.task.objective).toMatch(
					/^Opening, required by law: .*\n\nThe assistant wants to run List.agents\. Do you approve\?$/s,
				);
				// The reviewer's consent, as the review tool maps it, travels with the call.
				expect(task!.input).toMatchObject({
					consent_at: '2026-01-05T09:00:00.000Z',
					consent_source: 'employment agreement',
				});
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

}
