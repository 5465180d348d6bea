/**
 * The CRM and spreadsheet examples in a real n8n: its requests to HubSpot, Pipedrive,
 * Salesforce, HighLevel and Google go, through n8n's own proxy support, to local twins of
 * those APIs (dev/twins/), with a CA made for the run; Unpod's requests go to the local Unpod
 * server past the proxy.
 */
import type { IDataObject } from 'n8n-workflow';
import { startTwins, type RunningTwins } from '../../dev/twins/serve';
import type { Twin } from '../../dev/twins/twin';
import { SEED } from '../../dev/server/seed';
import { ANALYSED_AGENT } from '../../dev/server/postCall';
import type { Task } from '../../dev/server/types';
import { simplifyTask } from '../../nodes/shared/outcome';
import type { N8n, Workflow } from './n8n';
import { type N8nServer, POLL_BY_REACTIVATION } from './n8n-server';
import { pushEndingsTo, startProcessHarness, type Harness } from './setup';

type Credential = { id: string; name: string; type: string; data: Record<string, unknown> };

export interface TwinHarness {
	h: Harness<N8n>;
	twins: RunningTwins;
	close(): Promise<void>;
}

export async function startTwinHarness(twins: Twin[], credentials: Credential[]): Promise<TwinHarness> {
	const running = await startTwins(twins);
	try {
		const h = await startProcessHarness({}, undefined, credentials, running.env());
		return {
			h,
			twins: running,
			async close() {
				await h.close();
				await running.stop();
			},
		};
	} catch (error) {
		await running.stop();
		throw error;
	}
}

/** The credentials of the examples' other services, by type, as the tests name them. */
export function credentialRefs(credentials: Credential[]): Record<string, { id: string; name: string }> {
	return Object.fromEntries(credentials.map((c) => [c.type, { id: c.id, name: c.name }]));
}

/** The ended call's flat outcome, as both triggers put it out. */
export function outcomeOf(h: Harness<N8n>, task: Task): IDataObject {
	return simplifyTask(h.server.webhooks.taskDocument(task) as IDataObject);
}

/**
 * Activates a CRM example, points the seed agent's pushes at its Call Events Trigger and gives
 * the agent an analysis plan (a budget, a meeting date, the decision maker) with Unpod's own
 * follow-ups off. Returns how to count the safety net's polls, and how to undo it all.
 */
export async function activateOutcomes(h: Harness<N8n>, n8n: N8nServer, workflow: Workflow) {
	const polls = () => h.server.requestsTo('GET', `/spaces/${SEED.spaceToken}/tasks/`).length;
	await n8n.setActive(workflow.id, true, polls);
	const webhookId = workflow.nodes.find((n) => n.type.endsWith('unpodCallEventsTrigger'))!.webhookId!;
	await pushEndingsTo(h.server, n8n.url, webhookId);
	h.server.store.agentSettings.set(SEED.agentHandle, {
		...ANALYSED_AGENT,
		follow_up_enabled: false,
		callback_enabled: false,
	});
	return {
		polls,
		async deactivate() {
			h.server.store.agentSettings.delete(SEED.agentHandle);
			await n8n.setActive(workflow.id, false);
		},
	};
}

/**
 * Every ending of `tasks` again: pushed, and (n8n 2.x) polled by the safety net; waits until
 * n8n handled them. Returns what the twin was sent meanwhile.
 */
export async function deliverAgain(
	h: Harness<N8n>,
	n8n: N8nServer,
	workflow: Workflow,
	twin: Twin,
	tasks: Task[],
	polls: () => number,
) {
	const from = twin.requests.length;
	for (const task of tasks) h.server.webhooks.redeliver(task.task_id);
	await h.server.webhooks.settled();
	if (POLL_BY_REACTIVATION) await n8n.pollNow(workflow.id, polls);
	await n8n.executionsFinished(workflow.id);
	return twin.requests.slice(from);
}

/** Hosts n8n asks for on its own (2.41 calls api.n8n.io): refused like any other, and none of the examples'. */
const N8N_OWN_HOSTS = new Set(['api.n8n.io']);

/** Hosts the proxy refused that n8n's nodes asked for: none, when every request went to a twin or to Unpod. */
export function refusedHosts(t: TwinHarness): string[] {
	return t.twins.refused.filter((host) => !N8N_OWN_HOSTS.has(host));
}
