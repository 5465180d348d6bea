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
		// Where OpenAPI 2.0.0 creates tasks (the local server's default shape).
		url: `${baseUrl}/api/v2/platform/spaces/${SEED.spaceToken}/tasks/create/`,
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

/**
 * `n` contacts with numbers in use in San Francisco (+1 415 200-0000 up: an exchange starting 0 or
 * 1 is no number in libphonenumber's data, and the Task node refuses it before any request).
 */
export function contactRows(n: number) {
	return Array.from({ length: n }, (_, i) => ({
		name: `Contact ${i + 1}`,
		phone: `+1415${2_000_000 + i}`,
	}));
}

/** Fails the bench when a mode that should place every row did not: its figures would measure nothing. */
export function expectCreated(label: string, created: number, rows: number, run: { resultData?: unknown }): void {
	if (created === rows) return;
	const said = JSON.stringify(run.resultData ?? {}).match(/"unpod_refused":"([^"]*)"|"message":"([^"]*)"/);
	throw new Error(`${label}: ${created} of ${rows} rows created${said ? `; ${said[1] ?? said[2]}` : ''}`);
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
			expectCreated(label, h.server.store.tasks.length - before, rows, run);
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
