/** Space > Get Analytics: Unpod's call figures of one space, or of every contact space of the organization. */
import type { IExecuteSingleFunctions, INodeExecutionData, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { spaceLocator } from '../../../shared/descriptions';
import { numberOf, objectOf } from '../../../shared/values';
import { checkResponseAt, requestRouting } from '../../../shared/routing';

const show = { resource: ['space'], operation: ['getAnalytics'] };
const PATH = '/organisation/analytics/';

/** The figures of the flat item, in the order docs/agent-and-space.md (Get Analytics) lists them. */
export const ANALYTICS_FIGURES = [
	'total_calls',
	'completed_calls',
	'failed_calls',
	'interested',
	'call_back',
	'send_details',
	'not_interested',
	'not_connected',
	'avg_success_score',
	'avg_duration_seconds',
	'total_tasks',
	'tasks_pending',
	'tasks_in_progress',
	'tasks_completed',
	'tasks_failed',
	'success_rate',
] as const;

type Figure = (typeof ANALYTICS_FIGURES)[number];

/**
 * Unpod's analytics answer as one flat record, whichever shape it came in: the source's
 * `call_analytics` + `call_status` (what the backend sends), or the API reference's flat
 * `total_calls` ... `task_status_breakdown`. A figure the answer does not carry is null;
 * `data: null` (Unpod's answer for a space nobody was called from yet) counts zero.
 */
export function simplifyAnalytics(data: unknown): Record<Figure, number | null> {
	const d = objectOf(data);
	const calls = objectOf(d.call_analytics);
	const status = objectOf(d.call_status);
	const breakdown = objectOf(d.task_status_breakdown);
	const pick = (...values: unknown[]) => {
		for (const value of values) {
			const n = numberOf(value);
			if (n !== null) return n;
		}
		return null;
	};
	const figures: Record<Figure, number | null> = {
		total_calls: pick(calls.total_calls, d.total_calls),
		completed_calls: pick(d.completed_calls),
		failed_calls: pick(calls.failed, d.failed_calls),
		interested: pick(calls.interested),
		call_back: pick(calls.call_back),
		send_details: pick(calls.send_details),
		not_interested: pick(calls.not_interested),
		not_connected: pick(calls.not_connected),
		avg_success_score: pick(calls.avg_success_score),
		avg_duration_seconds: pick(d.avg_duration_seconds),
		total_tasks: pick(status.total_tasks, d.total_tasks),
		tasks_pending: pick(status.pending, breakdown.pending),
		tasks_in_progress: pick(status.in_progress, breakdown.running, breakdown.in_progress),
		tasks_completed: pick(status.completed, breakdown.completed),
		tasks_failed: pick(status.failed, breakdown.failed),
		success_rate: pick(status.success_rate, d.success_rate),
	};
	if (figures.success_rate === null && figures.total_tasks && figures.tasks_completed !== null)
		figures.success_rate = Math.round((figures.tasks_completed / figures.total_tasks) * 10000) / 100;
	if (data === null) {
		for (const key of ANALYTICS_FIGURES) if (!key.startsWith('avg_') && key !== 'success_rate') figures[key] = 0;
	}
	return figures;
}

/** The answer's `data` as one flat item, saying what it covers. */
async function toFigures(this: IExecuteSingleFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	const whole = this.getNodeParameter('callsOf', 'space') === 'organization';
	const spaceToken = whole ? null : (this.getNodeParameter('space', undefined, { extractValue: true }) as string);
	return items.map((item) => ({
		...item,
		json: {
			scope: whole ? 'organization' : 'space',
			space_token: spaceToken,
			...simplifyAnalytics(objectOf(item.json).data),
		},
	}));
}

export const option: INodePropertyOptions = {
	name: 'Get Analytics',
	value: 'getAnalytics',
	action: 'Get the call analytics of a space',
	description:
		"Unpod's call figures (calls, interested, callbacks, not connected, task statuses, success rate) of one space or the whole organization, as one flat item",
	routing: requestRouting({
		method: 'GET',
		url: PATH,
		idempotent: true,
		check: checkResponseAt(PATH),
		steps: [toFigures],
	}),
};

export const description: INodeProperties[] = [
	{
		displayName: 'Calls Of',
		name: 'callsOf',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Space', value: 'space', description: 'The calls of one space (call list)' },
			{
				name: 'Whole Organization',
				value: 'organization',
				description: "The calls of every contact space of the credential's organization",
			},
		],
		default: 'space',
		displayOptions: { show },
	},
	{
		...spaceLocator({ ...show, callsOf: ['space'] }),
		routing: { send: { type: 'query', property: 'space_token' } },
	},
];
