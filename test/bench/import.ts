/** Bulk import through real n8n: the Task node's batches against one HTTP Request per row. */
import { chain, N8nNode, rowsNode } from '../../dev/harness/workflow-builders';
import { createNode } from '../helpers/nodes';
import { CREDENTIAL, startProcessHarness } from '../helpers/setup';
import { SEED } from '../../dev/server/seed';
import { table } from '../../dev/harness/report';

export const httpRequestPerRow = (baseUrl: string, extra: Record<string, unknown> = {}): N8nNode => ({
	name: 'HTTP Request',
	type: 'n8n-nodes-base.httpRequest',
	typeVersion: 4.2,
	credentials: CREDENTIAL,
	parameters: {
		method: 'POST',
		url: `${baseUrl}/api/v2/platform/spaces/${SEED.spaceToken}/tasks/`,
		authentication: 'predefinedCredentialType',
		nodeCredentialType: 'unpodApi',
		sendBody: true,
		specifyBody: 'json',
		jsonBody: `={{ JSON.stringify({ pilot: "${SEED.agentHandle}", context: "Spring offer", documents: [{ name: $json.name, contact_number: $json.phone }] }) }}`,
		options: {},
		...extra,
	},
});

export const taskCreate = (extra: Record<string, unknown> = {}): N8nNode =>
	createNode({ callContext: 'Spring offer', options: { batchSize: 100 }, ...extra }, {}, 'Unpod Task');

export function contactRows(n: number) {
	return Array.from({ length: n }, (_, i) => ({
		name: `Contact ${i + 1}`,
		phone: `+1415${String(i).padStart(7, '0')}`,
	}));
}

export async function benchImport(rows = 10_000): Promise<void> {
	console.log(`\n## Bulk import: ${rows.toLocaleString('en')} contacts through real n8n (no rate limit)\n`);
	const h = await startProcessHarness();
	try {
		const results: Array<Record<string, string | number>> = [];
		for (const [label, node] of [
			['Unpod Task node (batches of 100)', taskCreate()],
			['HTTP Request node, one request per row', httpRequestPerRow(h.server.url)],
		] as const) {
			h.server.resetTraffic();
			const before = h.server.store.tasks.length;
			const id = `benchImport${results.length}`;
			await h.n8n.importWorkflows([chain(id, [rowsNode('Rows', contactRows(rows)), node])]);
			const started = Date.now();
			const run = await h.n8n.execute(id);
			const wall = Date.now() - started;
			const nodeMs = run.resultData?.runData?.[node.name]?.[0] as { executionTime?: number } | undefined;
			results.push({
				mode: label,
				'exit code': run.exitCode,
				requests: h.server.requests.length,
				'tasks created': h.server.store.tasks.length - before,
				'node time (s)': nodeMs?.executionTime === undefined ? 'n/a' : (nodeMs.executionTime / 1000).toFixed(1),
				'run wall time (s)': (wall / 1000).toFixed(1),
			});
		}
		table(results);
		const [ours, perRow] = results;
		console.log(
			`\nRequests: ${perRow.requests} / ${ours.requests} = ${(Number(perRow.requests) / Number(ours.requests)).toFixed(0)}x fewer with the Task node; ` +
				`run wall time ${(Number(perRow['run wall time (s)']) / Number(ours['run wall time (s)'])).toFixed(1)}x shorter.`,
		);
	} finally {
		await h.close();
	}
}
