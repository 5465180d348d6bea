/**
 * Polls the Unpod Trigger inside n8n-core's own PollContext, many times and fast, with the
 * state n8n would store between polls. The trigger's HTTP goes through n8n-core's request
 * helpers to the local server. (One test also runs it inside a real, running n8n.)
 */
import '../../dev/harness/poll-env';
import { PollContext } from 'n8n-core';
import { Workflow } from 'n8n-workflow';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INode,
	INodeExecutionData,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import { UnpodApi } from '../../credentials/UnpodApi.credentials';
import { SEED } from '../../dev/server/seed';
import type { UnpodServer } from '../../dev/server/server';
import type { Task } from '../../dev/server/types';
import { CredentialsHelper } from '../../dev/harness/credentials';
import { UnpodTrigger } from '../../nodes/UnpodTrigger/UnpodTrigger.node';

/**
 * A workflow of one node of the package, its credential helper's data, and what n8n-core's
 * contexts need around them: for running a node in-process.
 */
export function oneNodeWorkflow(
	node: INode,
	nodeType: object,
	credentials: ICredentialDataDecryptedObject,
	active: boolean,
): { workflow: InstanceType<typeof Workflow>; additionalData: IWorkflowExecuteAdditionalData } {
	const workflow = new Workflow({
		id: `${node.id}-test`,
		name: `${node.name} test`,
		nodes: [node],
		connections: {},
		active,
		staticData: {},
		settings: {},
		nodeTypes: {
			getByName: () => nodeType,
			getByNameAndVersion: () => nodeType,
			getKnownTypes: () => ({}),
		} as never,
	});
	const additionalData = {
		credentialsHelper: new CredentialsHelper(() => credentials, new UnpodApi()),
	} as unknown as IWorkflowExecuteAdditionalData;
	return { workflow, additionalData };
}

export interface PollerOptions {
	credentials: ICredentialDataDecryptedObject;
	parameters: IDataObject;
	/** This n8n's address (its resume addresses are rung only under it); none by default. */
	instanceBaseUrl?: string;
}

export class Poller {
	readonly workflow: InstanceType<typeof Workflow>;
	readonly node: INode;
	private additionalData: IWorkflowExecuteAdditionalData;
	private trigger = new UnpodTrigger();

	constructor(options: PollerOptions) {
		this.node = {
			id: 'trigger',
			name: 'Unpod Trigger',
			type: 'n8n-nodes-unpod.unpodTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: options.parameters as INode['parameters'],
			credentials: { unpodApi: { id: 'unpod', name: 'Unpod' } },
		};
		({ workflow: this.workflow, additionalData: this.additionalData } = oneNodeWorkflow(
			this.node,
			this.trigger,
			options.credentials,
			true,
		));
		if (options.instanceBaseUrl) this.additionalData.instanceBaseUrl = options.instanceBaseUrl;
	}

	/** One poll as an active workflow makes it: the emitted items, or null. */
	async poll(mode: 'trigger' | 'manual' = 'trigger'): Promise<INodeExecutionData[] | null> {
		const context = new PollContext(
			this.workflow,
			this.node,
			this.additionalData,
			mode,
			mode === 'manual' ? 'manual' : 'activate',
		);
		const result = await this.trigger.poll.call(context as never);
		return result ? result[0] : null;
	}

	/** This n8n's instance ID, as the trigger reads it. */
	get instanceId(): string {
		return new PollContext(this.workflow, this.node, this.additionalData, 'trigger', 'activate').getInstanceId();
	}

	/** n8n's logger, as the trigger's context gives it (one for the process). */
	get logger(): PollContext['logger'] {
		return new PollContext(this.workflow, this.node, this.additionalData, 'trigger', 'activate').logger;
	}

	/** The trigger's state as it lives between polls, not copied (for large states). */
	get live(): any {
		return (this.workflow.staticData[`node:${this.node.name}`] as any)?.state;
	}

	/** What n8n would store for the node. */
	get state(): any {
		return JSON.parse(JSON.stringify(this.workflow.staticData[`node:${this.node.name}`] ?? {}));
	}
}

/**
 * The Unpod Trigger as most tests set it: the seed credential, watching a space's endings
 * (the seed space unless `space` says), Simplify on; `parameters` change any of that.
 */
export function spacePoller(
	server: { url: string },
	options: {
		space?: string;
		parameters?: Record<string, unknown>;
		instanceBaseUrl?: string;
		/** Changes to the seed credential (another API token). */
		credentials?: ICredentialDataDecryptedObject;
	} = {},
): Poller {
	return new Poller({
		instanceBaseUrl: options.instanceBaseUrl,
		credentials: { ...seedCredential(server), ...options.credentials },
		parameters: {
			callsOf: 'space',
			space: { __rl: true, mode: 'token', value: options.space ?? SEED.spaceToken },
			events: ['completed', 'failed'],
			simplify: true,
			options: {},
			...options.parameters,
		},
	});
}

/** The seed's credential data for `server`, as the tests' working credential has it. */
export const seedCredential = (server: { url: string }): ICredentialDataDecryptedObject => ({
	baseUrl: server.url,
	apiToken: SEED.token,
	orgHandle: SEED.orgHandle,
	productId: SEED.productId,
});

/** `n` new tasks in `space` by `pilot`, each with a name and number no other task of the server has. */
export function addNumberedTasks(server: UnpodServer, n: number, space: string, pilot = SEED.agentHandle): Task[] {
	const contacts = Array.from({ length: n }, (_, i) => ({
		name: `Person ${server.store.tasks.length + i}`,
		contact_number: `+1415${String(server.store.tasks.length + i).padStart(7, '0')}`,
	}));
	return server.calls.addTasks(contacts, { space, pilot });
}

/** The task ids of what a poll emitted, in order (none for a quiet poll). */
export const emittedIds = (items: Array<{ json: any }> | null) => (items ?? []).map((i) => i.json.task_id);
