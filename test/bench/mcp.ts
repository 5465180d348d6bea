/** The MCP example through real n8n and the MCP SDK n8n ships: how long a client waits, and what each tool costs in requests. */
import { answerOf, connectMcp, MCP_CREDENTIAL, mcpRegistered, mcpWithCalls } from '../helpers/mcp';
import { N8nServer } from '../../dev/harness/n8n-server';
import { N8N_VERSION } from '../../dev/harness/paths';
import { startProcessHarness } from '../helpers/setup';
import { percentile, table } from '../../dev/harness/report';

const TIMES = 20;

export async function benchMcp(): Promise<void> {
	console.log(
		`\n## MCP clients: the example's tools through n8n ${N8N_VERSION}'s MCP Server Trigger, ${TIMES} times each\n`,
	);
	const h = await startProcessHarness({}, undefined, [MCP_CREDENTIAL]);
	let n8n: N8nServer | undefined;
	try {
		const workflow = mcpWithCalls();
		await h.n8n.importWorkflows([workflow]);
		n8n = await N8nServer.start(h.n8n);
		await n8n.setActive(workflow.id, true);
		await mcpRegistered(n8n, 'unpod-calls');
		// 120 ended calls in the space: what Find calls reads.
		h.server.calls.addTasks(
			Array.from({ length: 120 }, (_, i) => ({
				name: `Lead ${i}`,
				contact_number: `+1212520${String(i).padStart(4, '0')}`,
			})),
		);
		h.server.calls.finishCalls({ failRate: 0.2 });

		const connecting = performance.now();
		const client = await connectMcp(n8n, 'unpod-calls');
		const connectMs = Math.round(performance.now() - connecting);
		const rows: Array<Record<string, string | number>> = [];
		const measure = async (what: string, call: () => Promise<unknown>, times = TIMES) => {
			const ms: number[] = [];
			h.server.resetTraffic();
			for (let i = 0; i < times; i++) {
				const started = performance.now();
				await call();
				ms.push(performance.now() - started);
			}
			rows.push({
				request: what,
				'median ms': Math.round(percentile(ms, 50)),
				'slowest ms': Math.round(Math.max(...ms)),
				'requests to Unpod each': h.server.requests.length / times,
			});
		};
		rows.push({
			request: 'connect (initialize)',
			'median ms': connectMs,
			'slowest ms': connectMs,
			'requests to Unpod each': 0,
		});
		await measure('list tools', () => client.listTools());
		await measure('Find_calls, 20 ended calls', () =>
			client.callTool({ name: 'Find_calls', arguments: { limit: 20 } }),
		);
		await measure('Find_calls, 50 ended calls', () =>
			client.callTool({ name: 'Find_calls', arguments: { limit: 50, status: 'completed,failed' } }),
		);
		await measure('Call_figures', () => client.callTool({ name: 'Call_figures', arguments: {} }));
		await measure('List_agents', () => client.callTool({ name: 'List_agents', arguments: {} }));
		let runId = '';
		await measure(
			'Place_a_call (answers with the task id)',
			async () => {
				const placed = answerOf(
					await client.callTool({
						name: 'Place_a_call',
						arguments: {
							name: 'Dana Reyes',
							phone_number: '+12125550181',
							what_to_say: 'Ask when the technician may come',
						},
					}),
				);
				runId = [placed.json].flat()[0]?.run_id ?? '';
			},
			1,
		);
		await measure('Call_outcome', () => client.callTool({ name: 'Call_outcome', arguments: { run_id: runId } }));
		await client.close();
		table(rows);
	} finally {
		await n8n?.stop();
		await h.close();
	}
}
