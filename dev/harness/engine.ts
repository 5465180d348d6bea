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
	ICredentialType,
	INodeCredentialsDetails,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	INodeTypes,
	IRun,
	IVersionedNodeType,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import { existsSync, readFileSync } from 'fs';
import { basename, join } from 'path';
import { CredentialsHelper } from './credentials';
import { ROOT } from './paths';
import { RunResult } from './run-results';
import { Workflow } from './workflow-builders';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { engineNodesDir } = require('../install/engine-nodes.js');
/**
 * n8n's own nodes come from the n8n-nodes-base of the pinned 2.8 runtime, the one that matches
 * the engine (n8n-core 2.8 in node_modules), unpacked alone by dev/install/engine-nodes.js: no n8n
 * install, whatever UNPOD_N8N_RUNTIME says for the e2e layer.
 */
const ENGINE_NODES: string = engineNodesDir();

type Credential = { id: string; name: string; type: string; data: Record<string, unknown> };

/** An instance of the class a built node or credential file exports under its own name. */
function instanceOf<T>(file: string, suffix: '.node.js' | '.credentials.js'): T {
	if (!existsSync(file)) throw new Error(`${file} is missing: build the package ("npm run build") and install n8n`);
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const Class = require(file)[basename(file, suffix)] as new () => T;
	return new Class();
}

/** The package's nodes, as `dist/` builds them and n8n loads them. */
function packageNodeTypes(): Record<string, INodeType | IVersionedNodeType> {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const pkg = require(join(ROOT, 'package.json'));
	const types: Record<string, INodeType | IVersionedNodeType> = {};
	for (const file of pkg.n8n.nodes as string[]) {
		const node = instanceOf<INodeType>(join(ROOT, file), '.node.js');
		types[`${pkg.name}.${node.description.name}`] = node;
	}
	return types;
}

const builtCredentialType = () =>
	instanceOf<ICredentialType>(join(ROOT, 'dist', 'credentials', 'UnpodApi.credentials.js'), '.credentials.js');

/** n8n's own nodes the in-process workflows use. */
const BASE_NODES: Record<string, string> = {
	'n8n-nodes-base.manualTrigger': 'ManualTrigger/ManualTrigger.node.js',
	'n8n-nodes-base.noOp': 'NoOp/NoOp.node.js',
	'n8n-nodes-base.splitInBatches': 'SplitInBatches/SplitInBatches.node.js',
};
/** And those it needs only the description of: a Code node's rows are pinned (pinnedRows). */
const DESCRIBED_NODES = ['n8n-nodes-base.code'];

function baseNodeType(type: string): INodeType | IVersionedNodeType {
	const missing = () =>
		new Error(`${ENGINE_NODES} lacks ${type}: run "node dev/install/engine-nodes.js" (npm test and test:unit do)`);
	if (BASE_NODES[type]) {
		const file = join(ENGINE_NODES, 'dist', 'nodes', BASE_NODES[type]);
		if (!existsSync(file)) throw missing();
		return instanceOf<INodeType | IVersionedNodeType>(file, '.node.js');
	}
	const file = join(ENGINE_NODES, 'descriptions.json');
	if (!existsSync(file)) throw missing();
	const name = type.replace(/^n8n-nodes-base\./, '');
	const description = (JSON.parse(readFileSync(file, 'utf8')) as INodeTypeDescription[]).find((d) => d.name === name);
	if (!description) throw missing();
	return { description: { ...description, name: type } } as INodeType;
}

class NodeTypes implements INodeTypes {
	private readonly types: Record<string, INodeType | IVersionedNodeType> = packageNodeTypes();

	private load(type: string): INodeType | IVersionedNodeType {
		if (!this.types[type]) {
			if (!BASE_NODES[type] && !DESCRIBED_NODES.includes(type))
				throw new Error(`The in-process engine does not load ${type}`);
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

/**
 * n8n-core's execute context starts its SSH tunnel manager, whose cleanup timer would keep
 * the test process alive: n8n stops it at shutdown, and so does a test file when it ends.
 */
export function stopExecuteContextTimers(): void {
	Container.get(SSHClientsManager).onShutdown();
}

let executionCounter = 0;

export class Engine {
	private readonly workflows = new Map<string, Workflow>();
	private readonly credentials = new Map<string, Credential>();
	private readonly nodeTypes = new NodeTypes();
	/** The running execution's cancel, while one runs. */
	private running?: { cancel: () => void };

	async importCredentials(credentials: Credential[]): Promise<void> {
		for (const credential of credentials) this.credentials.set(credential.id, credential);
	}

	async importWorkflows(workflows: Workflow[]): Promise<void> {
		for (const workflow of workflows) this.workflows.set(workflow.id, workflow);
	}

	private credentialData(credential: INodeCredentialsDetails): ICredentialDataDecryptedObject {
		const found = credential.id ? this.credentials.get(credential.id) : undefined;
		if (!found) throw new Error(`Credential with ID "${credential.id}" does not exist`);
		return found.data as ICredentialDataDecryptedObject;
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
		const additionalData = this.additionalData(executionId, data);
		const start = data.nodes.find((n) => n.type === 'n8n-nodes-base.manualTrigger');
		const execution = new WorkflowExecute(additionalData, 'cli');
		const pinData = pinnedRows(data);
		const run = execution.run({ workflow, startNode: workflow.getNode(start?.name ?? '') ?? undefined, pinData });
		this.running = { cancel: () => run.cancel() };
		let result: IRun;
		try {
			result = await run;
		} finally {
			this.running = undefined;
		}
		const resultData = JSON.parse(JSON.stringify(result.data.resultData)) as RunResult['resultData'];
		return {
			exitCode: resultData?.error ? 1 : 0,
			resultData,
			stdout: JSON.stringify(result.data),
			stderr: log.lines.join('\n'),
		};
	}

	/** What n8n gives an execution besides the workflow: credentials, lifecycle hooks, its URLs. */
	private additionalData(executionId: string, data: Workflow): IWorkflowExecuteAdditionalData {
		return {
			credentialsHelper: new CredentialsHelper((credential) => this.credentialData(credential), builtCredentialType()),
			hooks: new ExecutionLifecycleHooks('cli', executionId, data as never),
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
	}

	dispose(): void {
		stopExecuteContextTimers();
	}
}
