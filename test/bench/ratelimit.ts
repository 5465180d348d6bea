/** A bulk import under a plan's rate limit: the Unpod Task node against one HTTP Request per row. */
import { outputOf } from '../../dev/harness/run-results';
import { chain, rowsNode } from '../../dev/harness/workflow-builders';
import { startProcessHarness } from '../helpers/setup';
import { contactRows, expectCreated, httpRequestPerRow, taskCreate } from './import';
import { table } from '../../dev/harness/report';

export async function benchRateLimit(rows = 10_000, perMinute = 60): Promise<void> {
	console.log(`\n## Bulk import of ${rows.toLocaleString('en')} rows under ${perMinute} requests a minute\n`);
	const h = await startProcessHarness();
	try {
		const results: Array<Record<string, string | number>> = [];
		for (const [label, node] of [
			[
				'Unpod Task node (batches of 100, waits on 429)',
				taskCreate({ options: { batchSize: 100, maxRateLimitWaitSeconds: 600 } }),
			],
			['HTTP Request node, one request per row', httpRequestPerRow(h.server.url)],
		] as const) {
			h.server.resetTraffic();
			h.server.rateLimiter.configure(perMinute, perMinute);
			const before = h.server.store.tasks.length;
			const id = `benchLimit${results.length}`;
			await h.n8n.importWorkflows([chain(id, [rowsNode('Rows', contactRows(rows)), node])]);
			const started = Date.now();
			const run = await h.n8n.execute(id);
			const created = h.server.store.tasks.length - before;
			// The Task node waits out every 429: all rows created. One request a row loses rows, as measured.
			if (results.length === 0) expectCreated(label, created, rows, run);
			results.push({
				mode: label,
				run: run.exitCode === 0 ? 'succeeded' : 'failed',
				'rows created': created,
				'rows lost': rows - created,
				requests: h.server.requests.length,
				'429 answers': h.server.requests.filter((r) => r.status === 429).length,
				minutes: ((Date.now() - started) / 60000).toFixed(2),
			});
		}
		table(results);
	} finally {
		await h.close();
	}
}

/** The duplicate guard's lookup: requests and time to read the space's recent tasks before an import of 100 rows. */
export async function benchGuard(recent = [1_000, 10_000]): Promise<void> {
	console.log('\n## Duplicate guard: the lookup before an import of 100 rows\n');
	const rows: Array<Record<string, string | number>> = [];
	for (const size of recent) {
		const h = await startProcessHarness();
		try {
			const contacts = contactRows(size).map((r) => ({ name: r.name, contact_number: r.phone }));
			h.server.calls.addTasks(contacts, { context: 'earlier' });
			// 100 rows, half of them contacts that already have a task.
			const sheet = contactRows(size + 50).slice(size - 50);
			const id = `benchGuard${size}`;
			await h.n8n.importWorkflows([chain(id, [rowsNode('Rows', sheet), taskCreate({ skipExisting: true })])]);
			h.server.resetTraffic();
			const before = h.server.store.tasks.length;
			const started = Date.now();
			const run = await h.n8n.execute(id);
			// Half the rows already have a task: the other 50 are created.
			expectCreated(`Duplicate guard at ${size}`, h.server.store.tasks.length - before, 50, run);
			rows.push({
				'recent tasks in the space': size.toLocaleString('en'),
				run: run.exitCode === 0 ? 'succeeded' : 'failed',
				'lookup requests': h.server.requestsTo('GET', '/tasks/').length,
				'create requests': h.server.requestsTo('POST', '/tasks/').length,
				'rows skipped': run.exitCode === 0 ? outputOf(run, 'Unpod Task').filter((r) => r.unpod_skipped).length : 'n/a',
				'run (s, with n8n start-up)': ((Date.now() - started) / 1000).toFixed(1),
			});
		} finally {
			await h.close();
		}
	}
	table(rows);
	const largest = rows[rows.length - 1];
	console.log(
		`\nOn a 60 requests a minute plan, the ${largest['recent tasks in the space']}-task lookup uses about ` +
			`${(Number(largest['lookup requests']) / 60).toFixed(1)} minutes of the plan; shorten Lookback for spaces that busy.`,
	);
}
