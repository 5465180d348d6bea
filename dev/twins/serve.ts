/**
 * Serves vendor twins the way n8n reaches the vendors behind a company proxy: an HTTP proxy
 * (HTTPS_PROXY) whose CONNECT tunnels to a vendor's host end in TLS with a certificate of the
 * test's own CA, then in that vendor's twin. A CONNECT to any other host is refused and
 * recorded, so a test can say nothing left the machine. Each twin also listens on plain HTTP
 * on loopback, for the vendor's SDK to read it.
 */
import { createServer, IncomingMessage, Server, ServerResponse } from 'http';
import type { AddressInfo, Socket } from 'net';
import { TLSSocket } from 'tls';
import { parseJson, readBody, send } from '../server/http';
import { makeCertificates, type TestCertificates } from './tls';
import type { Twin, TwinRequest } from './twin';

export interface RunningTwins {
	/** For n8n's HTTPS_PROXY. */
	proxyUrl: string;
	/** For n8n's NODE_EXTRA_CA_CERTS. */
	caFile: string;
	/** Each twin's plain-HTTP address, by name. */
	urls: Record<string, string>;
	/** Hosts a CONNECT asked for that no twin serves (refused). */
	refused: string[];
	/** The environment n8n needs to reach the twins through the proxy, and Unpod's local server directly. */
	env(): Record<string, string>;
	stop(): Promise<void>;
}

function handler(pick: (req: IncomingMessage) => Twin | undefined) {
	return async (req: IncomingMessage, res: ServerResponse) => {
		const twin = pick(req);
		const url = new URL(req.url ?? '/', 'http://twin');
		const body = parseJson(await readBody(req));
		if (!twin) return send(res, 421, { message: `No twin serves ${req.headers.host}` });
		const request: TwinRequest = {
			method: req.method ?? 'GET',
			path: url.pathname,
			query: url.searchParams,
			headers: req.headers,
			body,
		};
		const reply = twin.handle(request);
		send(res, reply.status, reply.body, reply.headers);
	};
}

const listen = (server: Server) =>
	new Promise<number>((resolve) =>
		server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
	);

export async function startTwins(twins: Twin[]): Promise<RunningTwins> {
	const byHost = new Map(twins.flatMap((t) => t.hosts.map((h) => [h, t] as const)));
	const certificates: TestCertificates = makeCertificates([...byHost.keys()]);
	const sockets = new Set<Socket>();
	const track = (socket: Socket) => {
		sockets.add(socket);
		socket.once('close', () => sockets.delete(socket));
	};
	const refused: string[] = [];

	// The vendors' side of the tunnels: HTTP over the TLS sockets the proxy hands it.
	const vendors = createServer(handler((req) => byHost.get(String(req.headers.host ?? '').replace(/:\d+$/, ''))));
	const proxy = createServer((req, res) => {
		// Plain-HTTP proxying: n8n sends Unpod's local server past the proxy (NO_PROXY), so nothing should come.
		refused.push(String(req.headers.host));
		res.writeHead(403).end();
	});
	proxy.on('connection', track);
	proxy.on('connect', (req: IncomingMessage, socket: Socket) => {
		const host = String(req.url ?? '').replace(/:\d+$/, '');
		if (!byHost.has(host)) {
			refused.push(host);
			socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
			return;
		}
		socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
		const tls = new TLSSocket(socket, { isServer: true, key: certificates.key, cert: certificates.cert });
		tls.on('error', () => socket.destroy());
		vendors.emit('connection', tls);
	});
	const direct = twins.map((twin) => createServer(handler(() => twin)));
	for (const server of direct) server.on('connection', track);
	const proxyPort = await listen(proxy);
	const ports = await Promise.all(direct.map(listen));
	const proxyUrl = `http://127.0.0.1:${proxyPort}`;
	return {
		proxyUrl,
		caFile: certificates.caFile,
		urls: Object.fromEntries(twins.map((t, i) => [t.name, `http://127.0.0.1:${ports[i]}`])),
		refused,
		env: () => ({
			HTTPS_PROXY: proxyUrl,
			HTTP_PROXY: proxyUrl,
			NO_PROXY: '127.0.0.1,localhost',
			NODE_EXTRA_CA_CERTS: certificates.caFile,
		}),
		async stop() {
			for (const socket of sockets) socket.destroy();
			await Promise.all([proxy, vendors, ...direct].map((s) => new Promise((r) => s.close(() => r(undefined)))));
			certificates.remove();
		},
	};
}
