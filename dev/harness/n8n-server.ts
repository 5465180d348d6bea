/** A running n8n (`n8n start`) with an owner logged in, for what only the server does: credential tests, pickers, polling triggers. */
import { parse as parseFlatted } from 'flatted';
import type { RunResult } from './run-results';
import axios, { AxiosInstance, AxiosResponse } from 'axios';
import type { ChildProcess } from 'child_process';
import { Agent } from 'http';
import { DataTables } from './data-tables';
import type { N8n } from './n8n';
import { OWNER, retryWhileDatabaseBusy, spawnN8n } from './n8n-process';
import { EMISSION_LOADS_PUBLISHED, POLL_BY_REACTIVATION } from './n8n-versions';
import { stopGroup } from './processes';
import { RestImporter } from './rest-importer';

export class N8nServer {
	private constructor(
		readonly n8n: N8n,
		readonly url: string,
		private child: ChildProcess,
		readonly rest: AxiosInstance,
		readonly log: string[],
	) {
		this.dataTables = new DataTables(rest);
		this.importer = new RestImporter(rest, n8n);
	}

	/** Saves credentials and workflows here: the folder's imports while this n8n runs. */
	private readonly importer: RestImporter;

	/** The owner's Data Tables. */
	readonly dataTables: DataTables;

	static async start(n8n: N8n, options: { timeoutMs?: number } = {}): Promise<N8nServer> {
		const url = `http://127.0.0.1:${n8n.env.N8N_PORT}`;
		// Start-up on a busy machine has taken well over a minute: this limit is for a hung start.
		const deadline = Date.now() + (options.timeoutMs ?? 240_000);
		const { child, log } = await spawnN8n(n8n, ['start'], `${url}/healthz/readiness`, deadline);
		// A new connection each request: n8n busy for seconds (a slice of 5,000 rows) lets its
		// keep-alive timer close a reused socket just as a request goes out (ECONNRESET, seen on 2.41).
		const rest = axios.create({
			baseURL: `${url}/rest`,
			validateStatus: () => true,
			httpAgent: new Agent({ keepAlive: false }),
		});
		retryWhileDatabaseBusy(rest);
		const server = new N8nServer(n8n, url, child, rest, log);
		// A start that fails half-way leaves no n8n running.
		await server.setUp(deadline).catch(async (error) => {
			await server.stop();
			throw error;
		});
		return server;
	}

	/** The owner set up and logged in; what waits to be saved saved, and later imports saved here. */
	private async setUp(deadline: number): Promise<void> {
		const { rest, n8n } = this;
		// Readiness answers before the REST routes are mounted: wait for them too.
		let setup = await rest.post('/owner/setup', OWNER);
		while (setup.status === 404 && Date.now() < deadline) {
			await new Promise((r) => setTimeout(r, 250));
			setup = await rest.post('/owner/setup', OWNER);
		}
		if (setup.status !== 200) throw new Error(`Owner setup failed: ${setup.status} ${JSON.stringify(setup.data)}`);
		const cookie = (setup.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).join('; ');
		rest.defaults.headers.common.Cookie = cookie;
		// n8n's REST API refuses requests that do not look like they come from its editor.
		rest.defaults.headers.common['browser-id'] = 'unpod-tests';
		const { credentials, workflows } = n8n.takePending();
		await this.importer.credentials(credentials);
		await this.importer.workflows(workflows);
		n8n.importer = this.importer;
	}

	/** The owner's session cookie (`name=value`), for a browser. */
	get cookie(): string {
		return String(this.rest.defaults.headers.common.Cookie ?? '');
	}

	/** Saves a credential through the REST API and runs n8n's credential test on it. */
	async testCredential(type: string, data: Record<string, unknown>): Promise<{ status: string; message: string }> {
		const created = await this.rest.post('/credentials', { name: `${type} ${Date.now()}`, type, data });
		if (created.status !== 200)
			throw new Error(`Creating the credential failed: ${created.status} ${JSON.stringify(created.data)}`);
		const { id, name } = created.data.data;
		const tested = await this.rest.post('/credentials/test', { credentials: { id, name, type, data } });
		if (tested.status !== 200)
			throw new Error(`Credential test failed: ${tested.status} ${JSON.stringify(tested.data)}`);
		return tested.data.data;
	}

	/** Saves new data for one of the tests' credentials, as the editor's credential form does. */
	async updateCredential(credential: { id: string; name: string }, type: string, data: Record<string, unknown>) {
		const { id } = this.importer.known({ [type]: credential })[type];
		const res = await this.rest.patch(`/credentials/${id}`, { name: credential.name, type, data });
		if (res.status !== 200)
			throw new Error(`Updating credential ${id} failed: ${res.status} ${JSON.stringify(res.data)}`);
	}

