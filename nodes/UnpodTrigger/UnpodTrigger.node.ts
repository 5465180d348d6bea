import { NodeApiError, NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';
import type {
	IDataObject,
	INode,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
	JsonObject,
} from 'n8n-workflow';
import { ringWaitingExecutions } from '../shared/resume';
import {
	agentLocator,
	directionField,
	eventsField,
	optionsCollection,
	simplifyField,
	spaceLocator,
} from '../shared/descriptions';
import { searchAgents } from '../shared/listSearch/searchAgents';
import { searchSpaces } from '../shared/listSearch/searchSpaces';
import { MAX_PAGE_SIZE, toPage } from '../shared/pagination';
import { callLogPaths, callTypeQuery, simplifyCallLog } from '../shared/callLogs';
import { taskOutput } from '../shared/outcome';
import { CALL_ENDINGS } from '../shared/tasks';
import { taskListPages } from '../shared/taskLists';
import { asNodeError } from '../shared/errors';
import { classifyFailure, pickerBudget } from '../shared/retry';
import { sendToFirstServedPath, unpodApiRequest } from '../shared/transport';
import type { FinalStatus } from '../shared/tasks';
import { scanCallLogs } from './callLogScan';
import { scanForTransitions } from './scan';

/**
 * Requests one poll may send by default: with a poll a minute, a sixth of a 60 requests a
 * minute plan, leaving the rest to imports. Enough for 1,000 open calls (10 pages) a poll.
 */
export const DEFAULT_MAX_REQUESTS = 10;

/** How far a manual run ("Fetch Test Event") looks for a finished call. */
const SAMPLE_PAGES = 3;

export class UnpodTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Unpod Trigger',
		name: 'unpodTrigger',
		icon: { light: 'file:../../icons/unpod.svg', dark: 'file:../../icons/unpod.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle:
			'={{$parameter["callsOf"] === "callLog" ? "every call logged" : "calls ended in " + $parameter["callsOf"]}}',
		description:
			'Starts the workflow when an Unpod call ends: a task of a space or agent, or any call in the call log (inbound too)',
		defaults: { name: 'Unpod Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'unpodApi', required: true }],
		properties: [
			{
				displayName: 'Calls Of',
				name: 'callsOf',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Space', value: 'space', description: 'Calls of one space (call list)' },
					{ name: 'Agent', value: 'agent', description: 'Calls made by one agent' },
					{
						name: 'Every Call (Call Log)',
						value: 'callLog',
						description: "Every call Unpod logs once it ended, inbound (people calling an agent's number) and outbound",
					},
				],
				default: 'space',
			},
			{
				displayName:
					'Unpod logs calls without their task: the transcript and summary of an outbound call are on its task (Calls Of: Space or Agent)',
				name: 'callLogNotice',
				type: 'notice',
				default: '',
				displayOptions: { show: { callsOf: ['callLog'] } },
			},
			spaceLocator({ callsOf: ['space'] }),
			agentLocator({ callsOf: ['agent'] }),
			eventsField(CALL_ENDINGS, {
				description: 'Which endings start the workflow',
				displayOptions: { show: { callsOf: ['space', 'agent'] } },
			}),
			directionField({ callsOf: ['callLog'] }),
			simplifyField({ callsOf: ['space', 'agent'] }),
			simplifyField({ callsOf: ['callLog'] }, 'callLog'),
			optionsCollection({}, [
				{
					displayName: 'Emit Past Calls (Hours)',
					name: 'backfillHours',
					type: 'number',
					typeOptions: { minValue: 0, maxValue: 168 },
					default: 0,
					description: 'On activation, also emit the calls that ended within this many hours before it',
					hint: 'At 0, the first poll after activation only learns what exists and emits nothing',
					displayOptions: { show: { '/callsOf': ['space', 'agent'] } },
				},
				{
					displayName: 'Max Requests Per Poll',
					name: 'maxRequests',
					type: 'number',
					typeOptions: { minValue: 1, maxValue: 100 },
					default: DEFAULT_MAX_REQUESTS,
					description: 'At most this many requests (100 tasks or call logs each) per poll',
					hint: 'The next poll goes on where this one stopped: with N open calls, an end is seen within about N / 100 / this value polls',
				},
			]),
		],
	};

	methods = {
		listSearch: { searchAgents, searchSpaces },
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		if (this.getNodeParameter('callsOf') === 'callLog') return await pollCallLog.call(this);
		const callsOf = this.getNodeParameter('callsOf') as 'space' | 'agent';
		const id = this.getNodeParameter(callsOf, '', { extractValue: true }) as string;
		const events = this.getNodeParameter('events', []) as FinalStatus[];
		const simplify = this.getNodeParameter('simplify', true) as boolean;
		const options = this.getNodeParameter('options', {}) as IDataObject;
		if (!events.length) throw new NodeOperationError(this.getNode(), 'Select at least one event');

		// A poll does not wait on a failure: it stops, keeps what it read and goes on at the
		// next poll. A manual run, which someone is watching, gets the pickers' short retries.
		const manual = this.getMode() === 'manual';
		const budget = manual ? pickerBudget() : undefined;
		const fetchPage = taskListPages(this, { scope: callsOf, id }, { budget });
		const shape = (tasks: IDataObject[]) => tasks.map((task) => ({ json: taskOutput(task, simplify) }));

		if (manual) {
			// A sample for the editor: the newest ended call. Stored state is not touched.
			for (let page = 1; page <= SAMPLE_PAGES; page++) {
				const { data } = await fetchPage(page, MAX_PAGE_SIZE);
				const ended = data.find((t) => events.includes(t.status as FinalStatus));
				if (ended) return [shape([ended])];
				if (data.length < MAX_PAGE_SIZE) break;
			}
			throw new NodeOperationError(this.getNode(), `No call has ended yet in this ${callsOf}`, {
				description: `The newest ${SAMPLE_PAGES * MAX_PAGE_SIZE} tasks of ${callsOf} "${id}" have no ${events.join(' or ')} call. Create a task and wait for its call to end, then try again.`,
			});
		}

		const staticData = this.getWorkflowStaticData('node');
		const result = await scanForTransitions(staticData.state, fetchPage, {
			scope: `${callsOf}:${id}`,
			events,
			now: Date.now(),
			budget: requestBudgetOf(options),
			backfillMs: Number(options.backfillHours ?? 0) * 3600 * 1000,
			classify: (error) => classifyFailure(error, true),
		});
		// Progress is kept even when the poll stopped early: the next poll goes on from it.
		staticData.state = result.state as unknown as IDataObject;
		// The safety net of the Call Events Trigger's relay: a waiting call's end found here
		// wakes the execution waiting for it (a ring after the push's is answered and changes nothing).
		await ringWaitingExecutions(this, result.emitted);
		return pollOutcome(this.getNode(), result, shape);
	}
}

