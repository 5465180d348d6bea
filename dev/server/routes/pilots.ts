/**
 * Unpod's v1 pilot endpoint, where Studio saves an agent's forms: `GET|PUT
 * /api/v1/core/pilots/{handle}/` with a user's login (`Authorization: JWT ...`) and
 * `Org-Handle`. The platform API token is refused. Only the `webhook-integration` form is
 * kept; a PUT replaces its three values together, as the form does.
 */
import { fail, Reply } from '../http';
import type { Store } from '../store';
import type { AgentWebhooks, WebhookForm } from '../webhooks';

export const PILOTS_PREFIX = '/api/v1/core/pilots/';

export function pilotRoute(
	store: Store,
	webhooks: AgentWebhooks,
	method: string,
	path: string,
	body: Record<string, unknown>,
	headers: Record<string, string | string[] | undefined>,
): Reply {
	const match = /^JWT\s+(\S+)$/.exec(String(headers.authorization ?? ''));
	const userToken = match ? store.jwts.get(match[1]) : undefined;
	const user = userToken ? store.users.get(userToken) : undefined;
	if (!user) return fail(401, { detail: 'Authentication credentials were not provided.' });
	const org = String(headers['org-handle'] ?? '');
	if (!org || !user.orgs[org]) return fail(400, { message: 'Org-Handle header is required' });
	const handle = decodeURIComponent(path.slice(PILOTS_PREFIX.length).replace(/\/$/, ''));
	const agent = store.agents.get(handle);
	if (!agent || agent.org !== org) return fail(404, { message: 'Pilot not found' });
	if (method === 'PUT' || method === 'PATCH') {
		const components = (body.components ?? {}) as Record<string, unknown>;
		const form: WebhookForm = {
			enable_webhook: Boolean(components['webhook-integration__enable_webhook']),
			webhook_url: String(components['webhook-integration__webhook_url'] ?? ''),
			headers: (components['webhook-integration__headers'] ?? []) as WebhookForm['headers'],
		};
		webhooks.configure(handle, form);
	} else if (method !== 'GET') {
		return fail(405, { detail: `Method "${method}" not allowed.` });
	}
	return {
		status: 200,
		body: {
			status_code: 200,
			message: 'Pilot fetched successfully',
			data: { handle, name: agent.name, components: webhooks.formView(handle) },
		},
	};
}
