/** The one place that builds the package's nodes for test workflows (and the bench's). */
import { SEED } from '../../dev/server/seed';
import { EXAMPLE_CALLER } from '../../dev/harness/examples';
import type { N8nNode } from '../../dev/harness/workflow-builders';
import { CREDENTIAL } from './setup';

type Parameters = Record<string, unknown>;

export const spaceRef = (value: string) => ({ __rl: true, mode: 'token', value });
export const agentRef = (value: string) => ({ __rl: true, mode: 'handle', value });
export const bridgeRef = (value: string) => ({ __rl: true, mode: 'slug', value });

const TYPES = {
	task: 'n8n-nodes-unpod.unpodTask',
	space: 'n8n-nodes-unpod.unpodSpace',
	agent: 'n8n-nodes-unpod.unpodAgent',
	bridge: 'n8n-nodes-unpod.unpodBridge',
} as const;

/**
 * A Task node's settings for tests of other things: calling hours off (they depend on the hour a
 * test runs; callingHours.test.ts is their own), consent off (consent.test.ts is its own), and who
 * calls set, as the law of the US numbers the tests call asks.
 */
export const TASK_TEST_DEFAULTS = {
	callingHours: false,
	consent: 'off',
	...EXAMPLE_CALLER,
} as const;

/**
 * A node of the package with the working credential; `resource` (of the nodes that have several)
 * is the node's own unless given; a Task node starts from TASK_TEST_DEFAULTS.
 */
export function unpodNode(
	node: keyof typeof TYPES,
	name: string,
	parameters: Parameters,
	extra: Partial<N8nNode> = {},
): N8nNode {
	return {
		name,
		type: TYPES[node],
		credentials: CREDENTIAL,
		...extra,
		parameters: {
			...(node === 'space' || node === 'bridge' ? { resource: node } : {}),
			...(node === 'task' ? TASK_TEST_DEFAULTS : {}),
			...parameters,
		},
	};
}

/** Task > Create into the seeded space with the seeded agent; `parameters` override any of it. */
export function createNode(parameters: Parameters = {}, extra: Partial<N8nNode> = {}, name = 'Create'): N8nNode {
	return unpodNode(
		'task',
		name,
		{
			operation: 'create',
			space: spaceRef(SEED.spaceToken),
			contactName: '={{ $json.name }}',
			contactNumber: '={{ $json.contact_number ?? $json.phone }}',
			agent: agentRef(SEED.agentHandle),
			callContext: 'Renewal offer',
			// The guard is on by default; tests of other things leave it out (duplicate-guard.test.ts is its own).
			skipExisting: false,
			...parameters,
		},
		extra,
	);
}

/** The same into the second seeded space and agent, which tests share less. */
export const createInSecondSpace = (parameters: Parameters = {}, extra: Partial<N8nNode> = {}, name = 'Create') =>
	createNode(
		{ space: spaceRef(SEED.secondSpaceToken), agent: agentRef(SEED.secondAgentHandle), ...parameters },
		extra,
		name,
	);

/**
 * A Task node of any operation in the second seeded space and agent, each item one contact
 * (`name`, `phone`); `parameters` name the operation and override any of it.
 */
export const taskInSecondSpace = (name: string, parameters: Parameters, extra: Partial<N8nNode> = {}) =>
	unpodNode(
		'task',
		name,
		{
			space: spaceRef(SEED.secondSpaceToken),
			agent: agentRef(SEED.secondAgentHandle),
			contactName: '={{ $json.name }}',
			contactNumber: '={{ $json.phone }}',
			callContext: 'The renewal offer',
			...parameters,
		},
		extra,
	);

/** Task > Call and Wait for Approval in the seeded space and agent, the approver from a posted body; `parameters` override any of it. */
export function askByPhoneNode(parameters: Parameters = {}, name = 'Ask by phone'): N8nNode {
	return unpodNode('task', name, {
		operation: 'sendAndWait',
		space: spaceRef(SEED.spaceToken),
		agent: agentRef(SEED.agentHandle),
		contactName: '={{ $json.body.name }}',
		contactNumber: '={{ $json.body.phone }}',
		message: '={{ $json.body.message }}',
		options: {},
		...parameters,
	});
}

/** n8n's Webhook node at `path` (POST), answering at once: how a test starts a workflow that waits. */
export function postedWebhook(path: string, name = 'Request'): N8nNode {
	return {
		name,
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		webhookId: `unpod-${path}`,
		parameters: { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} },
	};
}
