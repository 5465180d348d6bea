/**
 * Every n8n a test starts runs in a process group of its own (n8n starts task-runner
 * children), and the whole group is stopped: on request, on a time limit, and when the
 * test process exits, also after a failure.
 */
import { ChildProcess, spawn, SpawnOptions } from 'child_process';
import { appendFileSync, closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { basename, join } from 'path';

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
// A run stopped from outside (Ctrl-C, a CI time limit) takes its processes with it. A program
// with a handler of its own (the demo removes n8n's folder and says so) then ends the run itself.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
	process.once(signal, () => {
		for (const child of running) killGroup(child, 'SIGKILL');
		if (process.listenerCount(signal) === 0) process.exit(signal === 'SIGINT' ? 130 : 143);
	});
}

/**
 * Each n8n process a test starts is one line of UNPOD_N8N_STARTS, a file the test scripts
 * create and count: n8n's start-up is most of an end-to-end test's time.
 */
function countN8nStart(command: string, args: string[]): void {
	const file = process.env.UNPOD_N8N_STARTS;
	if (file && basename(command) === 'n8n') appendFileSync(file, `${args[0] ?? ''}\n`);
}

export function spawnGroup(command: string, args: string[], options: SpawnOptions): ChildProcess {
	countN8nStart(command, args);
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

/**
 * Runs a command to its end (or `timeoutMs`, then its group is killed), collecting its output.
 * The output goes to files, not pipes: n8n exits right after printing a run, and a large run
 * printed to a pipe was cut short (on Linux, Node writes to pipes asynchronously and `process.exit`
 * drops what is still queued; writes to files are synchronous).
 */
export function runGroup(
	command: string,
	args: string[],
	options: SpawnOptions & { timeoutMs: number; graceMs?: number },
): Promise<{ exitCode: number; stdout: string; stderr: string }> {
	return new Promise((done) => {
		const dir = mkdtempSync(join(tmpdir(), 'unpod-run-'));
		const files = { stdout: join(dir, 'stdout'), stderr: join(dir, 'stderr') };
		const outFd = openSync(files.stdout, 'w');
		const errFd = openSync(files.stderr, 'w');
		let finished = false;
		// 'error' (could not start) may be followed by 'close': the first one answers.
		const finish = (result: { exitCode: number; stdout?: string; stderr?: string }) => {
			if (finished) return;
			finished = true;
			clearTimeout(timer);
			const read = (file: string) => readFileSync(file, 'utf8');
			done({
				exitCode: result.exitCode,
				stdout: result.stdout ?? read(files.stdout),
				stderr: result.stderr ?? read(files.stderr),
			});
			rmSync(dir, { recursive: true, force: true });
		};
		let child: ChildProcess;
		try {
			child = spawnGroup(command, args, { ...options, stdio: ['ignore', outFd, errFd] });
		} catch (error) {
			rmSync(dir, { recursive: true, force: true });
			throw error;
		} finally {
			// The child holds its own copies.
			closeSync(outFd);
			closeSync(errFd);
		}
		const timer = setTimeout(() => void stopGroup(child, options.graceMs ?? 5_000), options.timeoutMs);
		// A command that cannot start (missing binary or working folder) ends here, not in a hang.
		child.once('error', (error) =>
			finish({ exitCode: 127, stdout: '', stderr: `${command} could not start: ${error.message}` }),
		);
		child.once('close', (code) => finish({ exitCode: code ?? 1 }));
	});
}
