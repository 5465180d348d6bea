/**
 * Runs the built package inside real n8n (the pinned runtime in test/n8n/<version>),
 * loaded the way a user's n8n loads a community package.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { copyMigratedDatabase } from './database-template';
import { EVERY_MINUTE_POLLS_AS } from './n8n-versions';
import { PACKAGE_NAME, RECIPE, ROOT, RUNTIME } from './paths';
import { freePort } from './ports';
import { runGroup } from './processes';
import { findResultData } from './run-results';
import type { RunResult } from './run-results';
import type { Workflow } from './workflow-builders';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const runtime = require('../install/runtime.js');

export type Credential = { id: string; name: string; type: string; data: Record<string, unknown> };

/** Saves credentials and workflows in a running n8n, through its REST API. */
export interface Importer {
	credentials(credentials: Credential[]): Promise<void>;
	workflows(workflows: Workflow[]): Promise<void>;
}

/** A trigger that polls every minute polls as EVERY_MINUTE_POLLS_AS says, where it says so. */
function testPollTimes(workflow: Workflow): void {
	if (!EVERY_MINUTE_POLLS_AS) return;
	for (const node of workflow.nodes) {
		const times = node.parameters?.pollTimes as { item?: Array<{ mode?: string }> } | undefined;
		if (times?.item?.length === 1 && times.item[0].mode === 'everyMinute') times.item = [{ ...EVERY_MINUTE_POLLS_AS }];
	}
}

export class N8n {
	readonly folder: string;
	readonly env: NodeJS.ProcessEnv;
	/**
	 * The running n8n's REST API while one serves this folder (set by N8nServer.start): each
	 * `n8n import:*` is an n8n start-up of its own (4 to 5 CPU-seconds on n8n 2.8).
	 */
	importer?: Importer;
	/**
	 * What waits for the next `n8n start` on this folder (N8nServer.start saves it) or the next
	 * `n8n execute` (imported then): credentials and workflows, in the order given.
	 */
	private pending: { credentials: Credential[]; workflows: Workflow[] } = { credentials: [], workflows: [] };

	private constructor(folder: string, env: NodeJS.ProcessEnv) {
		this.folder = folder;
		this.env = env;
	}

	/**
	 * A fresh n8n user folder with the built package installed as a community package.
	 * `overrides` change n8n's environment (queue mode: database, Redis, role).
	 */
	static async create(overrides: NodeJS.ProcessEnv = {}): Promise<N8n> {
		if (!existsSync(join(RUNTIME, 'node_modules', '.bin', 'n8n'))) {
			throw new Error(
				`n8n is not installed in ${RUNTIME}; run "npm test" (it installs it) or "node dev/install/runtime.js"`,
			);
		}
		if (!existsSync(join(ROOT, 'dist', 'nodes'))) throw new Error('The package is not built; run "npm run build"');
		// Outside the repository: inside it, the package would resolve the repository's own
		// n8n-workflow instead of the one n8n provides, as no user's install would.
		const folder = mkdtempSync(join(tmpdir(), 'unpod-n8n-'));
		const target = join(folder, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME);
		mkdirSync(target, { recursive: true });
		cpSync(join(ROOT, 'package.json'), join(target, 'package.json'));
		cpSync(join(ROOT, 'dist'), join(target, 'dist'), { recursive: true });
		// n8n's own temp files (data-table uploads, and others) go into the folder dispose() removes.
		const tmp = join(folder, 'tmp');
		mkdirSync(tmp);
		const env: NodeJS.ProcessEnv = {
			...process.env,
			N8N_USER_FOLDER: folder,
			N8N_ENCRYPTION_KEY: 'unpod-test-encryption-key',
			DB_TYPE: 'sqlite',
			N8N_LISTEN_ADDRESS: '127.0.0.1',
			N8N_PORT: String(await freePort()),
			N8N_RUNNERS_BROKER_PORT: String(await freePort()),
			N8N_DIAGNOSTICS_ENABLED: 'false',
			N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
			N8N_TEMPLATES_ENABLED: 'false',
			N8N_PERSONALIZATION_ENABLED: 'false',
			N8N_SECURE_COOKIE: 'false',
			N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
			N8N_REINSTALL_MISSING_PACKAGES: 'false',
			N8N_LOG_LEVEL: 'info',
			N8N_LOG_FORMAT: 'json',
			GENERIC_TIMEZONE: 'UTC',
			TMPDIR: tmp,
			N8N_BLOCK_ENV_ACCESS_IN_NODE: 'false',
			// n8n 2.41 pings its database every 2 s; a ping over 5 s (its default) marks the database
			// down, and n8n answers every request 503 "Database is not ready!" until one passes. On two
			// cores shared with the matrix's other n8n processes its SQLite pings took longer, and a
			// push of Unpod's was answered 500, 503, 503. Earlier versions ignore the setting.
			DB_PING_TIMEOUT_MS: '30000',
			// The runtime's own Node and settings (Node 24 for n8n 2.36+, the legacy expression engine for 1.x).
			...runtime.runtimeEnv(RECIPE, process.env),
			...overrides,
		};
		// jest sets NODE_ENV=test, under which n8n's CLI stays silent and does nothing.
		delete env.NODE_ENV;
		delete env.JEST_WORKER_ID;
		if (env.DB_TYPE === 'sqlite') await copyMigratedDatabase(env, join(folder, '.n8n'));
		return new N8n(folder, env);
	}

