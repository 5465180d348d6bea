/**
 * `agents/`, `agents/{handle}/tasks/`, and `agents/{handle}/executions/` (known only from Unpod's
 * 2026 docs: one row per run of the agent's tasks, newest first).
 */
import { agentForm, runForm, runStatus } from '../answers';
import { fail, listReply } from '../http';
import { authenticate, platformOrg, Route } from './context';

export const agentRoutes: Route = (ctx) => {
	const [a0, handle, a2] = ctx.parts;
	if (a0 !== 'agents' || ctx.method !== 'GET') return undefined;
	const user = authenticate(ctx);
	if (ctx.parts.length === 1) {
		const org = platformOrg(ctx, user);
		const data = [...ctx.store.agents.values()]
			.filter((a) => a.org === org.domain_handle && a.state === 'published')
			.map(({ handle: h, name, type, state, purpose, description }) => ({
				handle: h,
				name,
				type,
				state,
				purpose,
				description,
			}));
		return {
			status: 200,
			body: { status_code: 200, message: 'Agents fetched successfully', count: data.length, data },
		};
	}
	if (ctx.parts.length === 3 && a2 === 'executions') {
		const agent = ctx.store.agents.get(decodeURIComponent(handle));
		if (!agent || !user.orgs[agent.org]) fail(404, { message: 'Agent not found.' });
		const runs = [...ctx.store.runs.values()]
			.filter((r) => r.tasks.some((t) => t.assignee === agent!.handle))
			.sort((a, b) => b.createdUs - a.createdUs);
		// OpenAPI 2.0.0 sends the whole list (no paging parameters); the 2026 docs' twin paged by 20.
		const size = ctx.behaviour.shapes === 'spec' ? Math.max(runs.length, 1) : 20;
		const query = ctx.behaviour.shapes === 'spec' ? new URLSearchParams() : ctx.query;
		return listReply(runs, query, size, 'Agent executions fetched successfully', (r) => ({
			run_id: r.run_id,
			status: runStatus(r),
			total_tasks: r.tasks.length,
			completed_tasks: r.tasks.filter((t) => t.status === 'completed').length,
			created: runForm(r).created,
		}));
	}
	if (ctx.parts.length === 3 && a2 === 'tasks') {
		// No Org-Handle needed here; the agent's organization must be one of the caller's.
		const agent = ctx.store.agents.get(decodeURIComponent(handle));
		if (!agent || !user.orgs[agent.org]) fail(404, { message: 'Agent not found' });
		// The agent list reads only page and page_size: every filter is ignored.
		const tasks = ctx.store.tasks.filter((t) => t.assignee === agent!.handle && t.org === agent!.org).reverse();
		return listReply(tasks, ctx.query, 20, 'Tasks fetched successfully', (t) => agentForm(t));
	}
	return undefined;
};