	/** What a resource locator's list shows in the editor. */
	async listSearch(
		nodeType: string,
		methodName: string,
		credentials: Record<string, { id: string; name: string }>,
		options: { filter?: string; paginationToken?: string; parameters?: Record<string, unknown> } = {},
	): Promise<{ results: Array<{ name: string; value: string }>; paginationToken?: string }> {
		const res = await this.rest.post('/dynamic-node-parameters/resource-locator-results', {
			path: 'parameters.x',
			nodeTypeAndVersion: { name: nodeType, version: 1 },
			currentNodeParameters: options.parameters ?? {},
			methodName,
			credentials: this.importer.known(credentials),
			filter: options.filter,
			paginationToken: options.paginationToken,
		});
		if (res.status !== 200) throw new Error(`listSearch failed: ${res.status} ${JSON.stringify(res.data)}`);
		return res.data.data;
	}

	/**
	 * Activates or deactivates a workflow the way the editor does. Activation runs the
	 * trigger's first poll (2.8 before it answers, 2.41 just after), so with `polls`, a count
	 * of the requests a poll makes, it waits for that poll: "poll now" on every n8n, which
	 * refuses polls more often than once a minute from 2.x on.
	 */
	async setActive(id: string, active: boolean, polls?: () => number): Promise<void> {
		const before = polls?.();
		const current = await this.rest.get(`/workflows/${id}`);
		if (current.status !== 200) throw new Error(`Reading workflow ${id} failed: ${current.status}`);
		const { versionId } = current.data.data;
		// n8n 2.x: publish / unpublish endpoints; 1.x: the `active` flag of an update.
		let res = await this.rest.post(`/workflows/${id}/${active ? 'activate' : 'deactivate'}`, { versionId });
		if (res.status === 404) res = await this.rest.patch(`/workflows/${id}`, { versionId, active });
		if (res.status !== 200) {
			const message = res.data?.message ?? JSON.stringify(res.data);
			throw new Error(`${active ? 'Activating' : 'Deactivating'} workflow ${id} failed (${res.status}): ${message}`);
		}
		if (!active || !polls || before === undefined) return;
		// 2.41.1 under the matrix's load was seen to lose its SQLite connection for 15 s ("Database
		// ping failed ... timed out") while activating, and to poll later than a minute after.
		const deadline = Date.now() + 120_000;
		while (polls() <= before) {
			if (Date.now() > deadline)
				throw new Error(`Workflow ${id} was activated but its trigger did not poll within 120 s:\n${this.logTail()}`);
			await new Promise((r) => setTimeout(r, 100));
		}
	}

	/** One poll of a workflow's trigger, now: deactivate, then activate (the trigger keeps its state). */
	async pollNow(id: string, polls: () => number): Promise<void> {
		if (EMISSION_LOADS_PUBLISHED) await this.noPollFor(polls, 3_000);
		await this.setActive(id, false);
		await this.setActive(id, true, polls);
	}

	/**
	 * The trigger's next poll: at once by re-activation where that keeps the trigger's state and
	 * loses nothing (n8n 2.8); n8n's own next minute poll on 1.x, where the state was seen not to
	 * be kept, and on 2.41, where a re-activation may cost what a poll in flight emitted.
	 */
	async nextPoll(id: string, polls: () => number): Promise<void> {
		if (POLL_BY_REACTIVATION && !EMISSION_LOADS_PUBLISHED) return await this.pollNow(id, polls);
		const before = polls();
		// 2.41.1 under the matrix's load was seen to poll later than a minute after.
		const deadline = Date.now() + 150_000;
		while (polls() <= before) {
			if (Date.now() > deadline) throw new Error(`Workflow ${id} did not poll within 150 s:\n${this.logTail()}`);
			await new Promise((r) => setTimeout(r, 250));
		}
	}

	/**
	 * A poll with nothing to emit: forced where re-activation keeps the trigger's state (2.x; a
	 * poll in flight then loses nothing, having nothing to emit), n8n's own next one on 1.x.
	 */
	async quietPoll(id: string, polls: () => number): Promise<void> {
		if (POLL_BY_REACTIVATION) return await this.pollNow(id, polls);
		await this.nextPoll(id, polls);
	}

	/** Waits until the trigger has sent no request for `quietMs` (a poll of n8n's own has ended). */
	private async noPollFor(polls: () => number, quietMs: number): Promise<void> {
		let count = polls();
		let since = Date.now();
		while (Date.now() - since < quietMs) {
			await new Promise((r) => setTimeout(r, 100));
			if (polls() !== count) [count, since] = [polls(), Date.now()];
		}
	}

	/** How many executions n8n has recorded for a workflow, of the given statuses and mode (default: any; a poll's are `trigger`). */
	async executionCount(
		workflowId: string,
		status?: string[],
		mode?: 'trigger' | 'webhook' | 'manual',
	): Promise<number> {
		// n8n 2.41 lists at most 100 a page; the count covers every page.
		const filter = { workflowId, ...(status ? { status } : {}), ...(mode ? { mode } : {}) };
		const res = await this.rest.get('/executions', { params: { filter: JSON.stringify(filter), limit: 1 } });
		if (res.status !== 200) throw new Error(`Listing executions failed: ${res.status} ${JSON.stringify(res.data)}`);
		return Number(res.data.data.count);
	}

