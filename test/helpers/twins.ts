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
import { DO_NOT_CALL_COLUMNS } from '../../dev/harness/campaign';
import { loadExample, pickDataTables } from '../../dev/harness/examples';
import type { Localize } from '../../dev/harness/examples';
import type { N8n } from '../../dev/harness/n8n';
import { waitFor } from './wait-for';
import type { Workflow } from '../../dev/harness/workflow-builders';
import { N8nServer } from '../../dev/harness/n8n-server';
import { POLL_BY_REACTIVATION } from '../../dev/harness/n8n-versions';
import { CREDENTIAL, pushEndingsTo, startProcessHarness, type Harness } from './setup';

type Credential = { id: string; name: string; type: string; data: Record<string, unknown> };

/** The columns of the claims table every CRM and sheet example shares, as their notes ask for it. */
const CLAIM_COLUMNS = [
	{ name: 'task_id', type: 'string' as const },
	{ name: 'workflow', type: 'string' as const },
	{ name: 'state', type: 'string' as const },
];

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
 * n8n handled them: on 2.x, until each poll's copy has made its claim in the `claims` table.
 * Returns what the twin was sent meanwhile.
 */
export async function deliverAgain(
	h: Harness<N8n>,
	n8n: N8nServer,
	workflow: Workflow,
	twin: Twin,
	tasks: Task[],
	polls: () => number,
	claims: string,
) {
	const from = twin.requests.length;
	for (const task of tasks) h.server.webhooks.redeliver(task.task_id);
	await h.server.webhooks.settled();
	if (POLL_BY_REACTIVATION) {
		// Counted once the pushes are handled, so that only the poll's copies are waited for below.
		await n8n.executionsFinished(workflow.id);
		const before = await claimCounts(n8n, claims, workflow, tasks);
		const polledRuns = () => n8n.executionCount(workflow.id, undefined, 'trigger');
		const polledBefore = await polledRuns();
		await n8n.pollNow(workflow.id, polls);
		const polledAt = Date.now();
		// The poll brings every one of these endings again, and each copy claims it (and loses):
		// wait for those claims, as the poll's execution starts just after its request. Unless
		// n8n's own minute poll brought them already, since they ended: then this poll brings
		// nothing and starts no execution.
		await waitFor(
			'the safety net copies to be claimed',
			async () =>
				(await claimCounts(n8n, claims, workflow, tasks)).every((count, i) => count > before[i]) ||
				(polledBefore > 0 && Date.now() - polledAt > 10_000 && (await polledRuns()) === polledBefore),
			30_000,
		);
	}
	await n8n.executionsFinished(workflow.id);
	return twin.requests.slice(from);
}

/** How many claims `workflow` made in the `claims` table for each of `tasks`. */
export async function claimCounts(
	n8n: N8nServer,
	claims: string,
	workflow: Workflow,
	tasks: Task[],
): Promise<number[]> {
	const rows = (await n8n.dataTables.rows(claims)).filter((row) => row.workflow === workflow.id);
	return tasks.map((task) => rows.filter((row) => row.task_id === task.task_id).length);
}

/**
 * One poll of the safety net that may bring endings already handled, and the execution it
 * starts, which n8n creates just after the poll's request: waited for up to 5 s, as the poll
 * brings only the endings since its last poll and there may be none.
 */
export async function pollCopies(n8n: N8nServer, workflow: Workflow, polls: () => number): Promise<void> {
	const before = await n8n.executionCount(workflow.id);
	await n8n.pollNow(workflow.id, polls);
	await waitFor(
		'the execution of the poll that brings the copies',
		async () => (await n8n.executionCount(workflow.id)) > before,
		5_000,
	).catch(() => undefined);
}

/** Hosts n8n asks for on its own (2.41 calls api.n8n.io): refused like any other, and none of the examples'. */
const N8N_OWN_HOSTS = new Set(['api.n8n.io']);

/** Hosts the proxy refused that n8n's nodes asked for: none, when every request went to a twin or to Unpod. */
export function refusedHosts(t: TwinHarness): string[] {
	return t.twins.refused.filter((host) => !N8N_OWN_HOSTS.has(host));
}

/**
 * The CRM and sheet examples' tests in one real n8n: each service's file (test/e2e/crm/) adds
 * its twin, credentials and examples when it is defined; `start()` (in beforeAll) starts them all
 * with one n8n, as its start-up is most of an end-to-end file's time.
 */
export class TwinSuite {
	private readonly twins: Twin[] = [];
	private readonly credentials: Credential[] = [];
	private readonly workflows: Workflow[] = [];
	private harness?: TwinHarness;
	private server?: N8nServer;
	/** The n8n Data Table the CRM and sheet examples claim each ending in (one for all: a claim names its workflow). */
	claims = '';
	/** The shared "Unpod do-not-call" table every example reads before it calls and writes an opt-out to. */
	doNotCall = '';

