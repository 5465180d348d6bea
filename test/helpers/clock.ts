/**
 * A clock the test controls, for tests whose subject is time (retry waits, Retry-After, Max
 * Wait, Check Every, poll spacing, the local server's call lifecycle). Jest's fake timers stand
 * in for `setTimeout` and `Date` in this process: the nodes' waits (n8n-workflow's `sleep`), the
 * retry policy's clock and the local server's call plans all read it. The network stays real.
 *
 * `drive` moves time on only while nothing is in flight: no HTTP request of this process is
 * open and the event loop has settled, so every wait the code under test is in has been
 * registered. It then jumps to the next timer. A run that waits 10 minutes takes as long as
 * its requests do, and a busy machine changes nothing but the wall-clock time.
 */
import { channel } from 'diagnostics_channel';
import type { ClientRequest } from 'http';
import { performance } from 'perf_hooks';
import { setTimeout as realDelay } from 'timers/promises';

/** This process's open HTTP requests, and when one last started or ended. */
interface HttpWatch {
	inFlight: number;
	lastActivity: number;
}

/**
 * Jest loads this module anew for each test file a worker runs, but the channel is the
 * process's own: one subscriber, kept on the channel, serves every file (one per file added a
 * `close` listener per file to every request, past Node's warning at 11).
 */
function httpWatch(): HttpWatch {
	const requests = channel('http.client.request.start') as ReturnType<typeof channel> & { unpodWatch?: HttpWatch };
	if (requests.unpodWatch) return requests.unpodWatch;
	const watch: HttpWatch = { inFlight: 0, lastActivity: performance.now() };
	requests.subscribe((message) => {
		const { request } = message as { request: ClientRequest };
		watch.inFlight++;
		watch.lastActivity = performance.now();
		request.once('close', () => {
			watch.inFlight--;
			watch.lastActivity = performance.now();
		});
	});
	requests.unpodWatch = watch;
	return watch;
}
const watch = httpWatch();

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Real time with no request open and no new one for `quietMs`, a few event-loop turns at
 * least. While a request is open it sleeps on the real clock (timers/promises is not faked)
 * rather than spinning.
 */
async function settle(quietMs = 3): Promise<void> {
	let turns = 0;
	for (;;) {
		if (watch.inFlight > 0) {
			turns = 0;
			await realDelay(1);
			continue;
		}
		await turn();
		if (++turns >= 5 && performance.now() - watch.lastActivity >= quietMs) return;
	}
}

export class TestClock {
	private constructor(readonly startedAt: number) {}

	/** Fakes `setTimeout`, `setInterval` and `Date` for this test file, from now or from `at`. */
	static install(at?: number): TestClock {
		jest.useFakeTimers({
			doNotFake: ['nextTick', 'setImmediate', 'clearImmediate', 'queueMicrotask', 'hrtime', 'performance'],
			...(at === undefined ? {} : { now: at }),
		});
		return new TestClock(Date.now());
	}

	uninstall(): void {
		jest.useRealTimers();
	}

	/** Milliseconds on the test's clock since `since` (default: since install). */
	elapsed(since = this.startedAt): number {
		return Date.now() - since;
	}

	/** Settles `work`, moving the clock on to each next timer whenever the process is idle. */
	async drive<T>(work: Promise<T>): Promise<T> {
		let done = false;
		const watched = work.finally(() => (done = true));
		watched.catch(() => undefined);
		while (!done) {
			await settle();
			if (done) break;
			// No timer to move to: the work waits on something else (a file, a child process).
			if (jest.getTimerCount() > 0) await jest.advanceTimersToNextTimerAsync();
			else await realDelay(1);
		}
		return await watched;
	}

	/** Moves the clock on by `ms`, timer by timer, letting each timer's work (its requests) finish. */
	async advance(ms: number): Promise<void> {
		await this.drive(new Promise((resolve) => setTimeout(resolve, ms)));
	}
}
