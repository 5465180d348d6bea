/** Free ports for the processes tests start (n8n, its task runner broker, vendor twins). */
import { createServer } from 'net';

/** Ports handed out by this process. */
const handedOut = new Set<number>();

/**
 * Each jest worker (and a process outside jest) takes ports from its own block, below the
 * ephemeral range the OS hands out for port 0: a port probed free here cannot be handed to
 * another worker's n8n, or to a server listening on port 0, before n8n binds it. (Ports the
 * OS picked once clashed: two workers were given the same one.) Test runs side by side
 * (test:compat's runtimes, queue mode) each take a slot of blocks of their own (UNPOD_PORT_SLOT,
 * 0 to 2): ports 10000 to 24999, below the OS's ephemeral range (32768 and up).
 */
const PORT_BLOCK = 1000;
const PORT_BASE = 10000 + (Number(process.env.UNPOD_PORT_SLOT ?? 0) % 3) * 5 * PORT_BLOCK;

const isFree = (port: number) =>
	new Promise<boolean>((resolvePort) => {
		const server = createServer();
		server.once('error', () => resolvePort(false));
		server.listen(port, '127.0.0.1', () => server.close(() => resolvePort(true)));
	});

/** A port nothing listens on, never the same twice in this process (n8n needs two at once). */
export async function freePort(): Promise<number> {
	const worker = Number(process.env.JEST_WORKER_ID ?? 0) % 5;
	const start = PORT_BASE + worker * PORT_BLOCK;
	const offset = Math.floor(Math.random() * PORT_BLOCK);
	for (let i = 0; i < PORT_BLOCK; i++) {
		const port = start + ((offset + i) % PORT_BLOCK);
		if (handedOut.has(port) || !(await isFree(port))) continue;
		handedOut.add(port);
		return port;
	}
	throw new Error(`No free port in ${start}-${start + PORT_BLOCK - 1}`);
}
