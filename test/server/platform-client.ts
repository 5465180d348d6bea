/** The local Unpod server's platform API as a client with the seed's credential speaks to it, for the server's own tests. */
import axios from 'axios';
import { SEED } from '../../dev/server/seed';
import type { UnpodServer } from '../../dev/server/server';

export const platformApi = (server: UnpodServer) =>
	axios.create({
		baseURL: `${server.url}/api/v2/platform`,
		headers: { Authorization: `Token ${SEED.token}`, 'Org-Handle': SEED.orgHandle, 'Product-ID': SEED.productId },
		validateStatus: () => true,
	});

/** One create request in the seed space, Ann called by the seed agent unless `body` says otherwise. */
export const createTasks = (server: UnpodServer, body: Record<string, unknown>, path = 'tasks/') =>
	platformApi(server).post(`/spaces/${SEED.spaceToken}/${path}`, {
		pilot: SEED.agentHandle,
		context: 'Say hello',
		documents: [{ name: 'Ann', contact_number: '+14155550100' }],
		...body,
	});
