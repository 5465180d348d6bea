/**
 * The contract's cases (test/engine/contract.test.ts): what each operation, trigger mode, list
 * search and the credential's test is, read from the built nodes, and how each is run in n8n's
 * engine against the local server.
 */
import { ExecuteContext, LoadOptionsContext, PollContext, RoutingNode } from 'n8n-core';
import { createEmptyRunExecutionData } from 'n8n-workflow';
import type { ICredentialType, INode, INodeType, IWorkflowExecuteAdditionalData } from 'n8n-workflow';
import { chain, rowsNode } from '../../../dev/harness/workflow-builders';
import type { N8nNode } from '../../../dev/harness/workflow-builders';
import { SEED } from '../../../dev/server/seed';
import { TestClock } from '../../helpers/clock';
import { agentRef, bridgeRef, spaceRef, unpodNode } from '../../helpers/nodes';
import { oneNodeWorkflow, seedCredential } from '../../helpers/poll';
import type { Harness } from '../../helpers/setup';

import { CREDENTIALS, nodeNamed, pkg } from './surface';

/** The harness the cases run in: set by the test file's beforeAll. */
export const world = { h: undefined as unknown as Harness };
export const clock = TestClock.install();
/** A contact's document in the seeded space, whose People profile is read. */
export const PERSON_DOCUMENT = 'contract-person-1';
/** Made in beforeAll: a bridge to rename and one to delete, a run of the seeded space, a recording. */
export const made = { renamed: '', deleted: '', runId: '', recordingUrl: '' };

export type Case = () => Promise<void>;

const TYPE_KEYS: Record<string, 'task' | 'space' | 'agent' | 'bridge'> = {
	unpodTask: 'task',
	unpodSpace: 'space',
	unpodAgent: 'agent',
	unpodBridge: 'bridge',
};

let workflowCount = 0;
/** The node set to `parameters` in a workflow of its own, after `rows` when given: it must end without an error. */
async function runNode(type: string, parameters: Record<string, unknown>, rows?: Array<Record<string, unknown>>) {
	const node: N8nNode = unpodNode(TYPE_KEYS[type], 'Under contract', parameters);
	const workflow = chain(`contract${++workflowCount}`, rows ? [rowsNode('Rows', rows), node] : [node]);
	const result = await clock.drive(world.h.n8n.run(workflow));
	const error = result.resultData?.error;
	if (error) throw new Error(`${type} ${JSON.stringify(parameters)}: ${error.message} ${error.description ?? ''}`);
}

/** One case: the node's operation, once for each set of parameters given. */
const operation =
	(type: string, ...variants: Array<Record<string, unknown> | (() => Record<string, unknown>)>): Case =>
	async () => {
		for (const v of variants) await runNode(type, typeof v === 'function' ? v() : v);
	};

/** That what ran since the `before`th request created tasks: a call left out before sending would check nothing. */
function expectCreated(before: number): void {
	const posts = world.h.server.requests
		.slice(before)
		.filter((r) => r.method === 'POST' && /\/tasks\/(create\/)?$/.test(r.path));
	expect(posts.length).toBeGreaterThan(0);
}

/** A Task operation that calls: the contacts as rows, each variant's parameters over the defaults. */
export const calling =
	(operationName: string, rows: Array<Record<string, unknown>>, ...variants: Array<Record<string, unknown>>): Case =>
	async () => {
		for (const v of variants.length ? variants : [{}]) {
			const before = world.h.server.requests.length;
			await runNode(
				'unpodTask',
				{
					operation: operationName,
					space: spaceRef(SEED.spaceToken),
					agent: agentRef(SEED.agentHandle),
					contactName: '={{ $json.name }}',
					contactNumber: '={{ $json.phone }}',
					callContext: 'The contract of the API',
					...v,
				},
				rows,
			);
			expectCreated(before);
		}
	};

/** Every filter of a task list, each sent as Unpod names it. */
const TASK_FILTERS = {
	outcome: 'Interested',
	direction: 'outbound',
	from: '2026-01-01T00:00:00Z',
	to: '2030-01-01T00:00:00Z',
	search: 'Ada',
	status: ['completed', 'failed'],
};

