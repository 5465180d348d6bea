/**
 * The test workflows of queue mode: imports run by webhook, the trigger on the main, the Call
 * Events Trigger, an approval that waits, recordings kept in the database; each adds `ran_on`,
 * the process that ran it.
 */
import { SEED } from '../../dev/server/seed';
import type { Task } from '../../dev/server/types';
import { graph, N8nNode, reportNode, Workflow } from '../../dev/harness/workflow-builders';
import { CREDENTIAL } from '../helpers/setup';
import { TASK_TEST_DEFAULTS } from '../helpers/nodes';
import { webhookWorkflow } from './cluster';

export const IMPORT_SPACE = SEED.secondSpaceToken;
export const CREATE_POSTS = `/spaces/${IMPORT_SPACE}/tasks/`;
export const TRIGGER_SPACE = SEED.spaceToken;
export const CALL_EVENTS_HOOK = 'unpod-queue-call-events';

/** Webhook -> Split Out (the posted rows) -> Unpod Task > Create -> Where (the process that ran it). */
export function importWorkflow(
	id: string,
	create: Partial<N8nNode> & { parameters?: Record<string, unknown> } = {},
): Workflow {
	const { parameters, ...settings } = create;
	const nodes = [
		{
			id: `${id}-split`,
			name: 'Rows',
			type: 'n8n-nodes-base.splitOut',
			typeVersion: 1,
			position: [220, 0] as [number, number],
			parameters: { fieldToSplitOut: 'body.rows', options: {} },
		},
		{
			id: `${id}-create`,
			name: 'Create',
			type: 'n8n-nodes-unpod.unpodTask',
			typeVersion: 1,
			position: [440, 0] as [number, number],
			credentials: CREDENTIAL,
			parameters: {
				operation: 'create',
				...TASK_TEST_DEFAULTS,
				space: { __rl: true, mode: 'token', value: IMPORT_SPACE },
				agent: { __rl: true, mode: 'handle', value: SEED.secondAgentHandle },
				contactName: '={{ $json.name }}',
				contactNumber: '={{ $json.phone }}',
				callContext: 'Renewal reminder',
				contactFields: { document_id: '={{ $json.crm_id }}' },
				...parameters,
			},
			...settings,
		},
		whereNode(id, 660),
	];
	return webhookWorkflow(id, id, nodes, [
		['Webhook', 'Rows'],
		['Rows', 'Create'],
		['Create', 'Where'],
	]);
}

/** Adds `ran_on`: the UNPOD_PROCESS of the n8n process that evaluated it. */
export function whereNode(id: string, x: number) {
	return {
		id: `${id}-where`,
		name: 'Where',
		type: 'n8n-nodes-base.set',
		typeVersion: 3.4,
		position: [x, 0] as [number, number],
		parameters: {
			mode: 'manual',
			includeOtherFields: true,
			assignments: {
				assignments: [{ id: 'ran-on', name: 'ran_on', value: '={{ $env.UNPOD_PROCESS }}', type: 'string' }],
			},
			options: {},
		},
	};
}

/**
 * Unpod Trigger -> Where -> a POST of each outcome to the local server's sink. It polls every
 * 15 s on n8n's own schedule (the pinned 2.8.4 allows it; 2.x from 2.36 on allows a minute at
 * least): what the test is about is the main polling by itself while the workers are busy,
 * and four rounds of minute polls took 200 s of the CI run.
 */
export function triggerWorkflow(id: string, sinkUrl: string): Workflow {
	return graph(
		id,
		[
			{
				name: 'Unpod Trigger',
				type: 'n8n-nodes-unpod.unpodTrigger',
				credentials: CREDENTIAL,
				parameters: {
					pollTimes: { item: [{ mode: 'custom', cronExpression: '0-59/15 * * * * *' }] },
					space: { __rl: true, mode: 'token', value: TRIGGER_SPACE },
				},
			},
			whereNode(id, 220),
			{
				name: 'Report',
				type: 'n8n-nodes-base.httpRequest',
				typeVersion: 4.2,
				parameters: {
					method: 'POST',
					url: sinkUrl,
					sendBody: true,
					specifyBody: 'json',
					jsonBody: '={{ JSON.stringify({ task_id: $json.task_id, status: $json.status, ran_on: $json.ran_on }) }}',
					options: {},
				},
			},
		],
		[
			['Unpod Trigger', 'Where'],
			['Where', 'Report'],
		],
	);
}

