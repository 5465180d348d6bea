/**
 * What the editor does through a real n8n process: the credential test and every picker (list
 * search through n8n's REST API), one `n8n start` for all of them.
 */
import { Engine } from '../../dev/harness/engine';
import type { N8n } from '../../dev/harness/n8n';
import { itemsOf } from '../../dev/harness/run-results';
import { chain, N8nNode } from '../../dev/harness/workflow-builders';
import { N8nServer } from '../../dev/harness/n8n-server';
import { bridgeRef, unpodNode } from '../helpers/nodes';
import { CREDENTIAL, credentialsFor, Harness, startProcessHarness } from '../helpers/setup';
import { SEED } from '../../dev/server/seed';

const bridgeNode = (name: string, parameters: Record<string, unknown>): N8nNode =>
	unpodNode('bridge', name, parameters, { typeVersion: 1, executeOnce: true });

let h: Harness<N8n>;
let server: N8nServer;

beforeAll(async () => {
	h = await startProcessHarness();
	for (let i = 0; i < 120; i++) h.server.store.addBridge(SEED.orgHandle, { name: `Picker ${i}` });
	server = await N8nServer.start(h.n8n);
});

afterAll(async () => {
	await server?.stop();
	await h?.close();
});

const data = (overrides: Record<string, string> = {}) => ({
	baseUrl: h.server.url,
	apiToken: SEED.token,
	orgHandle: SEED.orgHandle,
	productId: SEED.productId,
	...overrides,
});

test('the credential test passes with the right token, organization and product ID', async () => {
	h.server.resetTraffic();
	expect(await server.testCredential('unpodApi', data())).toMatchObject({ status: 'OK' });
	const [request] = h.server.requests;
	expect(request).toMatchObject({ method: 'GET', path: '/api/v2/platform/telephony/bridges/' });
	expect(request.headers).toMatchObject({
		authorization: `Token ${SEED.token}`,
		'org-handle': 'acme',
		'product-id': 'unpod.dev',
	});
});

test('a wrong token fails the credential test with a message a person understands', async () => {
	const result = await server.testCredential('unpodApi', data({ apiToken: 'not-a-token' }));
	expect(result.status).toBe('Error');
	expect(result.message).toBe('Authorization failed - please check your credentials');
	expect(result.message).not.toContain('not-a-token');
});

test('a wrong organization handle fails the credential test and names the field to fix', async () => {
	const result = await server.testCredential('unpodApi', data({ orgHandle: 'nobody' }));
	expect(result).toEqual({
		status: 'Error',
		message: expect.stringMatching(/no organization with this Organization Handle/),
	});
});

test('an organization the token does not belong to fails the credential test (Unpod answers 206, never 403)', async () => {
	const result = await server.testCredential('unpodApi', data({ orgHandle: SEED.otherOrgHandle }));
	expect(result).toEqual({
		status: 'Error',
		message: expect.stringMatching(/no organization with this Organization Handle/),
	});
});

test('a trailing slash on the base URL is forgiven', async () => {
	expect(await server.testCredential('unpodApi', data({ baseUrl: `${h.server.url}/` }))).toMatchObject({
		status: 'OK',
	});
});

test('the bridge picker lists bridges page by page and searches', async () => {
	const first = await server.listSearch('n8n-nodes-unpod.unpodBridge', 'searchBridges', CREDENTIAL);
	expect(first.results).toHaveLength(100);
	expect(first.paginationToken).toBe('2');
	const second = await server.listSearch('n8n-nodes-unpod.unpodBridge', 'searchBridges', CREDENTIAL, {
		paginationToken: '2',
	});
	expect(second.results).toHaveLength(22);
	expect(second.paginationToken).toBeUndefined();
	const found = await server.listSearch('n8n-nodes-unpod.unpodBridge', 'searchBridges', CREDENTIAL, { filter: 'main' });
	expect(found.results).toEqual([{ name: 'Main Line (ACTIVE)', value: SEED.bridgeSlug }]);
});

