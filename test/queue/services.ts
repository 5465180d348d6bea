/**
 * Debian's Redis and PostgreSQL for queue mode, each on a free loopback port with its data
 * in a temp folder, stopped with their whole process group. `scripts/test-queue.js`
 * installs the packages when they are missing.
 */
import { execFileSync, SpawnOptions } from 'child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'fs';
import { connect } from 'net';
import { tmpdir } from 'os';
import { join } from 'path';
import { freePort } from '../../dev/harness/ports';
import { spawnGroup, stopGroup } from '../../dev/harness/processes';

export interface Service {
	port: number;
	log: string[];
	stop(): Promise<void>;
}

function start(command: string, args: string[], options: SpawnOptions = {}) {
	const log: string[] = [];
	const child = spawnGroup(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
	child.stdout!.on('data', (d: Buffer) => log.push(d.toString()));
	child.stderr!.on('data', (d: Buffer) => log.push(d.toString()));
	let failed: Error | undefined;
	child.once('error', (error) => (failed = error));
	return { child, log, failed: () => failed };
}

/** Resolves once `probe` succeeds; fails at once when the process is gone, or at `timeoutMs`. */
async function waitReady(
	what: string,
	started: ReturnType<typeof start>,
	probe: () => Promise<boolean>,
	timeoutMs = 60_000,
): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const error = started.failed();
		if (error) throw new Error(`${what} could not start: ${error.message}`);
		if (started.child.exitCode !== null)
			throw new Error(`${what} exited with ${started.child.exitCode}:\n${started.log.join('').slice(-2000)}`);
		if (await probe()) return;
		if (Date.now() > deadline) {
			await stopGroup(started.child, 0);
			throw new Error(`${what} did not become ready:\n${started.log.join('').slice(-2000)}`);
		}
		await new Promise((r) => setTimeout(r, 200));
	}
}

/** Sends `send` on a fresh connection; true when the answer contains `expect`. */
function talk(port: number, send: string, expect: string): Promise<boolean> {
	return new Promise((resolve) => {
		const socket = connect({ host: '127.0.0.1', port });
		let answer = '';
		const done = (ok: boolean) => {
			socket.destroy();
			resolve(ok);
		};
		socket.setTimeout(2000, () => done(false));
		socket.once('error', () => done(false));
		socket.once('connect', () => socket.write(send));
		socket.on('data', (d) => {
			answer += d.toString();
			if (answer.includes(expect)) done(true);
		});
	});
}

export async function startRedis(): Promise<Service> {
	const port = await freePort();
	const dir = mkdtempSync(join(tmpdir(), 'unpod-redis-'));
	const redis = start('redis-server', [
		'--port',
		String(port),
		'--bind',
		'127.0.0.1',
		'--dir',
		dir,
		'--save',
		'',
		'--appendonly',
		'no',
	]);
	await waitReady('redis-server', redis, () => talk(port, 'PING\r\n', '+PONG'));
	return {
		port,
		log: redis.log,
		async stop() {
			await stopGroup(redis.child, 5_000);
			rmSync(dir, { recursive: true, force: true });
		},
	};
}

/** The newest PostgreSQL server Debian installed (`/usr/lib/postgresql/<major>/bin`). */
export function postgresBin(): string {
	const base = '/usr/lib/postgresql';
	const majors = existsSync(base)
		? readdirSync(base)
				.filter((v) => existsSync(join(base, v, 'bin', 'postgres')))
				.sort((a, b) => Number(b) - Number(a))
		: [];
	if (!majors.length) throw new Error('PostgreSQL is not installed: run "npm run test:queue" (it installs it)');
	return join(base, majors[0], 'bin');
}

/** The `postgres` account when running as root: PostgreSQL refuses to run as root. */
function postgresUser(): { uid: number; gid: number } | undefined {
	if (process.getuid?.() !== 0) return undefined;
	const [uid, gid] = ['-u', '-g'].map((flag) => Number(execFileSync('id', [flag, 'postgres']).toString().trim()));
	return { uid, gid };
}

export async function startPostgres(): Promise<Service & { database: string }> {
	const bin = postgresBin();
	const port = await freePort();
	const dir = mkdtempSync(join(tmpdir(), 'unpod-postgres-'));
	const user = postgresUser();
	if (user) chownSync(dir, user.uid, user.gid);
	const as = user ? { uid: user.uid, gid: user.gid } : {};
	const data = join(dir, 'data');
	execFileSync(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync'], {
		...as,
		cwd: dir,
		stdio: 'pipe',
	});
	// Durability is not what these tests are about: a throwaway cluster, tuned for speed.
	const settings = ['listen_addresses=127.0.0.1', `unix_socket_directories=${dir}`, 'fsync=off'];
	settings.push('synchronous_commit=off', 'full_page_writes=off', 'max_connections=100');
	const postgres = start(
		join(bin, 'postgres'),
		['-D', data, '-p', String(port), ...settings.flatMap((s) => ['-c', s])],
		{
			...as,
			cwd: dir,
		},
	);
	const pgIsReady = async () => {
		try {
			execFileSync(join(bin, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres'], {
				stdio: 'ignore',
			});
			return true;
		} catch {
			return false;
		}
	};
	await waitReady('postgres', postgres, pgIsReady);
	const database = 'n8n';
	execFileSync(join(bin, 'createdb'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', database]);
	return {
		port,
		database,
		log: postgres.log,
		async stop() {
			// SIGINT is PostgreSQL's fast shutdown: clients are disconnected, no waiting for them.
			await stopGroup(postgres.child, 10_000, 'SIGINT');
			rmSync(dir, { recursive: true, force: true });
		},
	};
}
