/**
 * Every n8n a test starts runs in a process group of its own (n8n starts task-runner
 * children), and the whole group is stopped: on request, on a time limit, and when the
 * test process exits, also after a failure.
 */
import { ChildProcess, spawn, SpawnOptions } from 'child_process';
import { appendFileSync } from 'fs';

const running = new Set<ChildProcess>();

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
	if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
	try {
		process.kill(-child.pid, signal);
	} catch {
		// the group is gone already
	}
}

process.once('exit', () => {
	for (const child of running) killGroup(child, 'SIGKILL');
});
// A run stopped from outside (Ctrl-C, a CI time limit) takes its processes with it.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
	process.once(signal, () => {
		for (const child of running) killGroup(child, 'SIGKILL');
		process.exit(signal === 'SIGINT' ? 130 : 143);
	});
}

export function spawnGroup(command: string, args: string[], options: SpawnOptions): ChildProcess {
	const child = spawn(command, args, { ...options, detached: true });
	running.add(child);
	// A run that must prove it left nothing behind (test:queue) lists the groups it started.
	const groupsFile = process.env.UNPOD_PROCESS_GROUPS;
	if (groupsFile && child.pid !== undefined) appendFileSync(groupsFile, `${child.pid}\n`);
	child.once('exit', () => {
		running.delete(child);
		// Runner children may outlive their parent: the group goes with it.
		try {
			if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
		} catch {
			// nothing left
		}
	});
	return child;
}

/** `signal` (SIGTERM) to the group, SIGKILL after `graceMs`; resolves when the leader has exited. */
export async function stopGroup(
	child: ChildProcess,
	graceMs = 10_000,
	signal: NodeJS.Signals = 'SIGTERM',
): Promise<void> {
	if (child.exitCode !== null || child.signalCode !== null) return;
	const exited = new Promise((resolve) => child.once('exit', resolve));
	killGroup(child, signal);
	const timer = setTimeout(() => killGroup(child, 'SIGKILL'), graceMs);
	await exited;
	clearTimeout(timer);
}

/** Runs a command to its end (or `timeoutMs`, then its group is killed), collecting its output. */
export function runGroup(
	command: string,
	args: string[],
	options: SpawnOptions & { timeoutMs: number; graceMs?: number },
): Promise<{ exitCode: number; stdout: string; stderr: string }> {
	return new Promise((done) => {
		const child = spawnGroup(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
		const out: Buffer[] = [];
		const err: Buffer[] = [];
		child.stdout!.on('data', (d: Buffer) => out.push(d));
		child.stderr!.on('data', (d: Buffer) => err.push(d));
		const timer = setTimeout(() => void stopGroup(child, options.graceMs ?? 5_000), options.timeoutMs);
		// A command that cannot start (missing binary or working folder) ends here, not in a hang.
		child.once('error', (error) => {
			clearTimeout(timer);
			done({ exitCode: 127, stdout: '', stderr: `${command} could not start: ${error.message}` });
		});
		child.once('close', (code) => {
			clearTimeout(timer);
			done({
				exitCode: code ?? 1,
				stdout: Buffer.concat(out).toString('utf8'),
				stderr: Buffer.concat(err).toString('utf8'),
			});
		});
	});
}
