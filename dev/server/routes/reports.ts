/**
 * `organisation/analytics/` and `organisation/billing/`, as Unpod's documents describe them:
 * Org-Handle required (400), an organization the caller is not in 404. Analytics are counted
 * from the server's own tasks; the answer's shape follows the behaviour's `shapes`: `source` and
 * `spec` (the `call_analytics` + `call_status` the backend's `fetch_space_analytics` builds, and
 * billing invoices in `data`) or `docs` (the API reference, as OpenAPI 2.0.0 has it: flat
 * `total_calls` ... `task_status_breakdown`, invoices in `results`). `spec` keeps the backend's
 * shape on purpose: Unpod documents both (docs/unpod-quirks.md, Analytics and billing), and the
 * node and the campaign page read both.
 */
import { envelope, fail, pageParams } from '../http';
import type { Org, Task } from '../types';
import { authenticate, platformOrg, Route } from './context';

/** A completed call's success score, from what the person said (the agent's success evaluation). */
const SCORE: Record<string, number> = { interested: 90, callback: 60, not_interested: 20 };

const outcomeOf = (task: Task) =>
	String(((task.output.post_call_data as Record<string, any> | undefined)?.summary ?? {}).status ?? '');

const ended = (task: Task) => ['completed', 'failed', 'partially_completed'].includes(task.status);
const reachedNobody = (task: Task) =>
	task.status === 'failed' && ['no-answer', 'busy'].includes(String(task.output.call_end_reason ?? ''));

const WAITING: string[] = ['pending', 'scheduled', 'hold'];
const ON_A_CALL: string[] = ['in_progress', 'processing'];
const counter = (tasks: Task[]) => (match: (t: Task) => boolean) => tasks.filter(match).length;

const percentage = (part: number, whole: number) => (whole ? Math.round((part / whole) * 10000) / 100 : 0);

/** `call_analytics` and `call_status` as the backend sums them over runs (its "average" score is a sum of each run's average). */
export function sourceAnalytics(tasks: Task[]): Record<string, unknown> | null {
	if (!tasks.length) return null;
	const count = counter(tasks);
	const runs = new Map<string, number[]>();
	for (const task of tasks.filter((t) => t.status === 'completed')) {
		const scores = runs.get(task.run_id) ?? [];
		scores.push(SCORE[outcomeOf(task)] ?? 0);
		runs.set(task.run_id, scores);
	}
	const scoreSum = [...runs.values()].reduce(
		(sum, scores) => sum + Math.round(scores.reduce((a, b) => a + b, 0) / scores.length),
		0,
	);
	const completed = count((t) => t.status === 'completed' || t.status === 'partially_completed');
	return {
		call_analytics: {
			total_calls: count(ended),
			interested: count((t) => outcomeOf(t) === 'interested'),
			call_back: count((t) => outcomeOf(t) === 'callback'),
			send_details: 0,
			not_interested: count((t) => outcomeOf(t) === 'not_interested'),
			not_connected: count(reachedNobody),
			failed: count((t) => t.status === 'failed' && !reachedNobody(t)),
			avg_success_score: scoreSum,
		},
		call_status: {
			total_tasks: tasks.length,
			completed,
			failed: count((t) => t.status === 'failed'),
			pending: count((t) => WAITING.includes(t.status)),
			in_progress: count((t) => ON_A_CALL.includes(t.status)),
			success_rate: percentage(completed, tasks.length),
		},
	};
}

/** The API reference's flat shape. */
export function docsAnalytics(tasks: Task[]): Record<string, unknown> {
	const count = counter(tasks);
	const durations = tasks.filter((t) => t.status === 'completed').map((t) => Number(t.output.duration) || 0);
	return {
		total_calls: count(ended),
		completed_calls: count((t) => t.status === 'completed'),
		failed_calls: count((t) => t.status === 'failed'),
		avg_duration_seconds: durations.length
			? Math.round((durations.reduce((a, b) => a + b, 0) / durations.length) * 10) / 10
			: 0,
		total_tasks: tasks.length,
		task_status_breakdown: {
			pending: count((t) => WAITING.includes(t.status)),
			running: count((t) => ON_A_CALL.includes(t.status)),
			completed: count((t) => t.status === 'completed' || t.status === 'partially_completed'),
			failed: count((t) => t.status === 'failed'),
		},
	};
}

/** Twenty-three monthly invoices, the newest first (more than one default page of 20). */
export function invoicesOf(org: Org): Array<Record<string, unknown>> {
	return Array.from({ length: 23 }, (_, i) => {
		const date = new Date(Date.UTC(2026, 10 - i, 1, 0, 0, 15));
		const amount = 1000 + ((org.org_id * 37 + i * 113) % 900) + 0.35;
		return {
			id: 200 - i,
			invoice_number: `INV-${String(200 - i).padStart(5, '0')}`,
			amount: amount.toFixed(2),
			tax_amount: (amount * 0.18).toFixed(2),
			currency: 'USD',
			status: i === 0 ? 'pending' : 'paid',
			charge_type: 'subscription',
			invoice_date: date.toISOString(),
			due_date: new Date(date.getTime() + 7 * 86400000).toISOString(),
			payment_at: i === 0 ? null : new Date(date.getTime() + 2 * 86400000).toISOString(),
		};
	});
}

export const reportRoutes: Route = (ctx) => {
	const [a0, a1] = ctx.parts;
	if (a0 !== 'organisation' || ctx.parts.length !== 2 || ctx.method !== 'GET') return undefined;
	if (a1 !== 'analytics' && a1 !== 'billing') return undefined;
	const user = authenticate(ctx);
	const org = platformOrg(ctx, user);
	// Unpod documents these twice (docs/unpod-quirks.md, Analytics and billing): the guide's shapes, which the
	// backend sends, unless the docs' shape (the API reference's, as OpenAPI 2.0.0 has it) is asked for.
	const docs = ctx.behaviour.shapes === 'docs';
	if (a1 === 'billing') {
		const { page, pageSize } = pageParams(ctx.query, 20);
		const all = invoicesOf(org);
		const rows = all.slice((page - 1) * pageSize, page * pageSize);
		const list = docs
			? rows.map(({ id, amount, currency, status, invoice_date }) => ({ id, amount, currency, status, invoice_date }))
			: rows.map(({ id: _id, ...invoice }) => invoice);
		return {
			status: 200,
			body: {
				count: all.length,
				status_code: 200,
				message: 'Billing data fetched successfully',
				[docs ? 'results' : 'data']: list,
			},
		};
	}
	const token = ctx.query.get('space_token');
	const spaces = [...ctx.store.spaces.values()].filter(
		(s) => s.org === org.domain_handle && s.content_type === 'contact' && (!token || s.token === token),
	);
	if (token && !spaces.length) return fail(404, { status_code: 404, message: 'Space not found' });
	const tokens = new Set(spaces.map((s) => s.token));
	const tasks = ctx.store.tasks.filter((t) => tokens.has(t.space));
	if (docs) return { status: 200, body: envelope(200, 'Analytics fetched successfully', docsAnalytics(tasks)) };
	const analytics = sourceAnalytics(tasks);
	return analytics
		? { status: 200, body: envelope(200, 'Analytics fetched successfully', analytics) }
		: { status: 200, body: { message: 'No analytics data available for this space.', data: null } };
};