	/**
	 * A service's twin and credentials; its examples loaded as a user fills them in. Consent is off
	 * (`{ consent: false }`) unless the test gives its contacts consent where the service keeps it.
	 */
	add(
		twin: Twin,
		credentials: Credential[],
		files: string[] = [],
		local: Pick<Localize, 'consent'> = { consent: false },
	): Workflow[] {
		this.twins.push(twin);
		this.credentials.push(...credentials);
		const loaded = files.map((file) =>
			loadExample(file, {
				callingHours: false,
				...local,
				credential: CREDENTIAL.unpodApi,
				filesDir: '/nowhere',
				credentials: credentialRefs(credentials),
			}),
		);
		this.workflows.push(...loaded);
		return loaded;
	}

	get t(): TwinHarness {
		if (!this.harness) throw new Error('The twin suite has not started');
		return this.harness;
	}

	get h(): Harness<N8n> {
		return this.t.h;
	}

	get n8n(): N8nServer {
		if (!this.server) throw new Error('The twin suite has not started');
		return this.server;
	}

	async start(): Promise<void> {
		this.harness = await startTwinHarness(this.twins, this.credentials);
		// The examples' claims are n8n Data Tables: on 1.x, whose default SQLite driver fails the
		// Data Table node's updates, what the README asks of Data Table users there.
		this.harness.h.n8n.env.DB_SQLITE_POOL_SIZE = '3';
		this.server = await N8nServer.start(this.harness.h.n8n);
		this.claims = await this.server.dataTables.create('Unpod claims', CLAIM_COLUMNS, []);
		this.doNotCall = await this.server.dataTables.create('Unpod do-not-call', DO_NOT_CALL_COLUMNS, []);
		for (const workflow of this.workflows)
			pickDataTables(workflow, { dataTable: this.claims, doNotCallTable: this.doNotCall });
		await this.harness.h.n8n.importWorkflows(this.workflows);
	}

	async stop(): Promise<void> {
		await this.server?.stop();
		await this.harness?.close();
	}
}

/**
 * Waits until what the endings should write is in the twin (`landed`), failing with what the
 * twin was sent since `from` and n8n's log; then until every push and execution is over.
 */
export async function waitForLanding(
	h: Harness<N8n>,
	n8n: N8nServer,
	workflow: Workflow,
	twin: Twin,
	what: string,
	landed: () => boolean,
	from: number,
): Promise<void> {
	await waitFor(what, landed, 60_000).catch((error: Error) => {
		const sent = twin.requests.slice(from).map((r) => `${r.method} ${r.path} ${r.query.get('q') ?? ''} ${r.status}`);
		throw new Error(`${error.message}; ${twin.name} was sent:\n${sent.join('\n')}\n${n8n.logTail()}`);
	});
	await h.server.webhooks.settled();
	await n8n.executionsFinished(workflow.id);
}

/**
 * Do-not-call, in: `asWritten` (a number as people write it) put on the shared do-not-call list,
 * then the example's start run; the `key` (a contact's document id) of every document it sent.
 */
export async function startWithListed(
	suite: TwinSuite,
	workflow: Workflow,
	asWritten: string,
	key = 'document_id',
): Promise<string[]> {
	await suite.n8n.dataTables.insert(suite.doNotCall, [
		{ phone: asWritten, reason: 'Asked to be taken off the list', source: 'manual', added_at: '' },
	]);
	const creates = () => suite.h.server.requestsTo('POST', `/spaces/${SEED.spaceToken}/tasks/`);
	const before = creates().length;
	expect(await suite.n8n.runManually(workflow.id, 'Start the calls')).toEqual({ status: 'success' });
	return creates()
		.slice(before)
		.flatMap((r) => (r.body as { documents: IDataObject[] }).documents.map((d) => String(d[key])));
}

/** Do-not-call, out: a call whose person says no, ended now (its plan played at once). */
export function optOut(h: Harness<N8n>, document: IDataObject): Task {
	const [call] = h.server.calls.addTasks([document]);
	call.outcome = 'do_not_call';
	h.server.store.finishTask(call, 'completed');
	return call;
}

/**
 * Do-not-call, out: the opt-out of `call` lands on the shared list once, and every copy of its
 * ending (pushed again, polled) stops at the claim, asking the twin nothing.
 */
export async function expectListedOnce(
	suite: TwinSuite,
	workflow: Workflow,
	twin: Twin,
	call: Task,
	polls: () => number,
): Promise<void> {
	const phone = String(call.input.contact_number);
	const listed = async () => (await suite.n8n.dataTables.rows(suite.doNotCall)).filter((r) => r.phone === phone);
	await waitFor('the opt-out on the shared list', async () => (await listed()).length > 0);
	expect(await deliverAgain(suite.h, suite.n8n, workflow, twin, [call], polls, suite.claims)).toEqual([]);
	expect(await listed()).toEqual([
		expect.objectContaining({
			reason: 'Asked to be taken off the list',
			source: `call ${call.task_id}: ${workflow.name}`,
		}),
	]);
}
