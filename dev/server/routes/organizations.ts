import { authenticate, Route } from './context';

/** `GET organizations/`: needs only Authorization. */
export const organizationRoutes: Route = (ctx) => {
	if (ctx.parts.length !== 1 || ctx.parts[0] !== 'organizations' || ctx.method !== 'GET') return undefined;
	const user = authenticate(ctx, ctx.behaviour.spacesAuth === 'jwt');
	const data = Object.entries(user.orgs).map(([handle, role]) => {
		const org = ctx.store.orgs.get(handle)!;
		return {
			name: org.name,
			token: org.token,
			domain: org.domain,
			domain_handle: org.domain_handle,
			is_private_domain: org.is_private_domain,
			role,
		};
	});
	return {
		status: 200,
		body: { status_code: 200, message: 'Organizations fetched successfully', count: data.length, data },
	};
};
