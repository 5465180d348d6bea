/**
 * `telephony/numbers/` and `telephony/provider-configurations/`, as the platform API views of
 * Unpod's source (15cd2ef) answer them: neither is paginated, and neither checks that the
 * caller belongs to the organization the Org-Handle names.
 */
import { envelope, fail } from '../http';
import { authenticate, Route } from './context';

export const telephonyRoutes: Route = (ctx) => {
	const [a0, a1] = ctx.parts;
	if (a0 !== 'telephony' || ctx.method !== 'GET' || ctx.parts.length !== 2) return undefined;
	if (a1 !== 'numbers' && a1 !== 'provider-configurations') return undefined;
	authenticate(ctx);
	const handle = ctx.headers['org-handle'] ? String(ctx.headers['org-handle']) : undefined;
	if (a1 === 'numbers') {
		// The view builds a 400 for a missing Org-Handle and forgets to return it: it goes on
		// and lists the numbers of no organization.
		const free = ctx.store.poolNumbers.filter(
			(n) => n.active && n.state === 'NOT_ASSIGNED' && !n.agent_number && (n.org === null || n.org === handle),
		);
		return {
			status: 200,
			body: envelope(
				200,
				'Telephony numbers fetched successfully.',
				free.map((n) => ({ id: n.id, number: n.number, active: n.active })),
			),
		};
	}
	if (!handle) fail(400, { status_code: 400, message: 'Organization handle is required in Org-Handle header' });
	const org = ctx.store.orgs.get(handle!);
	const configs = [...ctx.store.credentials.values()].filter((c) => org && c.org === org.domain_handle);
	return {
		status: 200,
		body: envelope(
			200,
			'Provider credentials fetched successfully',
			configs.map((c) => ({
				id: c.id,
				name: c.name,
				provider: c.provider,
				provider_details: { id: c.provider_details.id, name: c.provider_details.name, description: '', icon: null },
				org_handle: c.org,
				meta_json: {},
				active: c.active,
				api_key: c.api_key ?? '',
				api_secret: c.api_key ? 'local-secret' : '',
				base_url: '',
				sip_url: c.sip_url ?? '',
			})),
		),
	};
};
