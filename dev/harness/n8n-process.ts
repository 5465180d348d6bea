/** Starting an n8n command as a process, and talking to its REST API while n8n is busy. */
import axios, { AxiosInstance } from 'axios';
import type { ChildProcess } from 'child_process';
import { appendFileSync } from 'fs';
import { join } from 'path';
import type { N8n } from './n8n';
import { RUNTIME } from './paths';
import { spawnGroup, stopGroup } from './processes';

export const OWNER = { email: 'owner@unpod.local', password: 'Unpod-test-1', firstName: 'Test', lastName: 'Owner' };

/**
 * Starts an n8n command (`start`, `worker`) on a user folder and waits until `readyUrl`
 * answers 200; fails at once when the process cannot start or exits.
 */
export async function spawnN8n(
	n8n: N8n,
	args: string[],
	readyUrl: string,
	deadline: number,
): Promise<{ child: ChildProcess; log: string[] }> {
	const log: string[] = [];
	const child = spawnGroup(join(RUNTIME, 'node_modules', '.bin', 'n8n'), args, {
		env: n8n.env,
		cwd: n8n.folder,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	// UNPOD_N8N_LOG=<file> keeps every line n8n prints there, for debugging a test.
	const keep = (d: Buffer) => {
		log.push(d.toString());
		if (process.env.UNPOD_N8N_LOG) appendFileSync(process.env.UNPOD_N8N_LOG, d);
	};
	child.stdout!.on('data', keep);
	child.stderr!.on('data', keep);
	let startError: Error | undefined;
	child.once('error', (error) => (startError = error));
	for (;;) {
		if (startError) throw new Error(`n8n ${args[0]} could not start: ${startError.message}`);
		if (child.exitCode !== null)
			throw new Error(`n8n ${args[0]} exited with ${child.exitCode}:\n${log.join('').slice(-3000)}`);
		try {
			const res = await axios.get(readyUrl, { validateStatus: () => true, timeout: 2000 });
			if (res.status === 200) return { child, log };
		} catch {
			// not listening yet
		}
		if (Date.now() > deadline) {
			await stopGroup(child, 0);
			throw new Error(`n8n ${args[0]} did not become ready:\n${log.join('').slice(-3000)}`);
		}
		await new Promise((r) => setTimeout(r, 250));
	}
}

/** How long a request is sent again while n8n's database is busy. */
export const DATABASE_BUSY_RETRY_MS = 30_000;

/** Whether n8n's answer is 2.41's "Database is not ready!" (see retryWhileDatabaseBusy). */
export const isDatabaseBusy = (status: number, body: string) => status === 503 && /Database is not ready/.test(body);

/**
 * n8n 2.41 answers every request 503 "Database is not ready!" while its periodic database check
 * is late (SQLite under load, seen in CI). That answer comes before any route runs, so sending
 * the same request again is safe, whatever its method; other answers pass through.
 */
export function retryWhileDatabaseBusy(rest: AxiosInstance, forMs = DATABASE_BUSY_RETRY_MS): void {
	rest.interceptors.response.use(async (res) => {
		const config = res.config as typeof res.config & { busySince?: number };
		if (!isDatabaseBusy(res.status, JSON.stringify(res.data))) return res;
		config.busySince ??= Date.now();
		if (Date.now() - config.busySince > forMs) return res;
		await new Promise((r) => setTimeout(r, 250));
		return rest.request(config);
	});
}
