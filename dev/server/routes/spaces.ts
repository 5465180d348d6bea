/** `spaces/` and `spaces/{token}/`: Org-Handle required; JWT-only in the February source. */
import { envelope, fail } from '../http';
import type { Org, Space } from '../types';
import { authenticate, platformOrg, Route } from './context';

export const spaceRoutes: Route = (ctx) => {
	const [a0, token] = ctx.parts;
	if (a0 !== 'spaces' || ctx.method !== 'GET' || ctx.parts.length > 2) return undefined;
	const user = authenticate(ctx, ctx.behaviour.spacesAuth === 'jwt');
	const org = platformOrg(ctx, user);
	if (ctx.parts.length === 1) {
		const data = [...ctx.store.spaces.values()]
			.filter((s) => s.org === org.domain_handle)
			.sort((x, y) => y.createdUs - x.createdUs)
			.map((s) => spaceRecord(s, org));
		return {
			status: 200,
			body: { status_code: 200, message: 'Spaces fetched successfully', count: data.length, data },
		};
	}
	const space = ctx.store.spaces.get(decodeURIComponent(token));
	if (!space || space.org !== org.domain_handle) return fail(404, { status_code: 404, message: 'Space not found' });
	const agents = space.agents
		.map((h) => ctx.store.agents.get(h))
		.filter(Boolean)
		.map((a) => ({ handle: a!.handle, name: a!.name }));
	return { status: 200, body: envelope(200, 'Space fetched successfully', { ...spaceRecord(space, org), agents }) };
};

function spaceRecord(space: Space, org: Org): Record<string, unknown> {
	return {
		name: space.name,
		slug: space.slug,
		token: space.token,
		description: space.description,
		logo: space.logo,
		privacy_type: space.privacy_type,
		space_type: space.space_type,
		content_type: space.content_type,
		organization: { name: org.name, domain_handle: org.domain_handle },
	};
}
