/**
 * The contract, in n8n's engine in the test process: every operation of every node, each mode
 * of the Unpod Trigger, each list search and the credential's test run against the local server
 * in its default shape (OpenAPI 2.0.0), and every request they sent is held against Unpod's two
 * OpenAPI files (2.0.0 at 16c4309, and 677bf31 with People; which is newer is not known): its
 * path, its method, the required fields of its body and the names of its query. A request one
 * file has passes; one neither has must be a row of "Requests the OpenAPI files do not list" in
 * docs/unpod-quirks.md, with its source, and every row there must still be sent.
 *
 * The operations are read from the built nodes, so an operation, mode or list search added
 * without a case here fails the first test. Call and Wait for Approval and Call and Wait's
 * Until Unpod Reports run to where the execution parks, as their own tests run them.
 */
import { readFileSync, existsSync } from 'fs';
import { basename, join } from 'path';
import { ExecuteContext, LoadOptionsContext, PollContext, RoutingNode } from 'n8n-core';
import { createEmptyRunExecutionData, Workflow as N8nWorkflow } from 'n8n-workflow';
import type {
	ICredentialType,
	INode,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import { ROOT } from '../../dev/harness/paths';
import { chain, rowsNode } from '../../dev/harness/workflow-builders';
import type { N8nNode } from '../../dev/harness/workflow-builders';
import type { RecordedRequest } from '../../dev/server/http';
import { SEED } from '../../dev/server/seed';
import { SOURCE_BACKEND } from '../../dev/server/routes/context';
import type { Behaviour } from '../../dev/server/routes/context';
import { TestClock } from '../helpers/clock';
import { agentRef, bridgeRef, spaceRef, unpodNode } from '../helpers/nodes';
import { API_PREFIX, checkRequests, readQuirkRows, readSpec } from '../helpers/openapi';
import { oneNodeWorkflow, seedCredential } from '../helpers/poll';
import { Harness, startHarness } from '../helpers/setup';

/** Unpod's OpenAPI files (dev/unpod-api/README.md), or those of the folder UNPOD_OPENAPI_DIR names. */
const SPEC_DIR = process.env.UNPOD_OPENAPI_DIR ?? join(ROOT, 'dev', 'unpod-api');
const SPEC_FILES = ['openapi-2.0.0.yaml', 'openapi-677bf31.yaml'];
const QUIRKS = join(ROOT, 'docs', 'unpod-quirks.md');
const HEADING = '## Requests the OpenAPI files do not list';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const pkg = require(join(ROOT, 'package.json')) as { name: string; n8n: { nodes: string[]; credentials: string[] } };

/** The class a built file exports under its own name, as n8n loads it. */
function built<T>(file: string, suffix: string): T {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const Class = require(join(ROOT, file))[basename(file, suffix)] as new () => T;
	return new Class();
}
const NODES = pkg.n8n.nodes.map((file) => built<INodeType>(file, '.node.js'));
const CREDENTIALS = pkg.n8n.credentials.map((file) => built<ICredentialType>(file, '.credentials.js'));
const nodeNamed = (name: string) => NODES.find((n) => n.description.name === name)!;

/** Nodes that send Unpod nothing: they only receive. */
const RECEIVES_ONLY: Record<string, string> = {
	unpodCallEventsTrigger: "Unpod's pushes arrive at its webhook; it sends no request to Unpod",
};

const optionsOf = (property: INodeProperties | undefined) =>
	(property?.options ?? []).map((o) => String((o as { value: unknown }).value));

/** What a node can be set to send: its resources' operations, a poll's modes, its list searches. */
function surfaceOf(node: INodeType): string[] {
	const { name, properties } = node.description as INodeTypeDescription;
	const keys: string[] = [];
	const resource = properties.find((p) => p.name === 'resource');
	const operations = properties.filter((p) => p.name === 'operation');
	if (resource) {
		for (const r of optionsOf(resource))
			for (const o of operations.filter((p) => p.displayOptions?.show?.resource?.includes(r)))
				keys.push(...optionsOf(o).map((op) => `${name} > ${r} > ${op}`));
	} else {
		for (const o of operations) keys.push(...optionsOf(o).map((op) => `${name} > ${op}`));
	}
	if (node.poll) {
		const modes = properties.find((p) => p.name === 'callsOf' && !p.displayOptions);
		if (!modes) throw new Error(`${name} polls, and its modes are not its Calls Of`);
		keys.push(...optionsOf(modes).map((m) => `${name} > callsOf: ${m}`));
	}
	keys.push(...Object.keys(node.methods?.listSearch ?? {}).map((m) => `${name} > listSearch: ${m}`));
	return keys;
}

const SURFACE = [...NODES.flatMap(surfaceOf), ...CREDENTIALS.filter((c) => c.test).map((c) => `${c.name} > test`)];

let h: Harness;
const clock = TestClock.install();
/** A contact's document in the seeded space, whose People profile is read. */
const PERSON_DOCUMENT = 'contract-person-1';
/** Made in beforeAll: a bridge to rename and one to delete, a run of the seeded space, a recording. */
const made = { renamed: '', deleted: '', runId: '', recordingUrl: '' };

type Case = () => Promise<void>;

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
	const result = await clock.drive(h.n8n.run(workflow));
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
	const posts = h.server.requests
		.slice(before)
		.filter((r) => r.method === 'POST' && /\/tasks\/(create\/)?$/.test(r.path));
	expect(posts.length).toBeGreaterThan(0);
}

