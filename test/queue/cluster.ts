/**
 * n8n in queue mode, as teams run it at scale: Redis, PostgreSQL, one main (triggers,
 * pollers, webhooks, the editor's API) and workers (`n8n worker`) that run the executions.
 * Each n8n process has its own user folder with the package installed, as separate
 * machines would; they share the database, Redis and the encryption key.
 */
import axios from 'axios';
import type { ChildProcess } from 'child_process';
import { randomUUID } from 'crypto';
import type { UnpodServer } from '../../dev/server/server';
import { N8n } from '../../dev/harness/n8n';
import { freePort } from '../../dev/harness/ports';
import { graph, N8nNode, Workflow } from '../../dev/harness/workflow-builders';
import { N8nServer } from '../../dev/harness/n8n-server';
import { spawnN8n } from '../../dev/harness/n8n-process';
import { stopGroup } from '../../dev/harness/processes';
import { credentialsFor } from '../helpers/setup';
import { Service, startPostgres, startRedis } from './services';

export interface Worker {
	name: string;
	n8n: N8n;
	healthPort: number;
	child?: ChildProcess;
	log: string[];
}

export class QueueCluster {
	readonly workers: Worker[] = [];
	main!: N8nServer;
	private services: Service[] = [];
	private folders: N8n[] = [];

	private constructor(
		readonly server: UnpodServer,
		private readonly concurrency: number,
	) {}

	static async start(
		server: UnpodServer,
		workflows: Workflow[],
		options: { workers?: number; concurrency?: number } = {},
	): Promise<QueueCluster> {
		const cluster = new QueueCluster(server, options.concurrency ?? 5);
		try {
			await cluster.boot(workflows, options.workers ?? 2);
			return cluster;
		} catch (error) {
			await cluster.close();
			throw error;
		}
	}

	private async boot(workflows: Workflow[], workers: number): Promise<void> {
		const redis = await startRedis();
		this.services.push(redis);
		const postgres = await startPostgres();
		this.services.push(postgres);
		const shared: NodeJS.ProcessEnv = {
			EXECUTIONS_MODE: 'queue',
			QUEUE_BULL_REDIS_HOST: '127.0.0.1',
			QUEUE_BULL_REDIS_PORT: String(redis.port),
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: '127.0.0.1',
			DB_POSTGRESDB_PORT: String(postgres.port),
			DB_POSTGRESDB_DATABASE: postgres.database,
			DB_POSTGRESDB_USER: 'postgres',
			DB_POSTGRESDB_PASSWORD: '',
			// n8n's own requirement in queue mode: binary data where every process can read it.
			N8N_DEFAULT_BINARY_DATA_MODE: 'database',
		};
		const main = await N8n.create({ ...shared, UNPOD_PROCESS: 'main' });
		this.folders.push(main);
		// Every process signs and reads resume addresses with the main's address, which serves webhooks.
		shared.WEBHOOK_URL = `http://127.0.0.1:${main.env.N8N_PORT}/`;
		main.env.WEBHOOK_URL = shared.WEBHOOK_URL;
		// Saved once the main serves (n8n 2.x), whose start runs the migrations before any worker starts.
		await main.importCredentials(credentialsFor(this.server));
		await main.importWorkflows(workflows);
		this.main = await N8nServer.start(main);
		for (let i = 1; i <= workers; i++) {
			const healthPort = await freePort();
			const n8n = await N8n.create({
				...shared,
				UNPOD_PROCESS: `worker-${i}`,
				QUEUE_HEALTH_CHECK_ACTIVE: 'true',
				QUEUE_HEALTH_CHECK_PORT: String(healthPort),
				N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
			});
			this.folders.push(n8n);
			this.workers.push({ name: `worker-${i}`, n8n, healthPort, log: [] });
		}
		await Promise.all(this.workers.map((w) => this.startWorker(w)));
	}

	async startWorker(worker: Worker): Promise<void> {
		const { child, log } = await spawnN8n(
			worker.n8n,
			['worker', `--concurrency=${this.concurrency}`],
			`http://127.0.0.1:${worker.healthPort}/healthz/readiness`,
			Date.now() + 240_000,
		);
		worker.child = child;
		worker.log = log;
	}

	/** SIGTERM lets the worker finish its jobs (n8n's graceful shutdown); SIGKILL is a crash. */
	async stopWorker(worker: Worker, signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<void> {
		if (!worker.child) return;
		await stopGroup(worker.child, 40_000, signal);
		worker.child = undefined;
	}

	/** Activates (publishes) workflows on the main: webhooks and pollers start there. */
	async activate(...ids: string[]): Promise<void> {
		for (const id of ids) await this.main.setActive(id, true);
	}

	/** Calls a production webhook on the main; `signal` lets a test walk away from the answer. */
	async webhook(path: string, body: unknown, signal?: AbortSignal): Promise<{ status: number; data: any }> {
		const res = await axios.post(`${this.main.url}/webhook/${path}`, body, {
			validateStatus: () => true,
			timeout: 600_000,
			signal,
			maxContentLength: Infinity,
		});
		return { status: res.status, data: res.data };
	}

	/** The execution ids each process ran, from n8n's own log lines. */
	executionsRun(): Record<string, string[]> {
		const ran: Record<string, string[]> = { main: startedIn(this.main.log) };
		for (const w of this.workers) ran[w.name] = startedIn(w.log);
		return ran;
	}

	/** Which worker started `before`'s count + 1 executions first: where the next job landed. */
	async waitForJob(before: Record<string, string[]>, timeoutMs = 60_000): Promise<Worker> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const now = this.executionsRun();
			const worker = this.workers.find((w) => now[w.name].length > before[w.name].length);
			if (worker) return worker;
			if (Date.now() > deadline) throw new Error('No worker started the execution');
			await new Promise((r) => setTimeout(r, 100));
		}
	}

	async close(): Promise<void> {
		await Promise.all(this.workers.map((w) => this.stopWorker(w).catch(() => undefined)));
		await this.main?.stop().catch(() => undefined);
		for (const service of this.services.reverse()) await service.stop().catch(() => undefined);
		for (const n8n of this.folders) n8n.dispose();
	}
}

/** "Worker started execution 12 (job 7)", as n8n logs it (JSON log lines or plain). */
function startedIn(log: string[]): string[] {
	return [...log.join('').matchAll(/Worker started execution (\d+)/g)].map((m) => m[1]);
}

/** A workflow started by a production webhook on the main; it answers with its last node's items. */
export function webhookWorkflow(id: string, path: string, nodes: N8nNode[], edges: Array<[string, string]>): Workflow {
	const webhook = {
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		webhookId: randomUUID(),
		parameters: { httpMethod: 'POST', path, responseMode: 'lastNode', responseData: 'allEntries', options: {} },
	};
	return graph(id, [webhook, ...nodes], edges);
}
