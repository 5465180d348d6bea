/**
 * `GET telephony/overview/` (OpenAPI 2.0.0, `getTelephonyOverview`): each number of the
 * organization with its bridge, its link and whether Unpod's planes agree. Org-Handle missing:
 * 206, as the spec's example. The spec shows one state of each (`LINKED`, `sip`, `synced`); the
 * others here (`UNLINKED`, `agent`) are the twin's choice.
 */
import { businessFailure } from '../http';
import { authenticate, Route } from './context';

export const overviewRoutes: Route = (ctx) => {
	const [a0, a1] = ctx.parts;
	if (a0 !== 'telephony' || a1 !== 'overview' || ctx.parts.length !== 2 || ctx.method !== 'GET') return undefined;
	const user = authenticate(ctx);
	const handle = ctx.headers['org-handle'];
	if (!handle) return businessFailure('Please provide Org-Handle in headers');
	const org = ctx.store.orgs.get(String(handle));
	// As the other telephony routes: an organization the caller is not in is not found.
	if (!org || !user.orgs[org.domain_handle]) return businessFailure('Organization not found');
	const onBridges = [...ctx.store.bridges.values()]
		.filter((b) => b.org === org.domain_handle)
		.flatMap((b) =>
			b.numbers.map((n) => ({
				number_id: n.number_id,
				number: n.number,
				bridge_slug: b.slug,
				connection_state: n.provider_credential ? 'LINKED' : 'UNLINKED',
				termination_kind: n.agent_id ? 'agent' : 'sip',
				agent_id: n.agent_id,
				sync_state: 'synced',
				sync_detail: null,
			})),
		);
	const onAgents = ctx.store.poolNumbers
		.filter((n) => n.org === org.domain_handle && n.agent)
		.map((n) => ({
			number_id: n.id,
			number: n.number,
			bridge_slug: null,
			connection_state: 'LINKED',
			termination_kind: 'agent',
			agent_id: n.agent,
			sync_state: 'synced',
			sync_detail: null,
		}));
	return {
		status: 200,
		body: { status_code: 200, message: 'Telephony overview fetched successfully.', data: [...onBridges, ...onAgents] },
	};
};
