/**
 * Jest's node environment, plus a check when a test file ends: whatever the file left open in
 * the worker (a process, a server, a socket, a timer that holds the event loop) fails that file,
 * by name. Left open, it keeps the worker alive after its last file, and Jest force-kills the
 * worker 500 ms later with only "A worker process has failed to exit gracefully" (and a process
 * group it started outlives it). Handles that are closing (an n8n that exited a moment ago)
 * are waited for, up to GRACE_MS.
 *
 * Timers are not among Node's active handles (`process._getActiveHandles()` has none since
 * Node 11): they are counted from `process.getActiveResourcesInfo()`, which lists only timers
 * that hold the loop, and named by an async hook only when UNPOD_LEAK_TIMERS=1 asks for it (the
 * hook sees every promise, and slows every test).
 */
const { createHook } = require('async_hooks');
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

/** How many timers hold the worker's event loop. */
const timersHolding = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;

/** The timers created since `start()` that still hold the loop, when asked to name them. */
class TimerWatch {
	constructor() {
		this.timers = new Map();
		this.hook = createHook({
			init: (id, type, _trigger, resource) => {
				if (type === 'Timeout') this.timers.set(id, resource);
			},
			destroy: (id) => this.timers.delete(id),
		});
	}

	start() {
		this.hook.enable();
	}

	holding() {
		return [...this.timers.values()].filter((timer) => !timer._destroyed && timer.hasRef());
	}

	stop() {
		this.hook.disable();
	}
}

/**
 * After its last file a worker must end by itself: Jest sends it its end message and force-kills
 * it 500 ms later with only "A worker process has failed to exit gracefully". A worker that ran
 * the engine files emits 'exit' at once, then takes 470 to 540 ms to end (measured: Node tearing
 * down its large heap), so once Jest's own end handler is done (its 'message' listener gone) the
 * worker ends with process.exit, which skips that teardown. Each file's leaks are its own check's
 * (above); should anything still hold the worker then, it says so on stderr first, so that the
 * warning, should it come, comes with its cause.
 */
function watchWorkerExit() {
	if (!process.send || process.env.JEST_WORKER_ID === undefined || global.__unpodExitWatch) return;
	global.__unpodExitWatch = true;
	// jest-worker's CHILD_MESSAGE_END (29.x), which it does not export.
	const CHILD_MESSAGE_END = 2;
	const say = (what) => process.stderr.write(`Jest worker ${process.pid} ${what}\n`);
	const heldBy = () => {
		const handles = leftOpen().map(describeHandle).join('; ');
		return `${process.getActiveResourcesInfo().join(', ')}${handles ? ` (${handles})` : ''}`;
	};
	const onMessage = (message) => {
		if (!Array.isArray(message) || message[0] !== CHILD_MESSAGE_END) return;
		// A 'message' listener holds the channel to Jest open: it goes at once.
		process.removeListener('message', onMessage);
		const deadline = Date.now() + 200;
		const exitWhenJestIsDone = () => {
			if (process.listenerCount('message') > 0 && Date.now() < deadline) return setImmediate(exitWhenJestIsDone);
			if (leftOpen().length || timersHolding()) say(`ends with its last file done, still holding: ${heldBy()}`);
			process.exit(0);
		};
		setImmediate(exitWhenJestIsDone);
	};
	process.on('message', onMessage);
}

watchWorkerExit();

class LeakCheckEnvironment extends TestEnvironment {
	constructor(config, context) {
		super(config, context);
		this.testPath = context.testPath;
		this.graceMs = config.projectConfig.testEnvironmentOptions?.leakGraceMs ?? GRACE_MS;
		// What was open before this file (an earlier file's leak is that file's to report).
		this.before = new Set(leftOpen());
		this.timersBefore = timersHolding();
		this.timerWatch = process.env.UNPOD_LEAK_TIMERS === '1' ? new TimerWatch() : undefined;
		this.timerWatch?.start();
		// What the file made to be removed when it ends, loaded or not (dev/harness/poll-env.ts).
		this.global.__removeAtTeardown = [];
	}

	async teardown() {
		for (const remove of this.global.__removeAtTeardown ?? []) remove();
		await super.teardown();
		const deadline = Date.now() + this.graceMs;
		const timers = () => Math.max(0, timersHolding() - this.timersBefore);
		let open = leftOpen().filter((h) => !this.before.has(h));
		while ((open.length || timers()) && Date.now() < deadline) {
			await new Promise((resolve) => setTimeout(resolve, 10));
			open = leftOpen().filter((h) => !this.before.has(h));
		}
		const named = this.timerWatch?.holding() ?? [];
		this.timerWatch?.stop();
		const unnamed = named.length ? 0 : timers();
		const left = [...open, ...named].map(describeHandle);
		if (unnamed) left.push(`${unnamed} timer${unnamed > 1 ? 's' : ''} (UNPOD_LEAK_TIMERS=1 names them)`);
		if (left.length) {
			throw new Error(
				`${this.testPath} left ${open.length + (named.length || unnamed)} open ${this.graceMs} ms after it ended: ` +
					`${left.join('; ')}. Stop it in an afterAll (and await it).`,
			);
		}
	}
}

module.exports = LeakCheckEnvironment;
