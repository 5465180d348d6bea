/**
 * What the Call Events Trigger's tests share: one real n8n (`n8n start`) with every test
 * workflow imported, the local Unpod server and its agent webhooks, the model's stand-in for
 * the AI agent's human review, and the two trigger workflows (endings, live events) active.
 */
import axios from 'axios';
import type { IDataObject } from 'n8n-workflow';
import type { N8n } from '../../../dev/harness/n8n';
import { waitFor } from '../../helpers/wait-for';
import { graph, N8nNode, reportNode } from '../../../dev/harness/workflow-builders';
import { N8nServer } from '../../../dev/harness/n8n-server';
import { OpenAiStandIn } from '../../helpers/openai-standin';
import {
	CREDENTIAL,
	Harness,
	NO_SECRET_CREDENTIAL,
	startProcessHarness,
	WEBHOOK_SECRET,
	Workflows,
} from '../../helpers/setup';
import { SEED } from '../../../dev/server/seed';

const TYPE = 'n8n-nodes-unpod.unpodCallEventsTrigger';
export const ENDS = { id: 'callEnds', webhookId: 'unpod-call-ends' };
export const LIVE = { id: 'callLive', webhookId: 'unpod-call-live' };
export const NO_SECRET = { id: 'callNoSecret', webhookId: 'unpod-call-nosecret' };
export const OPENAI = { id: 'openAiLocal', name: 'OpenAI (local stand-in)' };

export class CallEventsSuite {
	h!: Harness<N8n>;
	n8n?: N8nServer;
	model!: OpenAiStandIn;
	readonly workflows = new Workflows();
	/** What the timeout step put out (kept apart: the sink is emptied after each test). */
	readonly timedOut: IDataObject[] = [];

	/** The trigger, then a node that reports each item to the local server's sink. */
	private eventsWorkflow(
		spec: { id: string; webhookId: string },
		parameters: IDataObject,
		credentials = CREDENTIAL,
	): void {
		const trigger: N8nNode = { name: 'Call events', type: TYPE, parameters, credentials, webhookId: spec.webhookId };
		const report = reportNode('Report', '={{ $env.UNPOD_SINK }}');
		this.workflows.add(graph(spec.id, [trigger, report], [['Call events', 'Report']]));
	}

	async start(): Promise<void> {
		this.eventsWorkflow(ENDS, { events: ['completed', 'failed', 'partially_completed'], simplify: true });
		this.eventsWorkflow(LIVE, { events: ['call_started', 'call_hang_up', 'call_missed'], simplify: true });
		this.eventsWorkflow(NO_SECRET, { events: ['completed'] }, NO_SECRET_CREDENTIAL);
		this.model = await new OpenAiStandIn(
			{
				tool: (names) => names.find((n) => /list_agents/i.test(n)),
				arguments: { toolParameters: {}, hitlParameters: {} },
			},
			(result) => `Done. Tool result: ${result}`,
		).start();
		this.h = await startProcessHarness({}, this.workflows, [
			{ ...OPENAI, type: 'openAiApi', data: { apiKey: 'sk-local-standin', url: this.model.url } },
		]);
		this.h.n8n.env.UNPOD_SINK = `${this.h.server.url}/__sim/sink`;
		// The address n8n signs resume addresses with, as on any server (its default names localhost).
		this.h.n8n.env.WEBHOOK_URL = `http://127.0.0.1:${this.h.n8n.env.N8N_PORT}/`;
		this.n8n = await N8nServer.start(this.h.n8n);
		await this.n8n.setActive(ENDS.id, true);
		await this.n8n.setActive(LIVE.id, true);
		await registered(webhookUrl(this, ENDS));
		await registered(webhookUrl(this, LIVE));
	}

	/** After each test: deliveries settled, the sink emptied (the timeout step's report kept apart). */
	async settle(): Promise<void> {
		await this.h.server.webhooks.settled();
		this.timedOut.push(...(this.h.server.sink as IDataObject[]).filter(isTimedOut));
		this.h.server.sink.length = 0;
		this.h.server.resetTraffic();
	}

	async stop(): Promise<void> {
		await this.n8n?.stop();
		await this.h?.close();
		await this.model?.stop();
	}
}

export const webhookUrl = (suite: CallEventsSuite, spec: { webhookId: string }) =>
	`${suite.n8n!.url}/webhook/${spec.webhookId}/unpod`;

export const isTimedOut = (r: IDataObject) => 'timed_out_step' in r;
/** The sink less the timeout step's report, which may come during any test. */
export const sinkOf = (suite: CallEventsSuite) => (suite.h.server.sink as IDataObject[]).filter((r) => !isTimedOut(r));

/** What Studio's form saves: enable, the URL, the secret header (Unpod's v1 pilot endpoint, with a login). */
export async function saveAgentWebhook(suite: CallEventsSuite, url: string): Promise<void> {
	const res = await axios.put(
		`${suite.h.server.url}/api/v1/core/pilots/${SEED.agentHandle}/`,
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

export const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
	axios.post(url, typeof body === 'string' ? body : JSON.stringify(body), {
		headers: { 'Content-Type': 'application/json', ...headers },
		validateStatus: () => true,
		transformResponse: (data) => data,
	});

/** Waits until the URL is registered (n8n answers our 401, not its own 404). */
export const registered = (url: string) =>
	waitFor(`${url} to be registered`, async () => (await post(url, {})).status === 401);
