/** `spaces/{token}/runs/` and `spaces/{token}/runs/{run_id}/tasks/`. */
import { runForm, spaceForm } from '../answers';
import { businessFailure, listReply } from '../http';
import { authenticate, Route, taskSpace } from './context';

export const runRoutes: Route = (ctx) => {
	const [a0, token, a2, runId, a4] = ctx.parts;
	if (a0 !== 'spaces' || a2 !== 'runs' || ctx.method !== 'GET') return undefined;
	const space = taskSpace(ctx, authenticate(ctx), token);
	if (ctx.parts.length === 3) {
		const runs = [...ctx.store.runs.values()].filter((r) => r.space === space.token).reverse();
		return listReply(runs, ctx.query, 20, 'Runs fetched successfully', (r) => runForm(r));
	}
	if (ctx.parts.length === 5 && a4 === 'tasks') {
		const run = ctx.store.runs.get(decodeURIComponent(runId));
		// Unpod passes its task service's answer on as the error text.
		if (!run || run.space !== space.token)
			return businessFailure('Runs Fetch Failed', `{"detail":"Run ${runId} not found"}`);
		return listReply([...run.tasks].reverse(), ctx.query, 50, 'Tasks fetched successfully', (t) => spaceForm(t));
	}
	return undefined;
};
