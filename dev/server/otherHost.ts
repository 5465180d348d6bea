/**
 * Another host than Unpod's, where a redirect may lead: a storage host, or anyone. It records
 * every request with its headers, so tests can see that no credential reached it, and answers
 * a recording's bytes, or an empty list.
 */
import { createServer } from 'http';
import type { Server } from 'http';
import type { AddressInfo } from 'net';
import { headersOf, send } from './http';
import type { RecordedRequest } from './http';
import { RECORDING } from './recordings';

/** The headers the Unpod API credential adds, as a server reads their names. */
export const CREDENTIAL_HEADERS = ['authorization', 'org-handle', 'product-id'];

export class OtherHost {
	requests: RecordedRequest[] = [];
	private server?: Server;
	port = 0;

	get url(): string {
		return `http://127.0.0.1:${this.port}`;
	}

	async start(): Promise<this> {
		this.server = createServer((req, res) => {
			const url = new URL(req.url ?? '/', this.url);
			const record: RecordedRequest = {
				method: req.method ?? 'GET',
				path: url.pathname,
				query: Object.fromEntries(url.searchParams),
				headers: headersOf(req),
				body: undefined,
				status: 200,
				at: Date.now(),
			};
			this.requests.push(record);
			req.resume();
			if (url.pathname.endsWith('.mp3')) {
				res.writeHead(200, { 'Content-Type': 'audio/mpeg', 'Content-Length': RECORDING.length });
				res.end(RECORDING);
			} else send(res, 200, { status_code: 200, message: 'OK', count: 0, data: [] });
		});
		this.server.keepAliveTimeout = 1000;
		await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
		this.port = (this.server.address() as AddressInfo).port;
		return this;
	}

	async stop(): Promise<void> {
		if (!this.server) return;
		this.server.closeAllConnections();
		await new Promise<void>((resolve) => this.server!.close(() => resolve()));
		this.server = undefined;
	}
}