	cli(
		args: string[],
		timeoutMs = 120_000,
		env: NodeJS.ProcessEnv = {},
	): Promise<{ exitCode: number; stdout: string; stderr: string }> {
		return runGroup(join(RUNTIME, 'node_modules', '.bin', 'n8n'), args, {
			env: { ...this.env, ...env },
			cwd: this.folder,
			timeoutMs,
		});
	}

	private async importFile(kind: 'credentials' | 'workflow', data: unknown): Promise<void> {
		const file = join(this.folder, `${kind}-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
		writeFileSync(file, JSON.stringify(data));
		const result = await this.cli([`import:${kind}`, `--input=${file}`]);
		if (result.exitCode !== 0) {
			throw new Error(`n8n import:${kind} failed (${result.exitCode}):\n${result.stdout}\n${result.stderr}`);
		}
	}

	async importCredentials(credentials: Credential[]): Promise<void> {
		if (this.importer) await this.importer.credentials(credentials);
		else this.pending.credentials.push(...credentials);
	}

	async importWorkflows(workflows: Workflow[]): Promise<void> {
		workflows.forEach(testPollTimes);
		if (this.importer) await this.importer.workflows(workflows);
		else this.pending.workflows.push(...workflows);
	}

	/** Imports workflows by n8n's CLI, which keeps their ids (n8n 1.x's REST API gives new ones). */
	importWorkflowsByCli(workflows: Workflow[]): Promise<void> {
		workflows.forEach(testPollTimes);
		return this.importFile('workflow', workflows);
	}

	/** Hands over what waits to be saved (N8nServer.start), leaving nothing waiting. */
	takePending(): { credentials: Credential[]; workflows: Workflow[] } {
		const { pending } = this;
		this.pending = { credentials: [], workflows: [] };
		return pending;
	}

	/** Imports what waits, by n8n's CLI: for a command that reads the database without a running n8n. */
	private async importPending(): Promise<void> {
		const { credentials, workflows } = this.takePending();
		if (credentials.length) await this.importFile('credentials', credentials);
		if (workflows.length) await this.importFile('workflow', workflows);
	}

	/**
	 * Runs an imported workflow with `n8n execute` and reads the run from n8n's log. Its ports
	 * are picked just before it starts: ports picked when the harness was made lie unbound
	 * between runs, where another test worker's n8n (or an `n8n start` on this folder) may take them.
	 */
	async execute(id: string): Promise<RunResult> {
		const first = await this.executeOnce(id);
		if (first.exitCode === 0 || first.resultData) return first;
		// n8n ended without putting out any run: nothing of the workflow is known to have run, so
		// it is tried once more, saying so (not seen yet; a run that exits 1 is judged by expectSucceeded).
		console.warn(
			`n8n execute of ${id} exited ${first.exitCode} with no run; again. Its output ends:\n${(first.stdout + first.stderr).slice(-2000)}`,
		);
		return await this.executeOnce(id);
	}

	private async executeOnce(id: string): Promise<RunResult> {
		await this.importPending();
		const env = { N8N_RUNNERS_BROKER_PORT: String(await freePort()), N8N_PORT: String(await freePort()) };
		const { exitCode, stdout, stderr } = await this.cli(['execute', `--id=${id}`, '--rawOutput'], 300_000, env);
		return { exitCode, stdout, stderr, resultData: findResultData(stdout) ?? findResultData(stderr) };
	}

	async run(workflow: Workflow): Promise<RunResult> {
		await this.importWorkflows([workflow]);
		return this.execute(workflow.id);
	}

	dispose(): void {
		if (!process.env.UNPOD_KEEP_TMP) rmSync(this.folder, { recursive: true, force: true });
	}
}
