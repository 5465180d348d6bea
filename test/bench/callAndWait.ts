/** Task > Call and Wait through real n8n: what following calls costs in requests, and how soon an ending comes out. */
import { chain, rowsNode } from '../../dev/harness/workflow-builders';
import { agentRef, spaceRef, unpodNode } from '../helpers/nodes';
import { startProcessHarness } from '../helpers/setup';
import { SEED } from '../../dev/server/seed';
import { table } from '../../dev/harness/report';

const RUN_TASKS = /\/runs\/[^/]+\/tasks\/$/;

export async function benchCallAndWait(): Promise<void> {
	console.log('\n## Call and Wait: 2-minute calls at the default Check Every (15 s), through real n8n\n');
	const h = await startProcessHarness();
	try {
		const results: Array<Record<string, string | number>> = [];
		/** When each run's checks came, in seconds after its create request. */
		const checkTimes = new Map<number, number[]>();
		for (const calls of [1, 100, 250]) {
			h.server.resetTraffic();
			const rows = Array.from({ length: calls }, (_, i) => ({
				name: `Caller ${calls}-${i + 1}`,
				// An exchange of its own per run (201, 300, 450): one starting 0 or 1 is no number in use.
				phone: `+1646${200 + calls}${String(i).padStart(4, '0')}`,
			}));
			// Calls end between 120 and 125 s after they are placed.
			h.server.calls.callScripts = rows.map((r, i) => ({
				number: r.phone,
				end: 'completed',
				afterMs: 120_000 + Math.round((5_000 * i) / calls),
			}));
			const id = `benchCallAndWait${calls}`;
			const node = unpodNode('task', 'Call', {
				operation: 'callAndWait',
				space: spaceRef(SEED.spaceToken),
				agent: agentRef(SEED.agentHandle),
				contactName: '={{ $json.name }}',
				contactNumber: '={{ $json.phone }}',
				callContext: 'Confirm the appointment',
			});
			await h.n8n.importWorkflows([chain(id, [rowsNode('Rows', rows), node])]);
			const run = await h.n8n.execute(id);
			const out = run.resultData?.runData?.Call?.[0] as { executionTime?: number } | undefined;
			const tasks = h.server.store.tasks.filter((t) => rows.some((r) => r.phone === t.input.contact_number));
			const lastEnd = Math.max(...tasks.map((t) => t.lastStatusChangeUs / 1000));
			const checks = h.server.requests.filter((r) => r.method === 'GET' && RUN_TASKS.test(r.path));
			const lastCheck = Math.max(...checks.map((r) => r.at));
			const ended = tasks.filter((t) => t.status === 'completed').length;
			const created = h.server.requests.find((r) => r.method === 'POST')?.at ?? 0;
			checkTimes.set(calls, [...new Set(checks.map((r) => Math.round((r.at - created) / 500) / 2))]);
			results.push({
				calls,
				'exit code': run.exitCode,
				ended,
				'requests in all': h.server.requests.length,
				'run-list requests': checks.length,
				'checks (distinct times)': new Set(checks.map((r) => Math.round(r.at / 1000))).size,
				'last call end -> seen (s)': ((lastCheck - lastEnd) / 1000).toFixed(1),
				'node time (s)': out?.executionTime === undefined ? 'n/a' : (out.executionTime / 1000).toFixed(1),
			});
		}
		table(results);
		const counts = results.map((r) => String(r.calls));
		const perCheck = results.map((r) => String(Number(r['run-list requests']) / Number(r['checks (distinct times)'])));
		const list = (items: string[]) => `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
		console.log(
			`\nRun-list requests a check (one per run of up to 100 calls, however many calls): ${list(perCheck)} for ${list(counts)} calls. ` +
				`The 100-call run's checks came ${checkTimes.get(100)!.join(', ')} s after its create request ` +
				'(Check Every 15 s, slowing while no call ends, at most to twice Check Every).',
		);
	} finally {
		await h.close();
	}
}
