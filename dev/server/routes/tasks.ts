/** `spaces/{token}/tasks/` (list, create) and `spaces/{token}/tasks/create/`. */
import { spaceForm } from '../answers';
import { businessFailure, fail, listReply, Reply } from '../http';
import type { Space, Task, User } from '../types';
import { authenticate, Ctx, Route, taskSpace } from './context';

export const taskRoutes: Route = (ctx) => {
	const [a0, token, a2, a3] = ctx.parts;
	if (a0 !== 'spaces' || a2 !== 'tasks') return undefined;
	const { method, parts, behaviour } = ctx;
	if (parts.length === 3 && method === 'GET') return spaceTasks(ctx, taskSpace(ctx, authenticate(ctx), token));
	const path = parts.length === 3 ? 'tasks' : parts.length === 4 && a3 === 'create' ? 'create' : undefined;
	if (!path || method !== 'POST') return undefined;
	if (!behaviour.createPaths.includes(path)) {
		// A list-only view refuses the method; a path that was never routed is not found.
		return path === 'tasks'
			? fail(405, { detail: 'Method "POST" not allowed.' })
			: fail(404, { status_code: 404, message: 'Not found.' });
	}
	const user = authenticate(ctx);
	return createTasks(ctx, taskSpace(ctx, user, token), user);
};

/**
 * Tasks of a space, newest first, default page size 50. Filters as the real backend reads
 * them: `status` is a comma list of call outcomes (`output.post_call_data.summary.status`),
 * not task statuses.
 */
function spaceTasks(ctx: Ctx, space: Space): Reply {
	const q = ctx.query;
	const search = q.get('search');
	let pattern: RegExp | undefined;
	if (search) {
		try {
			pattern = new RegExp(search, 'i');
		} catch {
			pattern = new RegExp(search.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i');
		}
	}
	const outcomes = q
		.get('status')
		?.split(',')
		.map((s) => s.trim())
		.filter(Boolean);
	const callType = q.get('call_type');
	const from = q.has('from_ts') ? Number(q.get('from_ts')) * 1e6 : undefined;
	const to = q.has('to_ts') ? Number(q.get('to_ts')) * 1e6 : undefined;
	const matched: Task[] = [];
	for (let i = ctx.store.tasks.length - 1; i >= 0; i--) {
		const t = ctx.store.tasks[i];
		if (t.space !== space.token) continue;
		const output = t.output as Record<string, any>;
		if (outcomes?.length && !outcomes.includes(output.post_call_data?.summary?.status)) continue;
		if (callType) {
			const type = String(output.call_type ?? output.type ?? '');
			if (type !== callType && type !== `${callType}PhoneCall`) continue;
		}
		if (from !== undefined && t.createdUs < from) continue;
		if (to !== undefined && t.createdUs > to) continue;
		if (pattern) {
			const fields = [t.input.name, t.input.phone, output.customer, output.contact_number];
			if (!fields.some((f) => typeof f === 'string' && pattern!.test(f))) continue;
		}
		matched.push(t);
	}
	return listReply(matched, q, 50, 'Tasks fetched successfully', (t) => spaceForm(t));
}

const REQUIRED = ['This field is required.'];

function createTasks(ctx: Ctx, space: Space, user: User): Reply {
	const body = ctx.body;
	// The serializer: pilot, a non-blank context and documents are required. Documents are
	// not checked one by one, and the pilot is not looked up.
	const errors: Record<string, string[]> = {};
	if (typeof body.pilot !== 'string' || !body.pilot.trim()) errors.pilot = REQUIRED;
	if (typeof body.context !== 'string' || !body.context.trim()) errors.context = REQUIRED;
	const documents = body.documents;
	if (!Array.isArray(documents)) errors.documents = REQUIRED;
	else if (documents.length === 0) errors.documents = ['This list may not be empty.'];
	else if (documents.length > ctx.maxDocuments)
		errors.documents = [`Ensure this list has at most ${ctx.maxDocuments} items.`];
	let scheduled: string | null = null;
	const schedule = (body.schedule ?? { type: 'now' }) as Record<string, unknown>;
	const type = String(schedule.type ?? 'now');
	if (!['now', 'auto', 'custom'].includes(type)) errors.schedule = [`"${type}" is not a valid choice.`];
	else if (type === 'custom') {
		if (
			!/^\d{4}-\d{2}-\d{2}$/.test(String(schedule.calling_date ?? '')) ||
			!/^\d{2}:\d{2}(:\d{2})?$/.test(String(schedule.calling_time ?? ''))
		) {
			errors.schedule = ['A custom schedule needs calling_date (YYYY-MM-DD) and calling_time (HH:MM).'];
		} else scheduled = `${String(schedule.calling_date)}T${String(schedule.calling_time)}`;
	}
	if (Object.keys(errors).length) businessFailure('There is some Validation error', errors);
	// The task service's own failures pass through with their status.
	if (scheduled && Date.parse(`${scheduled}Z`) < Date.now()) {
		fail(400, { status_code: 400, message: 'Scheduled time must be in the future.' });
	}

	const { runId, tasks } = ctx.store.createTasks(
		space,
		String(body.pilot),
		(documents as unknown[]).map((d) => (d && typeof d === 'object' ? (d as Record<string, unknown>) : { value: d })),
		String(body.context),
		user,
		scheduled,
		type,
	);
	ctx.onTasksCreated(tasks);
	const { behaviour } = ctx;
	const data: Record<string, unknown> = { run_id: runId };
	if (behaviour.createTaskIds) data.task_ids = tasks.map((t) => t.task_id);
	if (behaviour.createStatus === 'map') {
		data.status = Object.fromEntries(tasks.map((t) => [t.task_id, t.status]));
	} else {
		Object.assign(data, {
			space_id: space.token,
			status: tasks[0].status,
			created: new Date().toISOString().slice(0, 19),
		});
	}
	return { status: 200, body: { status_code: 200, message: 'Task Created Successfully', data } };
}
