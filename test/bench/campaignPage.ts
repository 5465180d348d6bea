/**
 * The Data Table campaign's page, served by a real n8n (the test runtime) with 10,000 campaign
 * rows (BENCH_ROWS): how long a view takes to answer, how big it is, and what it asks of Unpod.
 */
import axios from 'axios';
import { loadExample } from '../helpers/examples';
import { N8nServer } from '../helpers/n8n-server';
import { N8N_VERSION } from '../helpers/n8n';
import { CREDENTIAL, startProcessHarness } from '../helpers/setup';
import { SEED } from '../../dev/server/seed';
import { table } from './report';
import { CAMPAIGN_COLUMNS, campaignRows } from '../helpers/campaign';

const LOGIN = { id: 'benchPageLogin', name: 'Campaign page login' };
const USER = { username: 'campaign', password: 'bench-page-password-2f9d' };
const VIEWS = 10;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

export async function benchCampaignPage(rows: number): Promise<void> {
	const h = await startProcessHarness({}, undefined, [
		{ ...LOGIN, type: 'httpBasicAuth', data: { user: USER.username, password: USER.password } },
	]);
	let n8n: N8nServer | undefined;
	try {
		n8n = await N8nServer.start(h.n8n);
		const tableId = await n8n.createDataTable('Unpod campaign', CAMPAIGN_COLUMNS, []);
		const all = campaignRows(rows);
		for (let i = 0; i < all.length; i += 1000) await n8n.insertDataTableRows(tableId, all.slice(i, i + 1000));
		const workflow = loadExample('data-table-campaign.json', {
			credential: CREDENTIAL.unpodApi,
			filesDir: h.n8n.folder,
			dataTable: tableId,
			credentials: { httpBasicAuth: LOGIN },
		});
		await h.n8n.importWorkflows([workflow]);
		await n8n.setActive(
			workflow.id,
			true,
			() => h.server.requestsTo('GET', `/spaces/${SEED.spaceToken}/tasks/`).length,
		);

		const url = `${n8n.url}/webhook/unpod-campaign`;
		const view = async () => {
			const started = performance.now();
			const res = await axios.get(url, { auth: USER, responseType: 'text', validateStatus: () => true });
			if (res.status !== 200) throw new Error(`The page answered ${res.status}: ${String(res.data).slice(0, 300)}`);
			return { ms: performance.now() - started, bytes: Buffer.byteLength(String(res.data)) };
		};
		await view();
		const before = h.server.requests.length;
		const views = [];
		for (let i = 0; i < VIEWS; i++) views.push(await view());
		const requests = h.server.requests.slice(before).filter((r) => !r.path.endsWith('/tasks/'));
		const times = views.map((v) => v.ms).sort((a, b) => a - b);
		console.log(
			`\nThe campaign page: ${rows.toLocaleString('en')} rows, n8n ${N8N_VERSION}, ${VIEWS} views after one to warm up`,
		);
		table([
			{
				rows,
				'median answer': `${Math.round(percentile(times, 0.5))} ms`,
				slowest: `${Math.round(times[times.length - 1])} ms`,
				size: `${views[0].bytes.toLocaleString('en')} bytes`,
				'requests to Unpod per view': requests.length / VIEWS,
				'what they are': [
					...new Set(requests.map((r) => `${r.method} ${r.path.replace('/api/v2/platform', '')}`)),
				].join(', '),
			},
		]);
	} finally {
		await n8n?.stop();
		await h.close();
	}
}