const trigger = () => nodeNamed('unpodTrigger');

/** The Unpod Trigger in `callsOf`'s mode: the first poll, one after a call ended, one by hand. */
const pollCase =
	(parameters: Record<string, unknown>): Case =>
	async () => {
		const node: INode = {
			id: 'trigger',
			name: 'Unpod Trigger',
			type: `${pkg.name}.unpodTrigger`,
			typeVersion: 1,
			position: [0, 0],
			parameters: {
				events: ['completed', 'failed'],
				simplify: true,
				options: {},
				...parameters,
			} as INode['parameters'],
			credentials: { unpodApi: { id: 'unpod', name: 'Unpod' } },
		};
		const { workflow, additionalData } = oneNodeWorkflow(node, trigger(), seedCredential(world.h.server), true);
		const poll = async (mode: 'trigger' | 'manual') => {
			const context = new PollContext(workflow, node, additionalData, mode, mode === 'manual' ? 'manual' : 'activate');
			return await clock.drive(trigger().poll!.call(context as never));
		};
		await poll('trigger');
		const [task] = world.h.server.calls.addTasks([{ name: 'Polled', contact_number: '+14155550999' }], {
			space: SEED.spaceToken,
			pilot: SEED.agentHandle,
		});
		world.h.server.store.finishTask(task, 'completed');
		await clock.advance(60_000);
		await poll('trigger');
		await poll('manual');
	};

/** A list search as the editor calls it (n8n's LoadOptionsContext), with and without a search. */
const listSearchCase =
	(nodeName: string, method: string, parameters: Record<string, unknown> = {}): Case =>
	async () => {
		const nodeType = nodeNamed(nodeName);
		const node: INode = {
			id: 'picker',
			name: 'Picker',
			type: `${pkg.name}.${nodeName}`,
			typeVersion: 1,
			position: [0, 0],
			parameters: parameters as INode['parameters'],
			credentials: { unpodApi: { id: 'unpod', name: 'Unpod' } },
		};
		const { workflow, additionalData } = oneNodeWorkflow(node, nodeType, seedCredential(world.h.server), false);
		additionalData.currentNodeParameters = node.parameters;
		const search = nodeType.methods!.listSearch![method];
		for (const filter of [undefined, 'a']) {
			const context = new LoadOptionsContext(workflow, node, additionalData, 'parameters.picked');
			await clock.drive(search.call(context as never, filter));
		}
	};

/**
 * The credential's Test as n8n makes it (its CredentialsTester for a declarative test): a
 * stand-in node whose one field routes the test request, run by n8n-core's RoutingNode.
 */
const credentialTestCase =
	(credential: ICredentialType): Case =>
	async () => {
		const request = (credential.test as { request: object }).request;
		// n8n's tester lends the test the No Op node's description: no request defaults of a node of ours.
		const nodeType = {
			description: {
				displayName: 'Temp',
				name: 'n8n-nodes-base.noOp',
				group: ['transform'],
				version: 1,
				description: '',
				defaults: { name: 'Temp' },
				inputs: ['main'],
				outputs: ['main'],
				credentials: [{ name: credential.name, required: true }],
				properties: [{ displayName: 'Temp', name: 'temp', type: 'string', routing: { request }, default: '' }],
			},
		} as unknown as INodeType;
		const node: INode = {
			id: 'temp',
			name: 'Temp-Node',
			type: 'n8n-nodes-base.noOp',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
			credentials: { [credential.name]: { id: 'unpod', name: 'Unpod' } },
		};
		const data = seedCredential(world.h.server);
		const { workflow, additionalData } = oneNodeWorkflow(node, nodeType, data, false);
		const context = new ExecuteContext(
			workflow,
			node,
			{ ...additionalData, currentNodeParameters: {} } as IWorkflowExecuteAdditionalData,
			'internal',
			createEmptyRunExecutionData(),
			0,
			[],
			{ main: [[{ json: {} }]] },
			{ node, data: {}, source: null },
			[],
		);
		const routing = new RoutingNode(context, nodeType, { id: 'unpod', name: 'Unpod', type: credential.name, data });
		await clock.drive(routing.runNode());
	};

