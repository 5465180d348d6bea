/**
 * Runs test workflows in this process with n8n's own engine (n8n-core's `WorkflowExecute`, the
 * way n8n's node test harness does): the package's built nodes as n8n loads them, n8n's own
 * nodes where a workflow uses them, real HTTP to the local Unpod server. It answers like `N8n`
 * (import, execute, run), so a test file picks one or the other in its harness; a real n8n
 * process is kept for what only a process proves (loading, the editor, activation, webhooks).
 */
import './poll-env';
import { Container } from '@n8n/di';
import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import { SSHClientsManager } from 'n8n-core/dist/execution-engine/ssh-clients-manager';
import { LoggerProxy, NodeHelpers, Workflow as N8nWorkflow } from 'n8n-workflow';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IHttpRequestOptions,
	INodeCredentialsDetails,
	INodeExecutionData,
	INodeType,
	INodeTypes,
	IRun,
	IVersionedNodeType,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import { existsSync } from 'fs';
import { basename, join } from 'path';
import { ROOT, RUNTIME, RunResult, Workflow } from './n8n';

type Credential = { id: string; name: string; type: string; data: Record<string, unknown> };

/** The package's nodes, as `dist/` builds them and n8n loads them. */
function packageNodeTypes(): Record<string, INodeType | IVersionedNodeType> {
	const dist = join(ROOT, 'dist', 'nodes');
	if (!existsSync(dist)) throw new Error('The package is not built; run "npm run build"');
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const pkg = require(join(ROOT, 'package.json'));
	const types: Record<string, INodeType | IVersionedNodeType> = {};
	for (const file of pkg.n8n.nodes as string[]) {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const module = require(join(ROOT, file));
		const NodeClass = module[basename(file, '.node.js')] as new () => INodeType;
		const node = new NodeClass();
		types[`${pkg.name}.${node.description.name}`] = node;
	}
	return types;
}

/** n8n's own nodes the in-process workflows use, from the installed n8n (test/n8n/2.8). */
const BASE_NODES: Record<string, string> = {
	'n8n-nodes-base.manualTrigger': 'ManualTrigger/ManualTrigger.node.js',
	'n8n-nodes-base.noOp': 'NoOp/NoOp.node.js',
	'n8n-nodes-base.splitInBatches': 'SplitInBatches/SplitInBatches.node.js',
	// Loaded for its description only: its rows are pinned (pinnedRows).
	'n8n-nodes-base.code': 'Code/Code.node.js',
};

function baseNodeType(type: string): INodeType | IVersionedNodeType {
	const file = join(RUNTIME, 'node_modules', 'n8n-nodes-base', 'dist', 'nodes', BASE_NODES[type]);
	if (!existsSync(file)) throw new Error(`n8n is not installed in ${RUNTIME}; run "node scripts/runtime.js"`);
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const module = require(file);
	const NodeClass = module[basename(file, '.node.js')] as new () => INodeType;
	return new NodeClass();
}

class NodeTypes implements INodeTypes {
	private readonly types: Record<string, INodeType | IVersionedNodeType> = packageNodeTypes();

	private load(type: string): INodeType | IVersionedNodeType {
		if (!this.types[type]) {
			if (!BASE_NODES[type]) throw new Error(`The in-process engine does not load ${type}`);
			this.types[type] = baseNodeType(type);
		}
		return this.types[type];
	}

	getByName(type: string) {
		return this.load(type);
	}

	getByNameAndVersion(type: string, version?: number): INodeType {
		return NodeHelpers.getVersionedNodeType(this.load(type), version);
	}

	getKnownTypes() {
		return {};
	}
}

/** The credential's own `authenticate` headers applied as n8n's credentials helper does. */
export function authenticateWith(
	properties: { headers?: Record<string, string> },
	credentials: ICredentialDataDecryptedObject,
	options: IHttpRequestOptions,
): IHttpRequestOptions {
	const resolved = Object.fromEntries(
		Object.entries(properties.headers ?? {}).map(([k, v]) => [
			k,
			String(v)
				.replace(/^=/, '')
				.replace(/\{\{\s*\$credentials\.(\w+)\s*\}\}/g, (_, key) => String(credentials[key] ?? '')),
		]),
	);
	return { ...options, headers: { ...(options.headers ?? {}), ...resolved } };
}

class CredentialsHelper {
	constructor(private readonly byId: Map<string, Credential>) {}

	getParentTypes() {
		return [];
	}
	async preAuthentication() {
		return undefined;
	}
	async getDecrypted(_additional: unknown, nodeCredentials: INodeCredentialsDetails) {
		const found = nodeCredentials.id ? this.byId.get(nodeCredentials.id) : undefined;
		if (!found) throw new Error(`Credential with ID "${nodeCredentials.id}" does not exist`);
		return found.data as ICredentialDataDecryptedObject;
	}
	getCredentialsProperties() {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const { UnpodApi } = require(join(ROOT, 'dist', 'credentials', 'UnpodApi.credentials.js'));
		return new UnpodApi().properties;
	}
	async authenticate(credentials: ICredentialDataDecryptedObject, _type: string, options: IHttpRequestOptions) {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const { UnpodApi } = require(join(ROOT, 'dist', 'credentials', 'UnpodApi.credentials.js'));
		return authenticateWith(new UnpodApi().authenticate.properties, credentials, options);
	}
	async updateCredentials() {}
	async updateCredentialsOauthTokenData() {}
}

