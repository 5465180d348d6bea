/** Where the user's secrets may go, decided on addresses: the credential's origin, plain http, internal hosts, redirects. */
import type { IHttpRequestOptions } from 'n8n-workflow';
import { UnpodApi } from '../../../credentials/UnpodApi.credentials';
import {
	atOrigin,
	baseUrlProblem,
	downloadProblem,
	isInternalHost,
	redirectTarget,
} from '../../../nodes/shared/addresses';

const hostOf = (url: string) => new URL(url).hostname;

test('internal hosts: localhost, loopback, private, link-local and unspecified, however the address is written', () => {
	for (const url of [
		'http://localhost/',
		'http://LOCALHOST./',
		'http://api.localhost/',
		'http://127.0.0.1/',
		'http://127.9.9.9/',
		// The URL parser reads these as 127.0.0.1: a check on the text would miss them.
		'http://2130706433/',
		'http://0x7f.1/',
		'http://017700000001/',
		'http://0.0.0.0/',
		'http://10.1.2.3/',
		'http://172.16.0.1/',
		'http://172.31.255.255/',
		'http://192.168.1.10/',
		'http://100.64.0.1/',
		'http://169.254.169.254/',
		'http://[::1]/',
		'http://[::]/',
		'http://[fd00::1]/',
		'http://[fc12:3456::1]/',
		'http://[fe80::1]/',
		'http://[::ffff:127.0.0.1]/',
		'http://[::ffff:a9fe:a9fe]/',
		'http://[64:ff9b::10.0.0.1]/',
		// IPv4-compatible (::/96), NAT64's local-use /48, 6to4 and Teredo carry an internal IPv4 address.
		'http://[::7f00:1]/',
		'http://[::10.0.0.1]/',
		'http://[64:ff9b:1::a00:1]/',
		'http://[64:ff9b:1:ffff::8.8.8.8]/',
		'http://[2002:7f00:1::1]/',
		'http://[2002:c0a8:101::]/',
		'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/',
	])
		expect([url, isInternalHost(hostOf(url))]).toEqual([url, true]);
	for (const url of [
		'https://unpod.ai/',
		'https://storage.googleapis.com/',
		'http://8.8.8.8/',
		'http://172.32.0.1/',
		'http://172.15.255.255/',
		'http://100.128.0.1/',
		'http://192.169.0.1/',
		'http://169.255.0.1/',
		'http://[2001:db8::1]/',
		'http://[::ffff:8.8.8.8]/',
		'http://[::808:808]/',
		'http://[64:ff9b:2::a00:1]/',
		'http://[2002:808:808::1]/',
		'http://[2001:0:4136:e378:8000:63bf:f7f7:f7f7]/',
		'http://[2001:db8:7f00:1::]/',
		'http://localhost.example.com/',
		'http://127.0.0.1.nip.example/',
	])
		expect([url, isInternalHost(hostOf(url))]).toEqual([url, false]);
});

test('the Base URL: https anywhere, plain http only to this machine or a private network, nothing else', () => {
	for (const ok of [
		'https://unpod.ai',
		'https://unpod.ai/',
		'http://127.0.0.1:8080',
		'http://10.0.0.5',
		'http://localhost:3000',
	])
		expect([ok, baseUrlProblem(ok)]).toEqual([ok, undefined]);
	expect(baseUrlProblem('http://unpod.ai')).toBe(
		'The Base URL of the Unpod credential uses plain http to unpod.ai: the API token would travel unencrypted. Use https://, or plain http only to localhost or a private network address.',
	);
	expect(baseUrlProblem('http://203.0.113.9:8000')).toMatch(/plain http to 203\.0\.113\.9:8000/);
	expect(baseUrlProblem('unpod.ai')).toMatch(/not an http\(s\) address/);
	expect(baseUrlProblem('ftp://unpod.ai')).toMatch(/not an http\(s\) address/);
	expect(baseUrlProblem('')).toMatch(/not an http\(s\) address/);
});

test("the credential's headers go only to its own origin: scheme, host and port", () => {
	const base = 'https://unpod.ai';
	expect(atOrigin('https://unpod.ai/media/rec.mp3', base)).toBe(true);
	expect(atOrigin('https://unpod.ai:443/media/rec.mp3', base)).toBe(true);
	expect(atOrigin('https://UNPOD.ai/media/rec.mp3', `${base}/`)).toBe(true);
	// URL.host drops default ports: these compared equal by host, and got the token.
	expect(atOrigin('http://unpod.ai/media/rec.mp3', base)).toBe(false);
	expect(atOrigin('http://unpod.ai:443/media/rec.mp3', base)).toBe(false);
	expect(atOrigin('https://unpod.ai:8443/media/rec.mp3', base)).toBe(false);
	expect(atOrigin('https://storage.unpod.ai/rec.mp3', base)).toBe(false);
	expect(atOrigin('https://unpod.ai.evil.example/rec.mp3', base)).toBe(false);
	expect(atOrigin('not a url', base)).toBe(false);
	expect(atOrigin('https://unpod.ai/rec.mp3', '')).toBe(false);
});

