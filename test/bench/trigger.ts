/** Requests and time per trigger poll against large spaces, against a naive full scan. */
import { Poller } from '../helpers/poll';
import { startServer } from '../../dev/server/server';
import { SEED } from '../../dev/server/seed';
import { table } from './report';

export async function benchTrigger(sizes = [1_000, 10_000, 100_000], changing = 10): Promise<void> {
	console.log(`\n## Trigger: one poll with ${changing} calls ending since the last poll\n`);
	const rows: Array<Record<string, string | number>> = [];
	for (const size of sizes) {
		const server = await startServer();
		try {
			const store = server.store;
			const space = store.spaces.get(SEED.spaceToken)!;
			const user = store.users.get(SEED.token)!;
			const contacts = Array.from({ length: size }, (_, i) => ({
				name: `P${i}`,
				contact_number: `+1415${String(i).padStart(7, '0')}`,
			}));
			const { tasks } = store.createTasks(space, SEED.agentHandle, contacts, 'bench', user, null);
			// A steady state: old calls ended, the newest `changing` are pending.
			tasks.slice(0, size - changing).forEach((t) => store.finishTask(t, 'completed'));
			const poller = new Poller({
				credentials: {
					baseUrl: server.url,
					apiToken: SEED.token,
					orgHandle: SEED.orgHandle,
					productId: SEED.productId,
				},
				parameters: {
					watch: 'space',
					space: { __rl: true, mode: 'token', value: SEED.spaceToken },
					events: ['completed', 'failed'],
					simplify: true,
					options: {},
				},
			});
			server.resetTraffic();
			let started = Date.now();
			await poller.poll();
			const firstRequests = server.requests.length;
			const firstMs = Date.now() - started;

			tasks.slice(size - changing).forEach((t) => store.finishTask(t, 'completed'));
			server.resetTraffic();
			started = Date.now();
			const emitted = (await poller.poll())?.length ?? 0;
			const pollMs = Date.now() - started;
			const pollRequests = server.requests.length;

			// The naive way: read every page each poll.
			server.resetTraffic();
			started = Date.now();
			for (let page = 1; ; page++) {
				const res = await fetch(
					`${server.url}/api/v2/platform/spaces/${SEED.spaceToken}/tasks/?page=${page}&page_size=100`,
					{
						headers: {
							Authorization: `Token ${SEED.token}`,
							'Org-Handle': SEED.orgHandle,
							'Product-ID': SEED.productId,
						},
					},
				);
				const body = (await res.json()) as { data: unknown[] };
				if (body.data.length < 100) break;
			}
			const naiveMs = Date.now() - started;
			rows.push({
				'space size': size.toLocaleString('en'),
				'first poll: requests': firstRequests,
				'first poll (ms)': firstMs,
				'poll: requests': pollRequests,
				'poll (ms)': pollMs,
				emitted,
				'full scan: requests': server.requests.length,
				'full scan (ms)': naiveMs,
				'state (bytes)': JSON.stringify(poller.state).length,
			});
		} finally {
			await server.stop();
		}
	}
	table(rows);
}