export const unique = (() => {
	let n = 0;
	return (name: string) => [{ name, phone: `+1212555${String(7000 + ++n)}` }];
})();

/** How each operation, mode, list search and credential test is run here. */
export const CASES: Record<string, Case> = {
	// Unpod Bridge
	'unpodBridge > bridge > create': operation('unpodBridge', {
		resource: 'bridge',
		operation: 'create',
		name: 'Contract Line',
	}),
	'unpodBridge > bridge > get': operation('unpodBridge', {
		resource: 'bridge',
		operation: 'get',
		bridge: bridgeRef(SEED.bridgeSlug),
	}),
	'unpodBridge > bridge > getAll': operation(
		'unpodBridge',
		{ resource: 'bridge', operation: 'getAll', returnAll: true },
		{ resource: 'bridge', operation: 'getAll', returnAll: false, limit: 5 },
	),
	'unpodBridge > bridge > update': operation('unpodBridge', () => ({
		resource: 'bridge',
		operation: 'update',
		bridge: bridgeRef(made.renamed),
		name: 'Contract (renamed)',
	})),
	'unpodBridge > bridge > delete': operation('unpodBridge', () => ({
		resource: 'bridge',
		operation: 'delete',
		bridge: bridgeRef(made.deleted),
	})),
	'unpodBridge > callLog > getAll': operation(
		'unpodBridge',
		{ resource: 'callLog', operation: 'getAll', returnAll: true },
		{
			resource: 'callLog',
			operation: 'getAll',
			returnAll: false,
			limit: 5,
			filters: { direction: 'inbound', status: 'completed' },
		},
	),
	'unpodBridge > number > getAll': operation(
		'unpodBridge',
		{ resource: 'number', operation: 'getAll', returnAll: true },
		{ resource: 'number', operation: 'getAll', returnAll: false, limit: 1 },
	),
	'unpodBridge > number > attach': operation('unpodBridge', {
		resource: 'number',
		operation: 'attach',
		phoneNumbers: '+14155550123',
		agent: agentRef(SEED.agentHandle),
	}),
	'unpodBridge > number > getStatus': operation(
		'unpodBridge',
		{ resource: 'number', operation: 'getStatus', returnAll: true },
		{ resource: 'number', operation: 'getStatus', returnAll: false, limit: 1 },
	),
	'unpodBridge > number > detach': operation('unpodBridge', {
		resource: 'number',
		operation: 'detach',
		phoneNumbers: '+14155550123',
	}),
	'unpodBridge > provider > getAll': operation('unpodBridge', {
		resource: 'provider',
		operation: 'getAll',
		returnAll: true,
	}),
	'unpodBridge > providerConnection > connectProvider': operation('unpodBridge', {
		resource: 'providerConnection',
		operation: 'connectProvider',
		bridge: bridgeRef(SEED.bridgeSlug),
		number: { __rl: true, mode: 'id', value: String(SEED.numberId) },
		providerCredential: { __rl: true, mode: 'id', value: String(SEED.activeCredentialId) },
	}),
	'unpodBridge > providerConnection > disconnectProvider': operation('unpodBridge', {
		resource: 'providerConnection',
		operation: 'disconnectProvider',
		bridge: bridgeRef(SEED.bridgeSlug),
		number: { __rl: true, mode: 'id', value: String(SEED.numberId) },
		providerCredential: { __rl: true, mode: 'id', value: String(SEED.activeCredentialId) },
	}),
	'unpodBridge > providerCredential > create': operation('unpodBridge', {
		resource: 'providerCredential',
		operation: 'create',
		provider: { __rl: true, mode: 'slug', value: 'twilio' },
		accountSid: 'AC0contract0000000000000000000001',
		authToken: 'contract-auth-token',
	}),
	'unpodBridge > providerCredential > get': operation('unpodBridge', {
		resource: 'providerCredential',
		operation: 'get',
		providerCredential: { __rl: true, mode: 'id', value: String(SEED.activeCredentialId) },
	}),
	'unpodBridge > providerCredential > getAll': operation(
		'unpodBridge',
		{ resource: 'providerCredential', operation: 'getAll', returnAll: true },
		{ resource: 'providerCredential', operation: 'getAll', returnAll: false, limit: 1 },
	),
	'unpodBridge > providerCredential > update': operation('unpodBridge', {
		resource: 'providerCredential',
		operation: 'update',
		providerCredential: { __rl: true, mode: 'id', value: String(SEED.inactiveCredentialId) },
		updateFields: { accountSid: 'AC0contract0000000000000000000002', authToken: 'contract-auth-token-2' },
	}),
	'unpodBridge > providerCredential > delete': operation('unpodBridge', {
		resource: 'providerCredential',
		operation: 'delete',
		providerCredential: { __rl: true, mode: 'id', value: String(SEED.inactiveCredentialId) },
	}),
	'unpodBridge > listSearch: searchAgents': listSearchCase('unpodBridge', 'searchAgents'),
	'unpodBridge > listSearch: searchBridges': listSearchCase('unpodBridge', 'searchBridges'),
	// Where the editor shows that picker: the bridge picked beside it.
	'unpodBridge > listSearch: searchBridgeNumbers': listSearchCase('unpodBridge', 'searchBridgeNumbers', {
		resource: 'providerConnection',
		operation: 'connectProvider',
		bridge: bridgeRef(SEED.bridgeSlug),
	}),
	'unpodBridge > listSearch: searchProviderCredentials': listSearchCase('unpodBridge', 'searchProviderCredentials'),
	'unpodBridge > listSearch: searchProviders': listSearchCase('unpodBridge', 'searchProviders'),

	// Unpod Task
	'unpodTask > create': calling(
		'create',
		unique('Ada'),
		// The duplicate guard is on by default: it reads the space's tasks first.
		{ skipExisting: true },
		{
			skipExisting: false,
			schedule: 'custom',
			callAt: '2030-01-02T10:00:00Z',
			contactFields: { email: 'a@example.com' },
		},
	),
	'unpodTask > callAndWait': async () => {
		const [ben] = unique('Ben');
		world.h.server.calls.callScripts = [{ number: ben.phone, end: 'completed', afterMs: 2000 }];
		await calling('callAndWait', [ben], { options: { checkSeconds: 5 } })();
		await calling('callAndWait', unique('Cy'), { waitMode: 'untilReported' })();
	},
	'unpodTask > sendAndWait': calling('sendAndWait', unique('Dee'), { message: 'May we refund 120 EUR?', options: {} }),
	'unpodTask > downloadRecording': operation('unpodTask', () => ({
		operation: 'downloadRecording',
		recordingUrl: made.recordingUrl,
	})),
	'unpodTask > followUp': async () => {
		const [eli] = unique('Eli');
		const ended = {
			task_id: 'Tcontract0001',
			run_id: 'Rcontract',
			status: 'failed',
			call_status: 'no_answer',
			contact_name: eli.name,
			contact_number: eli.phone,
			end_time: new Date(Date.now() - 3_600_000).toISOString(),
		};
		const before = world.h.server.requests.length;
		await runNode(
			'unpodTask',
			{
				operation: 'followUp',
				space: spaceRef(SEED.spaceToken),
				agent: agentRef(SEED.agentHandle),
				callContext: 'Try again',
			},
			[ended],
		);
		expectCreated(before);
	},
	'unpodTask > getAll': operation(
		'unpodTask',
		{ operation: 'getAll', callsOf: 'space', space: spaceRef(SEED.spaceToken), returnAll: true },
		{ operation: 'getAll', callsOf: 'space', space: spaceRef(SEED.spaceToken), limit: 5, filters: TASK_FILTERS },
		{ operation: 'getAll', callsOf: 'agent', agent: agentRef(SEED.agentHandle), returnAll: true },
		{ operation: 'getAll', callsOf: 'agent', agent: agentRef(SEED.agentHandle), limit: 5, filters: TASK_FILTERS },
	),
	'unpodTask > listSearch: searchAgents': listSearchCase('unpodTask', 'searchAgents'),
	'unpodTask > listSearch: searchSpaces': listSearchCase('unpodTask', 'searchSpaces'),

	// Unpod Agent
	'unpodAgent > getAll': operation(
		'unpodAgent',
		{ operation: 'getAll', returnAll: true },
		{ operation: 'getAll', limit: 1 },
	),
	'unpodAgent > getExecutions': operation(
		'unpodAgent',
		{ operation: 'getExecutions', agent: agentRef(SEED.secondAgentHandle), returnAll: true },
		{ operation: 'getExecutions', agent: agentRef(SEED.secondAgentHandle), limit: 1 },
	),
	'unpodAgent > getTasks': operation(
		'unpodAgent',
		{ operation: 'getTasks', agent: agentRef(SEED.agentHandle), returnAll: true },
		{ operation: 'getTasks', agent: agentRef(SEED.agentHandle), limit: 5, filters: TASK_FILTERS },
	),
	'unpodAgent > listSearch: searchAgents': listSearchCase('unpodAgent', 'searchAgents'),

	// Unpod Space
	'unpodSpace > organization > getAll': operation('unpodSpace', {
		resource: 'organization',
		operation: 'getAll',
		returnAll: true,
	}),
	'unpodSpace > organization > getBilling': operation(
		'unpodSpace',
		{ resource: 'organization', operation: 'getBilling', returnAll: true },
		{ resource: 'organization', operation: 'getBilling', limit: 5 },
	),
	'unpodSpace > space > get': operation('unpodSpace', {
		resource: 'space',
		operation: 'get',
		space: spaceRef(SEED.spaceToken),
	}),
	'unpodSpace > space > getAll': operation('unpodSpace', { resource: 'space', operation: 'getAll', returnAll: true }),
	'unpodSpace > space > getAnalytics': operation(
		'unpodSpace',
		{ resource: 'space', operation: 'getAnalytics', space: spaceRef(SEED.spaceToken) },
		{ resource: 'space', operation: 'getAnalytics', callsOf: 'organization' },
	),
	'unpodSpace > space > getTasks': operation(
		'unpodSpace',
		{ resource: 'space', operation: 'getTasks', space: spaceRef(SEED.spaceToken), returnAll: true },
		{ resource: 'space', operation: 'getTasks', space: spaceRef(SEED.spaceToken), limit: 5, filters: TASK_FILTERS },
	),
	'unpodSpace > space > getRunTasks': operation(
		'unpodSpace',
		() => ({
			resource: 'space',
			operation: 'getRunTasks',
			space: spaceRef(SEED.spaceToken),
			runId: made.runId,
			returnAll: true,
		}),
		() => ({
			resource: 'space',
			operation: 'getRunTasks',
			space: spaceRef(SEED.spaceToken),
			runId: made.runId,
			limit: 5,
			filters: TASK_FILTERS,
		}),
	),
	'unpodSpace > space > getRuns': operation(
		'unpodSpace',
		{ resource: 'space', operation: 'getRuns', space: spaceRef(SEED.spaceToken), returnAll: true },
		{ resource: 'space', operation: 'getRuns', space: spaceRef(SEED.spaceToken), limit: 1 },
	),
	'unpodSpace > person > get': operation('unpodSpace', {
		resource: 'person',
		operation: 'get',
		space: spaceRef(SEED.spaceToken),
		documentId: PERSON_DOCUMENT,
	}),
	'unpodSpace > listSearch: searchSpaces': listSearchCase('unpodSpace', 'searchSpaces'),

	// Unpod Trigger
	'unpodTrigger > callsOf: space': pollCase({ callsOf: 'space', space: spaceRef(SEED.spaceToken) }),
	'unpodTrigger > callsOf: agent': pollCase({ callsOf: 'agent', agent: agentRef(SEED.agentHandle) }),
	'unpodTrigger > callsOf: callLog': pollCase({ callsOf: 'callLog', direction: 'all' }),
	'unpodTrigger > listSearch: searchAgents': listSearchCase('unpodTrigger', 'searchAgents'),
	'unpodTrigger > listSearch: searchSpaces': listSearchCase('unpodTrigger', 'searchSpaces'),

	// The credential
	...Object.fromEntries(CREDENTIALS.filter((c) => c.test).map((c) => [`${c.name} > test`, credentialTestCase(c)])),
};