test('a recording on an internal address is fetched only for a credential that is itself internal', () => {
	const publicBase = 'https://unpod.ai';
	expect(downloadProblem('https://storage.example.com/rec.mp3', publicBase)).toBeUndefined();
	expect(downloadProblem('https://unpod.ai/media/rec.mp3', publicBase)).toBeUndefined();
	expect(downloadProblem('http://169.254.169.254/latest/meta-data/', publicBase)).toBe(
		"The recording URL points at 169.254.169.254, an address on this machine or a private network: refused, as recordings live on Unpod's or a storage host's public address",
	);
	for (const url of [
		'http://localhost:5678/rest/credentials',
		'http://[::1]/',
		'http://10.0.0.8/x',
		'http://2130706433/',
	])
		expect([url, downloadProblem(url, publicBase)]).toEqual([url, expect.stringMatching(/private network: refused/)]);
	expect(downloadProblem('file:///etc/passwd', publicBase)).toBe(
		'The recording URL "file:///etc/passwd" is not an http(s) address',
	);
	// The local server, a private deployment: its recordings are on internal addresses.
	expect(downloadProblem('http://127.0.0.1:4010/recordings/T1.mp3', 'http://127.0.0.1:4010')).toBeUndefined();
	expect(downloadProblem('http://10.0.0.9/rec.mp3', 'http://10.0.0.5:8000')).toBeUndefined();
});

test("a redirect's target, relative or absolute; nothing for a missing Location", () => {
	const from = 'https://unpod.ai/api/v2/platform/agents/';
	expect(redirectTarget('/api/v2/platform/agents/?page=1', from)).toBe(
		'https://unpod.ai/api/v2/platform/agents/?page=1',
	);
	expect(redirectTarget('https://cdn.example.com/x', from)).toBe('https://cdn.example.com/x');
	expect(redirectTarget('//evil.example/x', from)).toBe('https://evil.example/x');
	expect(redirectTarget(undefined, from)).toBeUndefined();
	expect(redirectTarget('  ', from)).toBeUndefined();
});

describe("the credential's authenticate: the three headers, only at home, no redirect followed", () => {
	const credentials = {
		baseUrl: 'https://unpod.ai/',
		apiToken: 'tok-123',
		orgHandle: 'acme',
		productId: 'unpod.dev',
	};
	const authenticate = (request: IHttpRequestOptions, data: Record<string, string> = credentials) =>
		new UnpodApi().authenticate(data, request);

	test('a request at the Base URL gets the headers and n8n does not follow its redirects', async () => {
		const request = await authenticate({ url: '/telephony/bridges/', baseURL: 'https://unpod.ai/api/v2/platform' });
		expect(request).toMatchObject({
			headers: { Authorization: 'Token tok-123', 'Org-Handle': 'acme', 'Product-ID': 'unpod.dev' },
			disableFollowRedirect: true,
			sendCredentialsOnCrossOriginRedirect: false,
		});
		expect((await authenticate({ url: 'https://unpod.ai/api/v2/platform/agents/' })).headers).toHaveProperty(
			'Authorization',
		);
		// n8n's HTTP Request node names the address `uri` and follows redirects unless told not to.
		const legacy = await authenticate({ uri: 'https://unpod.ai/api/v2/platform/agents/' } as never);
		expect(legacy).toMatchObject({ headers: { Authorization: 'Token tok-123' }, followRedirect: false });
	});

	test('a request anywhere else is refused, the token in no message', async () => {
		for (const url of ['https://storage.example.com/rec.mp3', 'http://unpod.ai/api/', 'https://unpod.ai:8443/api/'])
			await expect(authenticate({ url })).rejects.toThrow(
				/^The Unpod credential is sent only to the origin of its Base URL \(https:\/\/unpod\.ai\), not to /,
			);
		// Protocol-relative: n8n's HTTP client takes `//host/path` as another host, not a path under the Base URL.
		for (const request of [
			{ url: '//storage.example.com/rec.mp3', baseURL: 'https://unpod.ai/api/v2/platform' },
			{ url: '//storage.example.com/rec.mp3' },
			{ uri: '//storage.example.com/rec.mp3', baseURL: 'https://unpod.ai' },
		])
			await expect(authenticate(request as IHttpRequestOptions)).rejects.toThrow(
				/^The Unpod credential is sent only to the origin of its Base URL \(https:\/\/unpod\.ai\), not to /,
			);
	});

	test("a plain-http Base URL outside one's own network is refused, for the Test and every node", async () => {
		const clear = { ...credentials, baseUrl: 'http://unpod.ai' };
		await expect(authenticate({ url: 'http://unpod.ai/api/v2/platform/agents/' }, clear)).rejects.toThrow(
			/plain http to unpod\.ai: the API token would travel unencrypted/,
		);
		const local = { ...credentials, baseUrl: 'http://127.0.0.1:4010' };
		expect((await authenticate({ url: 'http://127.0.0.1:4010/api/v2/platform/agents/' }, local)).headers).toMatchObject(
			{
				Authorization: 'Token tok-123',
			},
		);
	});
});