const requestBudgetOf = (options: IDataObject) =>
	Math.max(1, Math.floor(Number(options.maxRequests ?? DEFAULT_MAX_REQUESTS)) || DEFAULT_MAX_REQUESTS);

/**
 * What a poll gives n8n. Rows a scan gives are never dropped: they go out even if a later read
 * of the poll failed (the call log's scan gives none then: the next poll reads them again). A
 * failure that waiting will not heal (401, an unknown space, a 206) fails the poll with the
 * API's message; passing ones make a quiet poll.
 */
function pollOutcome(
	node: INode,
	result: { emitted: IDataObject[]; stopped?: { kind: string; error: unknown; waitMs?: number } },
	shape: (rows: IDataObject[]) => INodeExecutionData[],
): INodeExecutionData[][] | null {
	if (result.emitted.length) return [shape(result.emitted)];
	if (result.stopped?.kind === 'final') throw asNodeError(node, result.stopped.error);
	if (result.stopped?.kind === 'rateLimited') {
		const declared = rateLimitedError(node, result.stopped.error, result.stopped.waitMs);
		if (declared) throw declared;
	}
	return null;
}

/**
 * Watch: Call Log. Every call Unpod logs, once each, in the order they were logged: read at
 * `cdr/`, or at `call-logs/` where the deployment does not serve `cdr/`; the path that served is
 * kept with the cursor and asked first by the next polls.
 */
async function pollCallLog(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const direction = this.getNodeParameter('direction', 'all') as string;
	const simplify = this.getNodeParameter('simplify', true) as boolean;
	const options = this.getNodeParameter('options', {}) as IDataObject;
	const manual = this.getMode() === 'manual';
	const staticData = this.getWorkflowStaticData('node');
	let paths = callLogPaths(manual ? undefined : (staticData.state as IDataObject | undefined)?.path);
	const fetchPage = async (page: number, pageSize: number) => {
		const { answer, path } = await sendToFirstServedPath(
			this.getNode(),
			paths,
			async (at) =>
				await unpodApiRequest.call(this, {
					method: 'GET',
					path: at,
					qs: { page, page_size: pageSize, ...callTypeQuery(direction) },
					subject: 'the call log',
					budget: manual ? pickerBudget() : undefined,
				}),
		);
		paths = callLogPaths(path);
		return toPage(answer);
	};
	const shape = (rows: IDataObject[]) => rows.map((row) => ({ json: simplify ? simplifyCallLog(row) : row }));

	if (manual) {
		// A sample for the editor: the newest call logged. Stored state is not touched.
		const { data } = await fetchPage(1, 1);
		if (data.length) return [shape(data.slice(0, 1))];
		throw new NodeOperationError(this.getNode(), 'No call is in the call log yet', {
			description: `Unpod has logged no ${direction === 'all' ? '' : `${direction} `}call for this organization (the credential's Org Handle). Make a call, then try again.`,
		});
	}

	const result = await scanCallLogs(staticData.state, fetchPage, {
		scope: `callLog:${direction}`,
		now: Date.now(),
		budget: requestBudgetOf(options),
		classify: (error) => classifyFailure(error, true),
		servedPath: () => paths[0],
	});
	staticData.state = result.state as unknown as IDataObject;
	if (result.skippedPast)
		this.logger.warn(
			'Unpod Trigger: more calls were logged since the last poll than Max Requests Per Poll reads, and the call log gave no count to go back by: the oldest of them were not emitted',
		);
	return pollOutcome(this.getNode(), result, shape);
}

/**
 * n8n 2.3x and later read a node's declared failure cause (`failure` on NodeApiError) and
 * can back a rate-limited poller off. On older n8n the option does not exist, and a 429 is
 * simply a quiet poll: the trigger itself skips polls until Retry-After has passed.
 */
function rateLimitedError(node: INode, error: unknown, retryAfterMs?: number): NodeApiError | undefined {
	const cause = error as { context?: { data?: unknown }; message?: string; description?: string };
	const declared = new NodeApiError(
		node,
		(cause.context?.data ?? {}) as JsonObject,
		{
			message: cause.message ?? 'Unpod rate limit reached',
			description: 'The Unpod Trigger kept what it read and goes on after the wait. ' + (cause.description ?? ''),
			httpCode: '429',
			failure: { cause: 'rate-limited', ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) },
		} as ConstructorParameters<typeof NodeApiError>[2],
	);
	return (declared as { failure?: unknown }).failure ? declared : undefined;
}
