import { N8nServer } from '../helpers/n8n-server';
import { CREDENTIAL, Harness, startHarness } from '../helpers/setup';
import { SEED } from '../../dev/server/seed';

let h: Harness;
let server: N8nServer;

beforeAll(async () => {
	h = await startHarness();
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
