/**
 * What the editor does through a real n8n process: the credential test and every picker (list
 * search through n8n's REST API), and where the credential goes from a Base URL on https (a
 * redirect to plain http on another port gets none of its headers); one `n8n start` for all.
 */
import { Engine } from '../../dev/harness/engine';
import type { N8n } from '../../dev/harness/n8n';
import { itemsOf } from '../../dev/harness/run-results';
import { chain, N8nNode } from '../../dev/harness/workflow-builders';
import { N8nServer } from '../../dev/harness/n8n-server';
import { bridgeRef, unpodNode } from '../helpers/nodes';
import { CREDENTIAL, credentialsFor, Harness, startProcessHarness } from '../helpers/setup';
import { SEED } from '../../dev/server/seed';
import { CREDENTIAL_HEADERS, OtherHost } from '../../dev/server/otherHost';
import { startServer, UnpodServer } from '../../dev/server/server';
import { makeCertificates, TestCertificates } from '../../dev/twins/tls';
import { spaceRef } from '../helpers/nodes';

const bridgeNode = (name: string, parameters: Record<string, unknown>): N8nNode =>
	unpodNode('bridge', name, parameters, { typeVersion: 1, executeOnce: true });

let h: Harness<N8n>;
let server: N8nServer;
/** Unpod on https (127.0.0.1, a CA of the run's own that n8n trusts), and a plain-http host elsewhere. */
let certificates: TestCertificates;
let secure: UnpodServer;
let other: OtherHost;
const SECURE = { unpodApi: { id: 'unpodSecure', name: 'Unpod (https)' } };
const secureNode = (type: 'task' | 'agent', name: string, parameters: Record<string, unknown>): N8nNode =>
	unpodNode(type, name, parameters, {
		typeVersion: 1,
		credentials: SECURE,
		onError: 'continueRegularOutput',
		...(type === 'agent' ? { executeOnce: true } : {}),
	});
const TLS_READS = chain('secureRedirects', [
	secureNode('task', 'Tasks', {
		operation: 'getAll',
		callsOf: 'space',
		space: spaceRef(SEED.secondSpaceToken),
		limit: 1,
	}),
	secureNode('task', 'Download', { operation: 'downloadRecording', recordingUrl: '={{ $json.recording_url }}' }),
	secureNode('agent', 'Agents', { operation: 'getAll', returnAll: true }),
]);

beforeAll(async () => {
	certificates = makeCertificates(['127.0.0.1']);
	secure = await startServer({ tls: { key: certificates.key, cert: certificates.cert } });
	other = await new OtherHost().start();
	const [call] = secure.calls.addTasks([{ name: 'Secure Sam', contact_number: '+4930555000901' }], {
		space: SEED.secondSpaceToken,
	});
	secure.store.finishTask(call, 'completed');
	const secureData = { ...credentialsFor(secure)[0].data };
	h = await startProcessHarness({}, undefined, [{ ...SECURE.unpodApi, type: 'unpodApi', data: secureData }], {
		NODE_EXTRA_CA_CERTS: certificates.caFile,
	});
	await h.n8n.importWorkflows([TLS_READS]);
	for (let i = 0; i < 120; i++) h.server.store.addBridge(SEED.orgHandle, { name: `Picker ${i}` });
	server = await N8nServer.start(h.n8n);
});

afterAll(async () => {
	await server?.stop();
	await h?.close();
	await secure?.stop();
	await other?.stop();
	certificates?.remove();
});

const redirectTo = (path: string, location: string) =>
	secure.faults.add({ kind: 'redirect', path, location, times: 1 });

test('a plain-http Base URL outside the own network fails the credential test, saying why', async () => {
	const result = await server.testCredential('unpodApi', data({ baseUrl: 'http://unpod.example' }));
	expect(result).toEqual({
		status: 'Error',
		message:
			'The Base URL of the Unpod credential uses plain http to unpod.example: the API token would travel unencrypted. Use https://, or plain http only to localhost or a private network address.',
	});
});

test("from https to plain http elsewhere: the credential test's redirect is not followed, nothing reaches the other host", async () => {
	other.requests = [];
	expect(await server.testCredential('unpodApi', data({ baseUrl: secure.url }))).toMatchObject({ status: 'OK' });
	redirectTo('/telephony/bridges/', other.url);
	const redirected = await server.testCredential('unpodApi', data({ baseUrl: secure.url }));
	expect(redirected.status).toBe('Error');
	expect(other.requests).toHaveLength(0);
});

