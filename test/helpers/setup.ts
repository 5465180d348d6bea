/** The usual pairing for end-to-end tests: a local Unpod server and an n8n whose credentials point at it. */
import { startServer, UnpodServer } from '../server/server';
import { SEED } from '../server/store';
import { N8n } from './n8n';

export const CREDENTIAL = { unpodApi: { id: 'unpodLocal', name: 'Unpod (local)' } };
export const BAD_TOKEN_CREDENTIAL = { unpodApi: { id: 'unpodBadToken', name: 'Unpod (wrong token)' } };
export const BAD_ORG_CREDENTIAL = { unpodApi: { id: 'unpodBadOrg', name: 'Unpod (unknown org)' } };

export interface Harness {
	server: UnpodServer;
	n8n: N8n;
	close(): Promise<void>;
}

export async function startHarness(options: Parameters<typeof startServer>[0] = {}): Promise<Harness> {
	const server = await startServer(options);
	const n8n = await N8n.create();
	const data = (overrides: Record<string, string> = {}) => ({
		baseUrl: server.url,
		apiToken: SEED.token,
		orgHandle: SEED.orgHandle,
		productId: SEED.productId,
		...overrides,
	});
	await n8n.importCredentials([
		{ ...CREDENTIAL.unpodApi, type: 'unpodApi', data: data() },
		{ ...BAD_TOKEN_CREDENTIAL.unpodApi, type: 'unpodApi', data: data({ apiToken: 'wrong-token' }) },
		{ ...BAD_ORG_CREDENTIAL.unpodApi, type: 'unpodApi', data: data({ orgHandle: 'no-such-org' }) },
	]);
	return {
		server,
		n8n,
		async close() {
			await server.stop();
			n8n.dispose();
		},
	};
}
