/**
 * The Unpod Trigger at scale, polled by n8n-core against the local server: requests per poll,
 * polls to learn a space at activation, polls until the end of the oldest open call is seen,
 * state size. One poll stands for one minute: at the default 10 requests a poll that is a
 * sixth of a 60 requests a minute plan.
 */
import { addNumberedTasks, spacePoller } from '../helpers/poll';
import type { Poller } from '../helpers/poll';
import { startServer, UnpodServer } from '../../dev/server/server';
import { SEED } from '../../dev/server/seed';
import { table } from '../../dev/harness/report';

const poller = (server: UnpodServer) => spacePoller(server);

const fill = (server: UnpodServer, size: number) => addNumberedTasks(server, size, SEED.spaceToken);

/** Polls until `done(emitted ids)`; returns the polls and the most requests one poll sent. */
async function pollUntil(server: UnpodServer, p: Poller, done: (emitted: Set<string>) => boolean, max = 5000) {
	let polls = 0;
	let most = 0;
	const emitted = new Set<string>();
	while (!done(emitted) && polls < max) {
		const before = server.requests.length;
		for (const item of (await p.poll()) ?? []) emitted.add(String(item.json.task_id));
		most = Math.max(most, server.requests.length - before);
		polls++;
	}
	return { polls, most, emitted };
}

export async function benchTrigger(sizes = [1_000, 10_000, 100_000]): Promise<void> {
	console.log('\n## Trigger: open calls, 10 requests a poll (one poll a minute: a sixth of a 60/min plan)\n');
	const rows: Array<Record<string, string | number>> = [];
	for (const size of sizes) {
		const server = await startServer();
		try {
			const tasks = fill(server, size);
			const p = poller(server);
			const started = Date.now();
			const activation = await pollUntil(server, p, () => p.live?.top >= 0 && !p.live.todo.length);
			const stateBytes = JSON.stringify(p.live).length;
			// The oldest call ends: the last page the sweep reaches.
			server.store.finishTask(tasks[0], 'completed');
			const end = await pollUntil(server, p, (emitted) => emitted.has(tasks[0].task_id));
			rows.push({
				'open calls': size.toLocaleString('en'),
				'activation polls': activation.polls,
				'polls until the oldest end is seen': end.polls,
				'ceil(N/100/10)': Math.ceil(size / 100 / 10),
				'ceil(N/100/9)': Math.ceil(size / 100 / 9),
				'most requests in a poll': Math.max(activation.most, end.most),
				'state (bytes)': stateBytes,
				'bytes per open call': Math.round(stateBytes / size),
				'wall time (s)': ((Date.now() - started) / 1000).toFixed(1),
			});
		} finally {
			await server.stop();
		}
	}
	table(rows);

	console.log('\n## Trigger: a space of 100,000 ended tasks with 10 open\n');
	const server = await startServer();
	try {
		const tasks = fill(server, 100_000);
		tasks.slice(0, 100_000 - 10).forEach((t) => server.store.finishTask(t, 'completed'));
		const p = poller(server);
		const activation = await pollUntil(server, p, () => p.live?.top >= 0 && !p.live.todo.length);
		server.resetTraffic();
		await p.poll();
		const idle = server.requests.length;
		tasks.slice(-10).forEach((t) => server.store.finishTask(t, 'completed'));
		server.resetTraffic();
		const emitted = (await p.poll())?.length ?? 0;
		if (emitted !== 10) throw new Error(`expected the 10 ends, got ${emitted}`);
		table([
			{
				'activation polls': activation.polls,
				'activation requests': activation.polls ? `${activation.most} at most a poll` : '0',
				'idle poll: requests': idle,
				'poll with 10 ends: requests': server.requests.length,
				emitted,
				'state (bytes)': JSON.stringify(p.live).length,
			},
		]);
	} finally {
		await server.stop();
	}
}