test('from https to plain http elsewhere: an API read is not followed, a recording is fetched without the headers', async () => {
	other.requests = [];
	secure.resetTraffic();
	redirectTo('/recordings/', other.url);
	redirectTo('/agents/', other.url);
	const run = await server.runAndRead(TLS_READS.id, 'Start');
	expect(run.status).toBe('success');
	expect(itemsOf(run, 'Download')[0].binary?.data?.mimeType).toBe('audio/mpeg');
	expect(itemsOf(run, 'Agents')[0].json.error).toBe(
		`Unpod answered with a redirect (HTTP 302) to ${other.url}, which was not followed`,
	);
	// Unpod's own https host got the headers, the other host only the recording's plain request.
	const [recording] = secure.requests.filter((r) => r.path.startsWith('/recordings/'));
	expect([recording.status, recording.headers.authorization]).toEqual([302, `Token ${SEED.token}`]);
	expect(other.requests.map((r) => r.path)).toEqual([recording.path]);
	for (const header of CREDENTIAL_HEADERS)
		expect([header, other.requests[0].headers[header]]).toEqual([header, undefined]);
});

const data = (overrides: Record<string, string> = {}) => ({
	baseUrl: h.server.url,
	apiToken: SEED.token,
	orgHandle: SEED.orgHandle,
	productId: SEED.productId,
	...overrides,
});

test("n8n's HTTP Request node with the Unpod API credential: the headers at Unpod's origin only, no redirect followed", async () => {
	other.requests = [];
	h.server.resetTraffic();
	const httpRequest = (name: string, url: string): N8nNode => ({
		name,
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		parameters: { url, authentication: 'predefinedCredentialType', nodeCredentialType: 'unpodApi', options: {} },
		credentials: CREDENTIAL,
		onError: 'continueRegularOutput',
		executeOnce: true,
	});
	const platform = '/api/v2/platform';
	const workflow = chain('httpRequestUnpod', [
		httpRequest('At Unpod', `${h.server.url}${platform}/agents/`),
		httpRequest('Elsewhere', `${other.url}${platform}/agents/`),
		httpRequest('Redirected', `${h.server.url}${platform}/telephony/bridges/`),
	]);
	h.server.faults.add({ kind: 'redirect', path: '/telephony/bridges/', location: other.url, times: 1 });
	await h.n8n.importWorkflows([workflow]);
	const run = await server.runAndRead(workflow.id, 'Start');
	expect(itemsOf(run, 'At Unpod')[0].json.data.length).toBeGreaterThan(0);
	expect(itemsOf(run, 'Elsewhere')[0].json.error.message).toBe(
		`The Unpod credential is sent only to the origin of its Base URL (${h.server.url}), not to ${other.url}`,
	);
	// The redirect is the node's answer: a failure (3xx), not a request to the other host.
	expect(JSON.stringify(itemsOf(run, 'Redirected')[0].json.error)).toMatch(/302/);
	expect(h.server.requestsTo('GET', '/telephony/bridges/').map((r) => r.status)).toEqual([302]);
	expect(other.requests).toHaveLength(0);
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
	expect(found.results).toEqual([{ name: `Main Line (${SEED.bridgeSlug})`, value: SEED.bridgeSlug }]);
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
		{ name: 'Twilio', value: 'twilio' },
		{ name: 'Plivo', value: 'plivo' },
		{ name: 'Exotel', value: 'exotel' },
	]);
	const agents = await server.listSearch('n8n-nodes-unpod.unpodBridge', 'searchAgents', CREDENTIAL);
	expect(agents.results.map((a) => a.value)).toContain(SEED.agentHandle);
});

test("the provider credential picker lists the organization's credentials, and the one picked is what connect sends", async () => {
	const listed = await server.listSearch('n8n-nodes-unpod.unpodBridge', 'searchProviderCredentials', CREDENTIAL);
	expect(listed.results).toEqual([
		{ name: `twilio · ${SEED.activeAccountSid}`, value: String(SEED.activeCredentialId) },
		{ name: 'plivo · MA0local0plivo0legacy0', value: String(SEED.inactiveCredentialId) },
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
	// OpenAPI 2.0.0's answer names the bridge and the number connected.
	expect(itemsOf(result, 'Connect')[0].json).toMatchObject({
		bridge_slug: SEED.bridgeSlug,
		phone_number: SEED.agentNumber,
	});
});