test('the Space and Agent pickers list and search', async () => {
	const spaces = await server.listSearch('n8n-nodes-unpod.unpodTask', 'searchSpaces', CREDENTIAL);
	expect(spaces.results).toEqual([
		{ name: 'Renewals', value: SEED.secondSpaceToken },
		{ name: 'Outbound Leads', value: SEED.spaceToken },
	]);
	const agents = await server.listSearch('n8n-nodes-unpod.unpodAgent', 'searchAgents', CREDENTIAL, {
		filter: 'support',
	});
	expect(agents.results).toEqual([{ name: 'Support Bot (support-bot)', value: SEED.secondAgentHandle }]);
});

test('the Number picker lists the numbers of the picked bridge', async () => {
	const found = await server.listSearch('n8n-nodes-unpod.unpodBridge', 'searchBridgeNumbers', CREDENTIAL, {
		parameters: {
			resource: 'providerConnection',
			operation: 'connectProvider',
			bridge: { __rl: true, mode: 'slug', value: SEED.bridgeSlug },
		},
	});
	expect(found.results).toEqual([
		{ name: '+14155550100 (ASSIGNED)', value: String(SEED.numberId) },
		{ name: '+14155550199 (RELEASED)', value: String(SEED.releasedNumberId) },
	]);
});

test("the provider picker lists Unpod's catalogue, and the agent picker serves the Bridge node too", async () => {
	const providers = await server.listSearch('n8n-nodes-unpod.unpodBridge', 'searchProviders', CREDENTIAL);
	expect(providers.results).toEqual([
		{ name: 'Twilio', value: '1' },
		{ name: 'Plivo', value: '2' },
		{ name: 'Exotel', value: '3' },
	]);
	const agents = await server.listSearch('n8n-nodes-unpod.unpodBridge', 'searchAgents', CREDENTIAL);
	expect(agents.results.map((a) => a.value)).toContain(SEED.agentHandle);
});

test("the provider credential picker lists the organization's credentials, and the one picked is what connect sends", async () => {
	const listed = await server.listSearch('n8n-nodes-unpod.unpodBridge', 'searchProviderCredentials', CREDENTIAL);
	expect(listed.results).toEqual([
		{ name: 'Twilio Main (Twilio)', value: String(SEED.activeCredentialId) },
		{ name: 'Plivo Legacy (Plivo, inactive)', value: String(SEED.inactiveCredentialId) },
	]);
	const searched = await server.listSearch('n8n-nodes-unpod.unpodBridge', 'searchProviderCredentials', CREDENTIAL, {
		filter: 'plivo',
	});
	expect(searched.results.map((r) => r.value)).toEqual([String(SEED.inactiveCredentialId)]);
	// The keys Unpod lists beside each credential stay out of the editor.
	for (const secret of SEED.providerSecrets) expect(JSON.stringify(listed)).not.toContain(secret);

	const picked = listed.results[0].value;
	const connect = chain('telephonyConnect', [
		bridgeNode('Connect', {
			resource: 'providerConnection',
			operation: 'connectProvider',
			bridge: bridgeRef(SEED.bridgeSlug),
			number: { __rl: true, mode: 'list', value: String(SEED.numberId) },
			providerCredential: { __rl: true, mode: 'list', value: picked },
		}),
		bridgeNode('Disconnect', {
			resource: 'providerConnection',
			operation: 'disconnectProvider',
			bridge: bridgeRef(SEED.bridgeSlug),
			number: { __rl: true, mode: 'id', value: String(SEED.numberId) },
			providerCredential: { __rl: true, mode: 'id', value: picked },
		}),
	]);
	// The picked value, run where node logic runs: n8n's engine in this process.
	const engine = new Engine();
	await engine.importCredentials(credentialsFor(h.server));
	h.server.resetTraffic();
	const result = await engine.run(connect);
	engine.dispose();
	expect(result.exitCode).toBe(0);
	const bodies = h.server.requests.filter((r) => r.method === 'POST').map((r) => [r.path.split('/').at(-2), r.body]);
	const both = {
		number_id: SEED.numberId,
		phone_number: SEED.agentNumber,
		provider_credential_id: SEED.activeCredentialId,
		provider_config_id: SEED.activeCredentialId,
	};
	expect(bodies).toEqual([
		['connect-provider', both],
		['disconnect-provider', both],
	]);
	expect(itemsOf(result, 'Connect')[0].json).toMatchObject({
		number_id: SEED.numberId,
		provider_details: { id: SEED.activeCredentialId },
	});
});