/** Unpod Call Events Trigger -> Where -> a POST of each event to the local server's sink. */
export function callEventsWorkflow(id: string, webhookId: string, sinkUrl: string): Workflow {
	return graph(
		id,
		[
			{
				name: 'Call events',
				type: 'n8n-nodes-unpod.unpodCallEventsTrigger',
				credentials: CREDENTIAL,
				webhookId,
				parameters: { events: ['completed', 'failed', 'partially_completed'] },
			},
			whereNode(id, 220),
			reportNode(
				'Report',
				sinkUrl,
				'={{ JSON.stringify({ task_id: $json.task_id, event: $json.event, status: $json.status, ran_on: $json.ran_on }) }}',
			),
		],
		[
			['Call events', 'Where'],
			['Where', 'Report'],
		],
	);
}

export const APPROVER = '+12125400020';

/** Webhook (answered at once) -> Task > Call and Wait for Approval -> Where -> a POST of what it resumed with. */
export function approvalWorkflow(id: string, sinkUrl: string): Workflow {
	return graph(
		id,
		[
			{
				name: 'Webhook',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				webhookId: 'unpod-queue-approval',
				parameters: { httpMethod: 'POST', path: 'approval-queue', responseMode: 'onReceived', options: {} },
			},
			{
				name: 'Ask by phone',
				type: 'n8n-nodes-unpod.unpodTask',
				typeVersion: 1,
				credentials: CREDENTIAL,
				parameters: {
					operation: 'sendAndWait',
					...TASK_TEST_DEFAULTS,
					space: { __rl: true, mode: 'token', value: TRIGGER_SPACE },
					agent: { __rl: true, mode: 'handle', value: SEED.agentHandle },
					contactName: 'Rita Approver',
					contactNumber: APPROVER,
					message: 'The assistant wants to refund 120 EUR on order 1234. Do you approve?',
					options: {},
				},
			},
			whereNode(id, 440),
			reportNode('Report', sinkUrl),
		],
		[
			['Webhook', 'Ask by phone'],
			['Ask by phone', 'Where'],
			['Where', 'Report'],
		],
	);
}

export const contacts = (prefix: string, count: number) =>
	Array.from({ length: count }, (_, i) => ({
		crm_id: `${prefix}-${i + 1}`,
		name: `${prefix} ${i + 1}`,
		phone: `+44207${String(Math.abs(hash(prefix)) % 1000).padStart(3, '0')}${String(i).padStart(4, '0')}`,
	}));

export function hash(text: string): number {
	let h = 0;
	for (const c of text) h = (h * 31 + c.charCodeAt(0)) | 0;
	return h;
}

export const workflows = [
	importWorkflow('bulk'),
	importWorkflow('retried', {
		retryOnFail: true,
		maxTries: 3,
		waitBetweenTries: 1000,
		parameters: { options: { batchSize: 100, maxRateLimitWaitSeconds: 2 } },
	} as Partial<N8nNode>),
	importWorkflow('guarded'),
	importWorkflow('busy', { parameters: { skipExisting: false, options: { batchSize: 50 } } }),
	importWorkflow('crashed', { parameters: { options: { batchSize: 50 } } }),
];

/** Webhook -> Task > Get Many (completed calls) -> Download Recording -> Stored (where n8n put each file). */
export function recordingsWorkflow(id: string): Workflow {
	const task = (name: string, x: number, parameters: Record<string, unknown>) => ({
		id: `${id}-${x}`,
		name,
		type: 'n8n-nodes-unpod.unpodTask',
		typeVersion: 1,
		position: [x, 0] as [number, number],
		credentials: CREDENTIAL,
		parameters: { ...TASK_TEST_DEFAULTS, ...parameters },
	});
	const stored = whereNode(id, 660);
	stored.name = 'Stored';
	stored.parameters.assignments.assignments.push(
		{ id: 'binary-id', name: 'binary_id', value: '={{ $binary.data.id }}', type: 'string' },
		{ id: 'binary-bytes', name: 'binary_bytes', value: '={{ $binary.data.bytes }}', type: 'string' },
	);
	return webhookWorkflow(
		id,
		id,
		[
			task('Calls', 220, {
				operation: 'getAll',
				callsOf: 'space',
				space: { __rl: true, mode: 'token', value: TRIGGER_SPACE },
				returnAll: true,
				filters: { status: 'completed' },
			}),
			task('Download', 440, { operation: 'downloadRecording', recordingUrl: '={{ $json.recording_url }}' }),
			stored,
		],
		[
			['Webhook', 'Calls'],
			['Calls', 'Download'],
			['Download', 'Stored'],
		],
	);
}