	/** Waits until no execution of the workflow is new or running. */
	async executionsFinished(workflowId: string, timeoutMs = 60_000): Promise<void> {
		const deadline = Date.now() + timeoutMs;
		while ((await this.executionCount(workflowId, ['new', 'running'])) > 0) {
			if (Date.now() > deadline) throw new Error(`Executions of ${workflowId} still running after ${timeoutMs} ms`);
			await new Promise((r) => setTimeout(r, 200));
		}
	}

	/**
	 * Why n8n could not activate a workflow. n8n 2.8 and 1.x refuse the activation request
	 * itself; 2.41 publishes first, activates behind it and reports each trigger's failure in
	 * the workflow's publication status, which the editor shows.
	 */
	async activationError(id: string, timeoutMs = 30_000): Promise<string> {
		try {
			await this.setActive(id, true);
		} catch (error) {
			return (error as Error).message;
		}
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const status = await this.rest.get(`/workflows/${id}/publication-status`);
			const failed = (status.data?.data?.triggers ?? []).find((t: { errorMessage?: string }) => t.errorMessage);
			if (failed) return String(failed.errorMessage);
			if (Date.now() > deadline) throw new Error(`Workflow ${id} was activated with no error`);
			await new Promise((r) => setTimeout(r, 200));
		}
	}

	/** The workflow's static data as n8n has stored it. */
	async staticData(workflowId: string): Promise<Record<string, any>> {
		const res = await this.rest.get(`/workflows/${workflowId}`);
		if (res.status !== 200) throw new Error(`Reading workflow ${workflowId} failed: ${res.status}`);
		return res.data.data.staticData ?? {};
	}

	/**
	 * Posts to a production webhook of an activated workflow. n8n 2.41 registers webhooks
	 * behind the activation request, answering 404 "not registered" (and starting nothing) until
	 * then: the same request is sent again until it is registered.
	 */
	async postWebhook(path: string, body: unknown, timeoutMs = 30_000): Promise<AxiosResponse> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const res = await axios.post(`${this.url}/webhook/${path}`, body, {
				validateStatus: () => true,
				timeout: 300_000,
			});
			if (res.status !== 404 || !/not registered/.test(JSON.stringify(res.data)) || Date.now() > deadline) return res;
			await new Promise((r) => setTimeout(r, 250));
		}
	}

	/**
	 * Runs a workflow from one of its triggers as the editor's "Execute workflow" does, in this n8n
	 * (`n8n execute` does not load n8n's data-table module), and waits for the run to end.
	 * 1.x and 2.8 take the workflow in the body; 2.41 reads it from the database.
	 */
	async runManually(id: string, trigger: string, timeoutMs = 120_000): Promise<{ status: string; error?: string }> {
		const { status, error } = await this.runAndRead(id, trigger, timeoutMs);
		return error === undefined ? { status } : { status, error };
	}

	/**
	 * Runs a workflow from a trigger as the editor does, in this running n8n, and reads its run as
	 * `n8n execute` gives it (`resultData`). The way to run a workflow with Data Table nodes:
	 * `n8n execute` does not load n8n's modules, so its Data Table nodes fail ("the module is disabled").
	 */
	async runAndRead(
		id: string,
		trigger: string,
		timeoutMs = 120_000,
	): Promise<RunResult & { status: string; error?: string }> {
		const current = await this.rest.get(`/workflows/${id}`);
		if (current.status !== 200) throw new Error(`Reading workflow ${id} failed: ${current.status}`);
		const res = await this.rest.post(`/workflows/${id}/run`, {
			workflowData: current.data.data,
			triggerToStartFrom: { name: trigger },
		});
		const executionId = res.data?.data?.executionId;
		if (res.status !== 200 || !executionId)
			throw new Error(`Running workflow ${id} failed: ${res.status} ${JSON.stringify(res.data)}`);
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const execution = await this.rest.get(`/executions/${executionId}`);
			const status = String(execution.data?.data?.status ?? '');
			if (execution.status === 200 && !['new', 'running', 'waiting', ''].includes(status)) {
				// The run's data is n8n's `flatted` text.
				const text = String(execution.data.data.data ?? '');
				const resultData = text
					? (parseFlatted(text) as { resultData?: RunResult['resultData'] }).resultData
					: undefined;
				const run = { exitCode: status === 'success' ? 0 : 1, resultData, stdout: '', stderr: '', status };
				if (status === 'success') return run;
				// Its error messages are enough to say what went wrong.
				const messages = text.match(/"[^"]*(Error|error)[^"]*"/g) ?? [];
				return { ...run, error: [...new Set(messages)].slice(0, 5).join(' | ') };
			}
			if (Date.now() > deadline)
				throw new Error(`Execution ${executionId} of ${id} still ${status} after ${timeoutMs} ms`);
			await new Promise((r) => setTimeout(r, 250));
		}
	}

	/** The process group n8n runs in (its task runners too), for reading their memory. */
	get processGroup(): number | undefined {
		return this.child.pid;
	}

	/** The end of n8n's log, for error messages. */
	logTail(chars = 3000): string {
		return this.log.join('').slice(-chars);
	}

	async stop(): Promise<void> {
		this.n8n.importer = undefined;
		await stopGroup(this.child);
	}
}
