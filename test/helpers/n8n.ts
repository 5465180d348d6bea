/**
 * Runs the built package inside real n8n (the pinned runtime in test/n8n/<version>),
 * loaded the way a user's n8n loads a community package.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'fs';
import { createServer } from 'net';
import { tmpdir } from 'os';
import { join, resolve } from 'path';
import { runGroup } from './processes';

export const ROOT = resolve(__dirname, '..', '..');
export const PACKAGE_NAME = 'n8n-nodes-unpod';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const runtime = require('../../scripts/runtime.js');
/** The recipe of the n8n tests run (UNPOD_N8N_RUNTIME, default test/n8n/2.8). */
const RECIPE: string = runtime.runtimeDir();
/** Where that n8n is installed (a per-user cache: scripts/runtime.js). */
export const RUNTIME: string = runtime.installDir(RECIPE);
/** The n8n version installed there. */
export const N8N_VERSION: string = existsSync(join(RUNTIME, 'node_modules', 'n8n'))
	? runtime.n8nVersion(RECIPE)
	: 'not installed';

export interface N8nNode {
	name: string;
	type: string;
	parameters?: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
	onError?: 'continueRegularOutput' | 'continueErrorOutput' | 'stopWorkflow';
	executeOnce?: boolean;
	typeVersion?: number;
	position?: [number, number];
	/** A webhook node's id: its production URL is `/webhook/<webhookId>/<path>`. */
	webhookId?: string;
}

export interface Workflow {
	id: string;
	name: string;
	nodes: Array<N8nNode & { id: string; typeVersion: number; position: [number, number] }>;
	connections: Record<string, { main: Array<Array<{ node: string; type: 'main'; index: number }>> }>;
	active: boolean;
	settings: Record<string, unknown>;
}

export interface RunResult {
	exitCode: number;
	/** `data.resultData` of the execution, when n8n printed it. */
	resultData?: {
		runData: Record<
			string,
			Array<{ data?: { main: Array<Array<{ json: any; error?: any; pairedItem?: any }> | null> }; error?: any }>
		>;
		error?: any;
		lastNodeExecuted?: string;
	};
	stdout: string;
	stderr: string;
}

/** Ports handed out by this process. */
const handedOut = new Set<number>();

/**
 * Each jest worker (and a process outside jest) takes ports from its own block, below the
 * ephemeral range the OS hands out for port 0: a port probed free here cannot be handed to
 * another worker's n8n, or to a server listening on port 0, before n8n binds it. (Ports the
 * OS picked once clashed: two workers were given the same one.) Test runs side by side
 * (test:compat's runtimes) each take a slot of blocks of their own (UNPOD_PORT_SLOT, 0 or 1).
 */
const PORT_BLOCK = 2000;
const PORT_BASE = 10000 + (Number(process.env.UNPOD_PORT_SLOT ?? 0) % 2) * 5 * PORT_BLOCK;

const isFree = (port: number) =>
	new Promise<boolean>((resolvePort) => {
		const server = createServer();
		server.once('error', () => resolvePort(false));
		server.listen(port, '127.0.0.1', () => server.close(() => resolvePort(true)));
	});

/** A port nothing listens on, never the same twice in this process (n8n needs two at once). */
export async function freePort(): Promise<number> {
	const worker = Number(process.env.JEST_WORKER_ID ?? 0) % 5;
	const start = PORT_BASE + worker * PORT_BLOCK;
	const offset = Math.floor(Math.random() * PORT_BLOCK);
	for (let i = 0; i < PORT_BLOCK; i++) {
		const port = start + ((offset + i) % PORT_BLOCK);
		if (handedOut.has(port) || !(await isFree(port))) continue;
		handedOut.add(port);
		return port;
	}
	throw new Error(`No free port in ${start}-${start + PORT_BLOCK - 1}`);
}

export const MANUAL_TRIGGER: N8nNode = { name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1 };

/** A workflow whose nodes run one after the other, from a Manual Trigger. */
export function chain(id: string, nodes: N8nNode[]): Workflow {
	return graph(
		id,
		[MANUAL_TRIGGER, ...nodes],
		nodes.map((n, i) => [i === 0 ? MANUAL_TRIGGER.name : nodes[i - 1].name, n.name]),
	);
}

/**
 * A workflow from nodes and [from, to] edges; `[from, to, output]` leaves `from` by another
 * output than the first (1 is the error output of a node set to Continue (using error output)).
 */
export function graph(
	id: string,
	nodes: N8nNode[],
	edges: Array<[from: string, to: string] | [from: string, to: string, output: number]>,
): Workflow {
	const connections: Workflow['connections'] = {};
	for (const [from, to, output = 0] of edges) {
		connections[from] ??= { main: [] };
		const outputs = connections[from].main;
		for (let i = outputs.length; i <= output; i++) outputs.push([]);
		outputs[output].push({ node: to, type: 'main', index: 0 });
	}
	return {
		id,
		name: id,
		active: false,
		settings: { executionOrder: 'v1' },
		connections,
		nodes: nodes.map((n, i) => ({
			id: `${id}-${i}`,
			typeVersion: 1,
			position: [i * 220, 0] as [number, number],
			...n,
			parameters: n.parameters ?? {},
		})),
	};
}