/**
 * A rows node (`rowsNode`) is a Code node, which n8n runs in its task runner, a process the
 * in-process engine does not start: its rows are pinned instead, as the editor pins data.
 */
function pinnedRows(workflow: Workflow): Record<string, INodeExecutionData[]> {
	const pinned: Record<string, INodeExecutionData[]> = {};
	for (const node of workflow.nodes) {
		if (node.type !== 'n8n-nodes-base.code') continue;
		const match = /^return (.*)\.map\(\(json\) => \(\{ json \}\)\);$/s.exec(String(node.parameters?.jsCode ?? ''));
		if (!match) throw new Error(`Node "${node.name}": the in-process engine runs no Code node but rowsNode's`);
		pinned[node.name] = (JSON.parse(match[1]) as IDataObject[]).map((json) => ({ json }));
	}
	return pinned;
}

/** n8n's log lines of one run, kept so that tests can read them (secrets must not be there). */
class LogCapture {
	lines: string[] = [];
	private write = (level: string) => (message: string, meta?: object) =>
		this.lines.push(JSON.stringify({ level, message, ...(meta ?? {}) }));
	error = this.write('error');
	warn = this.write('warn');
	info = this.write('info');
	debug = this.write('debug');
}

let executionCounter = 0;

export class Engine {
	private readonly workflows = new Map<string, Workflow>();
	private readonly credentials = new Map<string, Credential>();
	private readonly nodeTypes = new NodeTypes();
	/** What the last run put out, and the way to cancel a running one. */
	private running?: { cancel: () => void };

	async importCredentials(credentials: Credential[]): Promise<void> {
		for (const credential of credentials) this.credentials.set(credential.id, credential);
	}

	async importWorkflows(workflows: Workflow[]): Promise<void> {
		for (const workflow of workflows) this.workflows.set(workflow.id, workflow);
	}

	/** Runs an imported workflow from its Manual Trigger, as `n8n execute` does. */
	async execute(id: string): Promise<RunResult> {
		const workflow = this.workflows.get(id);
		if (!workflow) throw new Error(`No workflow ${id} was imported`);
		return await this.runWorkflow(workflow);
	}

	async run(workflow: Workflow): Promise<RunResult> {
		await this.importWorkflows([workflow]);
		return await this.execute(workflow.id);
	}

	/** Cancels the running execution, as the editor's Stop button does. */
	cancel(): void {
		this.running?.cancel();
	}

	private async runWorkflow(data: Workflow): Promise<RunResult> {
		const executionId = String(++executionCounter);
		const workflow = new N8nWorkflow({
			id: data.id,
			name: data.name,
			nodes: data.nodes as never,
			connections: data.connections as never,
			active: false,
			staticData: {},
			settings: data.settings,
			nodeTypes: this.nodeTypes,
		});
		const log = new LogCapture();
		LoggerProxy.init(log as never);
		const hooks = new ExecutionLifecycleHooks('cli', executionId, data as never);
		const additionalData = {
			credentialsHelper: new CredentialsHelper(this.credentials),
			hooks,
			executionId,
			restApiUrl: 'http://127.0.0.1/rest',
			instanceBaseUrl: 'http://127.0.0.1/',
			webhookBaseUrl: 'http://127.0.0.1/webhook',
			webhookWaitingBaseUrl: 'http://127.0.0.1/webhook-waiting',
			webhookTestBaseUrl: 'http://127.0.0.1/webhook-test',
			formWaitingBaseUrl: 'http://127.0.0.1/form-waiting',
			currentNodeParameters: undefined,
			currentNodeExecutionIndex: 0,
			variables: {},
			setExecutionStatus: () => {},
			sendDataToUI: () => {},
			executeWorkflow: async () => {
				throw new Error('The in-process engine runs no sub-workflows');
			},
			logAiEvent: () => {},
		} as unknown as IWorkflowExecuteAdditionalData;
		const start = data.nodes.find((n) => n.type === 'n8n-nodes-base.manualTrigger');
		const execution = new WorkflowExecute(additionalData, 'cli');
		const pinData = pinnedRows(data);
		const process = execution.run({ workflow, startNode: workflow.getNode(start?.name ?? '') ?? undefined, pinData });
		this.running = { cancel: () => process.cancel() };
		let result: IRun;
		try {
			result = await process;
		} finally {
			this.running = undefined;
		}
		const resultData = JSON.parse(JSON.stringify(result.data.resultData)) as RunResult['resultData'];
		return {
			exitCode: resultData?.error ? 1 : 0,
			status: result.status,
			resultData,
			stdout: JSON.stringify(result.data),
			stderr: log.lines.join('\n'),
		};
	}

	/** n8n-core's SSH tunnel manager starts a timer when a context is first made; n8n stops it at shutdown. */
	dispose(): void {
		Container.get(SSHClientsManager).onShutdown();
	}
}