/** A Task operation that calls: the contacts as rows, each variant's parameters over the defaults. */
const calling =
	(operationName: string, rows: Array<Record<string, unknown>>, ...variants: Array<Record<string, unknown>>): Case =>
	async () => {
		for (const v of variants.length ? variants : [{}]) {
			const before = h.server.requests.length;
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
		const { workflow, additionalData } = oneNodeWorkflow(node, trigger(), seedCredential(h.server), true);
		const poll = async (mode: 'trigger' | 'manual') => {
			const context = new PollContext(workflow, node, additionalData, mode, mode === 'manual' ? 'manual' : 'activate');
			return await clock.drive(trigger().poll!.call(context as never));
		};
		await poll('trigger');
		const [task] = h.server.calls.addTasks([{ name: 'Polled', contact_number: '+14155550999' }], {
			space: SEED.spaceToken,
			pilot: SEED.agentHandle,
		});
		h.server.store.finishTask(task, 'completed');
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
		const { workflow, additionalData } = oneNodeWorkflow(node, nodeType, seedCredential(h.server), false);
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
		const data = seedCredential(h.server);
		const workflow = new N8nWorkflow({
			nodes: [node],
			connections: {},
			active: false,
			nodeTypes: { getByName: () => nodeType, getByNameAndVersion: () => nodeType, getKnownTypes: () => ({}) } as never,
		});
		const { additionalData } = oneNodeWorkflow(node, nodeType, data, false);
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

const unique = (() => {
	let n = 0;
	return (name: string) => [{ name, phone: `+1212555${String(7000 + ++n)}` }];
})();

/** How each operation, mode, list search and credential test is run here. */
const CASES: Record<string, Case> = {
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
		h.server.calls.callScripts = [{ number: ben.phone, end: 'completed', afterMs: 2000 }];
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
		const before = h.server.requests.length;
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

/** The requests each case sent. */
const sent = new Map<string, RecordedRequest[]>();

beforeAll(async () => {
	h = await startHarness({}, undefined, clock);
	made.renamed = h.server.store.addBridge(SEED.orgHandle, { name: 'Contract To Rename' }).slug;
	made.deleted = h.server.store.addBridge(SEED.orgHandle, { name: 'Contract To Delete' }).slug;
	// An ended call of a contact with a Document ID: its run, its recording, its People profile.
	const [task] = h.server.calls.addTasks(
		[{ name: 'Fay', contact_number: '+14155550998', document_id: PERSON_DOCUMENT }],
		{ space: SEED.spaceToken, pilot: SEED.agentHandle },
	);
	h.server.store.finishTask(task, 'completed');
	made.runId = task.run_id;
	made.recordingUrl = String(task.output.recording_url ?? '');
});

afterAll(async () => {
	await h?.close();
	clock.uninstall();
});

test('every operation, trigger mode, list search and credential test has a case here, and every node is covered', () => {
	expect({
		withoutCase: SURFACE.filter((k) => !CASES[k]),
		notInTheNodes: Object.keys(CASES).filter((k) => !SURFACE.includes(k)),
	}).toEqual({
		withoutCase: [],
		notInTheNodes: [],
	});
	for (const node of NODES) {
		const name = node.description.name;
		expect([name, surfaceOf(node).length > 0]).toEqual([name, !RECEIVES_ONLY[name]]);
	}
	expect(made.runId).not.toBe('');
	expect(made.recordingUrl).toMatch(/^http/);
});

test.each(Object.keys(CASES))('%s runs and sends requests', async (key) => {
	const before = h.server.requests.length;
	await CASES[key]();
	const requests = h.server.requests.slice(before);
	sent.set(key, requests);
	expect(requests.length).toBeGreaterThan(0);
});

/**
 * The paths the nodes fall back to where a deployment answers 404 or 405 at the documented one
 * (Unpod's February 2026 source): each case run again against the server in that shape.
 */
const FALLBACKS: Record<string, { run: Case; behaviour: Partial<Behaviour> }> = {
	'call log at call-logs/': { run: CASES['unpodBridge > callLog > getAll'], behaviour: SOURCE_BACKEND },
	"the trigger's call log at call-logs/": {
		run: CASES['unpodTrigger > callsOf: callLog'],
		behaviour: SOURCE_BACKEND,
	},
	// Contacts of their own: the main case's are called already, and the guard would skip them.
	'tasks created at tasks/': {
		run: calling('create', unique('Bea'), { skipExisting: false }),
		behaviour: { ...SOURCE_BACKEND, createPaths: ['tasks'] },
	},
	'provider credentials at provider-configurations/': {
		run: CASES['unpodBridge > providerCredential > get'],
		behaviour: SOURCE_BACKEND,
	},
};

test.each(Object.keys(FALLBACKS))('fallback: %s', async (name) => {
	const { run, behaviour } = FALLBACKS[name];
	const saved = { ...h.server.behaviour };
	Object.assign(h.server.behaviour, behaviour);
	try {
		const before = h.server.requests.length;
		await run();
		const requests = h.server.requests.slice(before);
		sent.set(`fallback: ${name}`, requests);
		// The documented path first, answered 404 or 405; then the other.
		expect(requests.filter((r) => r.status === 404 || r.status === 405).length).toBeGreaterThan(0);
		expect(requests.some((r) => r.status < 300)).toBe(true);
	} finally {
		h.server.behaviour = saved;
	}
});

test('every request is in one of the OpenAPI files, or listed with its source in docs/unpod-quirks.md', () => {
	for (const file of SPEC_FILES)
		if (!existsSync(join(SPEC_DIR, file)))
			throw new Error(`${join(SPEC_DIR, file)} is missing (UNPOD_OPENAPI_DIR names another folder)`);
	const specs = SPEC_FILES.map((file) => readSpec(file, readFileSync(join(SPEC_DIR, file), 'utf8')));
	const rows = readQuirkRows(readFileSync(QUIRKS, 'utf8'), HEADING);
	const requests = [...sent.entries()].flatMap(([sentBy, list]) => list.map((r) => ({ ...r, sentBy })));
	// A recording is fetched from where Unpod's answer put it, not from the platform API.
	const outside = requests.filter((r) => !r.path.startsWith(`${API_PREFIX}/`));
	expect(outside.map((r) => `${r.sentBy}: ${r.method} ${r.path}`)).toEqual(
		outside
			.filter((r) => r.sentBy === 'unpodTask > downloadRecording' && r.method === 'GET')
			.map((r) => `${r.sentBy}: GET ${r.path}`),
	);
	const checked = checkRequests(
		specs,
		requests.filter((r) => r.path.startsWith(`${API_PREFIX}/`)),
		rows,
	);
	const report = {
		unlisted: checked.unlisted.map(({ finding, requests: by }) => ({
			finding,
			sentBy: [...new Set(by.map((r) => r.sentBy))],
			example: `${by[0].method} ${by[0].path}${Object.keys(by[0].query).length ? `?${new URLSearchParams(by[0].query)}` : ''}`,
		})),
		stale: checked.stale,
		// A case that failed above was not held against the files: every case must have run.
		notRun: [...Object.keys(CASES), ...Object.keys(FALLBACKS).map((k) => `fallback: ${k}`)].filter((k) => !sent.has(k)),
	};
	expect(report).toEqual({ unlisted: [], stale: [], notRun: [] });
	expect(checked.matched + checked.listed).toBeGreaterThan(0);
});
