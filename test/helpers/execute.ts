/**
 * Runs a Unpod Task operation inside n8n-core's own ExecuteContext, in this process: the
 * node's real `execute`, n8n's real parameter, static-data and request helpers, and HTTP to
 * the local Unpod server. For the branches of an operation that end-to-end runs make slow
 * to reach; the end-to-end suites run the same code inside a running n8n.
 */
import '../../dev/harness/poll-env';
import { ExecuteContext } from 'n8n-core';
import type { Workflow } from 'n8n-workflow';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INode,
	INodeExecutionData,
	IRunExecutionData,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import { UnpodTask } from '../../nodes/UnpodTask/UnpodTask.node';
import { oneNodeWorkflow } from './poll';
import { credentialsFor } from './setup';
import { TASK_TEST_DEFAULTS } from './nodes';
import type { UnpodServer } from '../../dev/server/server';
import { SEED } from '../../dev/server/seed';

export interface ExecutorOptions {
	credentials: ICredentialDataDecryptedObject;
	parameters: IDataObject;
	onError?: INode['onError'];
	typeVersion?: number;
}

export class Executor {
	readonly node: INode;
	readonly workflow: InstanceType<typeof Workflow>;
	private readonly additionalData: IWorkflowExecuteAdditionalData;
	private readonly task = new UnpodTask();
	/** Shared by the runs of one Executor, as n8n shares it between the runs of one execution. */
	private runExecutionData!: IRunExecutionData;

	constructor(options: ExecutorOptions) {
		this.node = {
			id: 'task',
			name: 'Unpod Task',
			type: 'n8n-nodes-unpod.unpodTask',
			typeVersion: options.typeVersion ?? 1,
			position: [0, 0],
			// Calling hours depend on the hour a test runs, consent has tests of its own: on only where a test says so.
			parameters: { ...TASK_TEST_DEFAULTS, ...options.parameters } as INode['parameters'],
			credentials: { unpodApi: { id: 'unpod', name: 'Unpod' } },
			...(options.onError ? { onError: options.onError } : {}),
		};
		({ workflow: this.workflow, additionalData: this.additionalData } = oneNodeWorkflow(
			this.node,
			this.task,
			options.credentials,
			false,
		));
		this.newExecution();
	}

	/** The next runs are another execution of the same workflow: its static data kept, the execution's context new. */
	newExecution(): void {
		this.runExecutionData = {
			resultData: { runData: {} },
			executionData: {
				contextData: {},
				nodeExecutionStack: [],
				metadata: {},
				waitingExecution: {},
				waitingExecutionSource: {},
			},
		} as unknown as IRunExecutionData;
	}

	/** The node's output for `rows` (its first output), or what it threw. */
	async run(rows: IDataObject[], runIndex = 0): Promise<INodeExecutionData[]> {
		const items: INodeExecutionData[] = rows.map((json) => ({ json }));
		const context = new ExecuteContext(
			this.workflow,
			this.node,
			this.additionalData,
			'manual',
			this.runExecutionData,
			runIndex,
			items,
			{ main: [items] },
			{ node: this.node, data: { main: [items] }, source: null },
			[],
		);
		const output = await this.task.execute.call(context as never);
		return output[0];
	}
}

/**
 * Task > Create in the seeded space with the seeded agent, each row's `name` and `phone` its
 * contact, the duplicate guard off; `parameters` override any of it.
 */
export function createExecutor(
	server: UnpodServer,
	parameters: Record<string, unknown> = {},
	onError?: INode['onError'],
): Executor {
	return new Executor({
		credentials: credentialsFor(server)[0].data,
		onError,
		parameters: {
			operation: 'create',
			space: { __rl: true, mode: 'token', value: SEED.spaceToken },
			agent: { __rl: true, mode: 'handle', value: SEED.agentHandle },
			callContext: 'In-process test',
			contactName: '={{ $json.name }}',
			contactNumber: '={{ $json.phone }}',
			skipExisting: false,
			...parameters,
		},
	});
}
