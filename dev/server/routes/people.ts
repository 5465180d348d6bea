/**
 * `GET knowledge_base/{kb_id}/connector-doc-data/{connector_id}/`, the People profile of openapi
 * 677bf31 (`api/logs/get-people.mdx`): a contact's calls in a space, summed from the server's own
 * tasks of that document (its `document_id`, Unpod's `ref_id`). How Unpod sums them is not
 * published: connected means the call ended `completed`, the preferred time is the part of the day
 * (UTC) most connected calls started in, the summary is the last connected call's, and the
 * sentiment that call's `profile_summary.tone` (the twin's stand-in: its calls write no sentiment).
 */
import { envelope, fail } from '../http';
import type { Task } from '../types';
import { authenticate, platformOrg, Route } from './context';

const ENDED = ['completed', 'failed'];
const OPEN = ['pending', 'scheduled', 'hold', 'in_progress', 'processing'];

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

function scheduledMs(task: Task): number | undefined {
	const stamp = task.scheduled_timestamp;
	if (typeof stamp === 'number') return stamp * 1000;
	if (typeof stamp === 'string' && stamp) return Date.parse(/Z|[+-]\d{2}:?\d{2}$/.test(stamp) ? stamp : `${stamp}Z`);
	return undefined;
}

function partOfDay(ms: number): string {
	const hour = new Date(ms).getUTCHours();
	return hour < 12 ? 'Morning' : hour < 17 ? 'Afternoon' : 'Evening';
}

function duration(seconds: number): string {
	const s = Math.round(seconds);
	return `${Math.floor(s / 60)}m ${s % 60}s`;
}

/** The profile of one document's tasks, oldest first. */
export function peopleProfile(documentId: string, tasks: Task[]): Record<string, unknown> {
	const ended = tasks.filter((t) => ENDED.includes(t.status) && t.output.call_status);
	const connected = ended.filter((t) => t.output.call_status === 'completed');
	const last = connected[connected.length - 1];
	const post = (last?.output.post_call_data ?? {}) as Record<string, any>;
	const next = tasks
		.filter((t) => OPEN.includes(t.status))
		.map(scheduledMs)
		.filter((ms): ms is number => ms !== undefined)
		.sort((a, b) => a - b)[0];
	const parts = new Map<string, number>();
	for (const t of connected) {
		const part = partOfDay(Date.parse(`${String(t.output.start_time).replace(' ', 'T')}Z`));
		parts.set(part, (parts.get(part) ?? 0) + 1);
	}
	const preferred = [...parts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
	const seconds = connected.map((t) => Number(t.output.duration) || 0);
	return {
		document_id: documentId,
		name: String(tasks[tasks.length - 1].input.name ?? ''),
		overview: {
			summary: last
				? `Called ${ended.length} times, ${connected.length} connected. Last call: ${String(post.summary?.summary ?? last.output.call_summary ?? '')}`
				: `Called ${ended.length} times, none connected.`,
			profile_status: last ? String(post.profile_summary?.outcome ?? post.summary?.status ?? 'contacted') : 'new',
			analytics: {
				total_calls: ended.length,
				connected_calls: connected.length,
				response_rate: ended.length ? `${Math.round((connected.length / ended.length) * 100)}%` : '0%',
				avg_call_duration: seconds.length ? duration(seconds.reduce((a, b) => a + b, 0) / seconds.length) : null,
				last_connected: last
					? `${String(last.output.end_time)
							.replace(' ', 'T')
							.replace(/\.\d+$/, '')}Z`
					: null,
				next_call_scheduled: next === undefined ? null : iso(next),
				preferred_time: preferred,
				sentiment: post.profile_summary?.tone ? String(post.profile_summary.tone).toLowerCase() : null,
			},
		},
	};
}

export const peopleRoutes: Route = (ctx) => {
	const [a0, kb, a2, doc] = ctx.parts;
	if (a0 !== 'knowledge_base' || a2 !== 'connector-doc-data' || ctx.parts.length !== 4 || ctx.method !== 'GET')
		return undefined;
	const user = authenticate(ctx);
	const org = platformOrg(ctx, user);
	const space = ctx.store.spaces.get(decodeURIComponent(kb));
	if (!space || space.org !== org.domain_handle)
		return fail(404, { status_code: 404, message: 'Knowledge base not found.' });
	const documentId = decodeURIComponent(doc);
	const tasks = ctx.store.tasks.filter(
		(t) => t.space === space.token && (t.input.document_id === documentId || t.ref_id === documentId),
	);
	if (!tasks.length) return fail(404, { status_code: 404, message: 'Connector document not found.' });
	return { status: 200, body: envelope(200, 'Doc data fetched successfully', peopleProfile(documentId, tasks)) };
};
