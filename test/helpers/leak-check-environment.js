/**
 * Jest's node environment, plus a check when a test file ends: whatever the file left open in
 * the worker (a process, a server, a socket, a timer that holds the event loop) fails that file,
 * by name. Left open, it keeps the worker alive after its last file, and Jest force-kills the
 * worker 500 ms later with only "A worker process has failed to exit gracefully" (and a process
 * group it started outlives it). Handles that are closing (an n8n that exited a moment ago)
 * are waited for, up to GRACE_MS.
 */
const { TestEnvironment } = require('jest-environment-node');

const GRACE_MS = 2000;

/** The worker's own handles: its standard streams and the channel to Jest. */
function isWorkers(handle) {
	if (handle === process.channel || handle === process.stdin) return true;
	if (handle === process.stdout || handle === process.stderr) return true;
	const fd = handle?._handle?.fd;
	if (typeof fd === 'number' && fd >= 0 && fd <= 2) return true;
	// The IPC pipe to the parent shows as a bare Pipe handle.
	if (handle?.constructor?.name === 'Pipe') return true;
	// A timer that does not hold the loop keeps nothing alive.
	if (typeof handle?.hasRef === 'function' && !handle.hasRef()) return true;
	return false;
}

/** What a handle is, in words a failing test can act on. */
function describeHandle(handle) {
	const kind = handle?.constructor?.name ?? typeof handle;
	try {
		if (kind === 'ChildProcess')
			return `a process (pid ${handle.pid}: ${(handle.spawnargs ?? []).join(' ').slice(0, 160)})`;
		if (kind === 'Server') {
			const address = handle.address();
			return `a server${address ? ` listening on ${address.address}:${address.port}` : ' (closing)'}`;
		}
		if (kind === 'Socket')
			return `a socket${handle.remotePort ? ` to ${handle.remoteAddress}:${handle.remotePort}` : ''}`;
		if (kind === 'Timeout') return `a ${handle._idleTimeout} ms timer (${String(handle._onTimeout).slice(0, 120)})`;
	} catch {
		// described by its kind alone
	}
	return kind;
}

/** The handles other than the worker's own; empty once the file left nothing behind. */
function leftOpen() {
	return process._getActiveHandles().filter((handle) => !isWorkers(handle));
}

class LeakCheckEnvironment extends TestEnvironment {
	constructor(config, context) {
		super(config, context);
		this.testPath = context.testPath;
		this.graceMs = config.projectConfig.testEnvironmentOptions?.leakGraceMs ?? GRACE_MS;
		// What was open before this file (an earlier file's leak is that file's to report).
		this.before = new Set(leftOpen());
	}

	async teardown() {
		await super.teardown();
		const deadline = Date.now() + this.graceMs;
		let open = leftOpen().filter((h) => !this.before.has(h));
		while (open.length && Date.now() < deadline) {
			await new Promise((resolve) => setTimeout(resolve, 10));
			open = leftOpen().filter((h) => !this.before.has(h));
		}
		if (open.length) {
			throw new Error(
				`${this.testPath} left ${open.length} open ${this.graceMs} ms after it ended: ` +
					`${open.map(describeHandle).join('; ')}. Stop it in an afterAll (and await it).`,
			);
		}
	}
}

module.exports = LeakCheckEnvironment;