export class N8n {
	readonly folder: string;
	readonly env: NodeJS.ProcessEnv;

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
				`n8n is not installed in ${RUNTIME}; run "npm test" (it installs it) or "node scripts/runtime.js"`,
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
			// The runtime's own Node and settings (Node 24 for n8n 2.36+, the legacy expression engine for 1.x).
			...runtime.runtimeEnv(RECIPE, process.env),
			...overrides,
		};
		// jest sets NODE_ENV=test, under which n8n's CLI stays silent and does nothing.
		delete env.NODE_ENV;
		delete env.JEST_WORKER_ID;
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

	importCredentials(credentials: Array<{ id: string; name: string; type: string; data: Record<string, unknown> }>) {
		return this.importFile('credentials', credentials);
	}

	importWorkflows(workflows: Workflow[]) {
		return this.importFile('workflow', workflows);
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

function findResultData(text: string): RunResult['resultData'] {
	return findLoggedRun(text) ?? findPrintedRun(text);
}

/** n8n 1.x prints the run as indented JSON, a line holding `{` to a line holding `}`. */
function findPrintedRun(text: string): RunResult['resultData'] {
	const lines = text.split('\n');
	for (let end = lines.length - 1; end >= 0; end--) {
		if (lines[end] !== '}') continue;
		for (let start = end - 1; start >= 0; start--) {
			if (lines[start] !== '{') continue;
			const found = resultDataOf(safeParse(lines.slice(start, end + 1).join('\n')));
			if (found) return found;
		}
	}
	return undefined;
}

/** n8n 2.x logs the run as one JSON log line. */
function findLoggedRun(text: string): RunResult['resultData'] {
	for (const line of text.split('\n').reverse()) {
		const trimmed = line.trim();
		if (!trimmed.startsWith('{')) continue;
		try {
			const parsed = JSON.parse(trimmed);
			const found = resultDataOf(parsed) ?? resultDataOf(safeParse(parsed.message));
			if (found) return found;
		} catch {
			// not a JSON line
		}
	}
	return undefined;
}

/** A run (`{data: {resultData}}`) or its data (`{resultData}`), as n8n prints one or the other. */
function resultDataOf(value: any): RunResult['resultData'] {
	return value?.data?.resultData ?? value?.resultData;
}

function safeParse(text: unknown): any {
	if (typeof text !== 'string') return undefined;
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}

/** Why a node has no run data: n8n's own error when it gave one, else the end of its log. */
function didNotRun(run: RunResult, node: string): Error {
	const error = run.resultData?.error;
	const reason = error
		? `n8n's error: ${error.name ?? ''} ${error.message ?? ''} ${error.description ?? ''}`.trim()
		: `n8n exited with ${run.exitCode}; its output ends:\n${(run.stdout + run.stderr).slice(-3000)}`;
	return new Error(`Node "${node}" did not run. ${reason}`);
}

/** Fails with n8n's own error, or the end of its log, unless the run succeeded. */
export function expectSucceeded(run: RunResult): void {
	if (run.exitCode === 0) return;
	const error = run.resultData?.error;
	// Beside a busy n8n start, 2.41.1's `execute` was seen to exit 1 after printing a run with
	// status "success": the run is what the tests check; what n8n said is shown.
	if (
		run.resultData &&
		!error &&
		/\\?"status\\?":\s*\\?"success\\?",\s*(\\n)?\s*\\?"finished\\?":\s*true/.test(run.stdout)
	) {
		console.warn(
			`n8n execute exited ${run.exitCode} after a successful run; its stderr ends:\n${run.stderr.slice(-2000)}`,
		);
		return;
	}
	throw new Error(
		`n8n execute exited ${run.exitCode}. ` +
			(error
				? `n8n's error: ${error.name ?? ''} ${error.message ?? ''} ${error.description ?? ''}`.trim()
				: `Its output ends:\n${(run.stdout + run.stderr).slice(-3000)}`),
	);
}

/** The JSON of every item a node put out (first run, first output). */
export function outputOf(run: RunResult, node: string): any[] {
	return itemsOf(run, node).map((item) => item.json);
}

/** The items a node put out, with their error and pairing. */
export function itemsOf(run: RunResult, node: string): Array<{ json: any; error?: any; pairedItem?: any }> {
	const runs = run.resultData?.runData?.[node];
	if (!runs?.length) throw didNotRun(run, node);
	return runs[0].data?.main?.[0] ?? [];
}

/** A Code node that emits the given rows as items (a sheet's rows, say). */
export function rowsNode(name: string, rows: Array<Record<string, unknown>>): N8nNode {
	return {
		name,
		type: 'n8n-nodes-base.code',
		typeVersion: 2,
		parameters: {
			mode: 'runOnceForAllItems',
			language: 'javaScript',
			jsCode: `return ${JSON.stringify(rows)}.map((json) => ({ json }));`,
		},
	};
}

/** Polls `check` until it holds; fails naming `what` after `timeoutMs`. For conditions, never fixed sleeps. */
export async function waitFor(
	what: string,
	check: () => boolean | Promise<boolean>,
	timeoutMs = 60_000,
	everyMs = 200,
): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!(await check())) {
		if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
		await new Promise((r) => setTimeout(r, everyMs));
	}
}

/** An HTTP Request node that posts each item (or `jsonBody`) to a URL: how test workflows report what they got. */
export function reportNode(name: string, url: string, jsonBody = '={{ JSON.stringify($json) }}'): N8nNode {
	return {
		name,
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		parameters: { method: 'POST', url, sendBody: true, specifyBody: 'json', jsonBody, options: {} },
	};
}
