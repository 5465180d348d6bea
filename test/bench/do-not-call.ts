/**
 * A slice of the Data Table campaign's runner at 100,000 contacts in real n8n, run as its
 * schedule runs it (production mode: the guard's memory of the space's tasks kept between runs):
 * the first slice over a day's tasks (what every slice read before the guard remembered), the
 * hourly slices after it, and the same with 10,000 numbers on the shared do-not-call list. The
 * slices run back to back; an hour passes between them for the space's tasks: before each, every
 * task created before the previous slice started is moved an hour back, so that the guard's
 * 10-minute margin holds only the previous slice's tasks, as an hour later it would.
 */
import { loadExample, pathFrom } from '../../dev/harness/examples';
import type { N8nServer } from '../../dev/harness/n8n-server';
import { N8nServer as Server } from '../../dev/harness/n8n-server';
import { N8N_VERSION } from '../../dev/harness/paths';
import { CREDENTIAL, startProcessHarness } from '../helpers/setup';
import { CAMPAIGN_COLUMNS, DO_NOT_CALL_COLUMNS, FIGURES_COLUMNS } from '../../dev/harness/campaign';
import { table } from '../../dev/harness/report';
import { SEED } from '../../dev/server/seed';

const CONTACTS = 100_000;
const LISTED = 10_000;
/** The tasks a day of hourly slices of 200 leaves in the space, besides this run's. */
const DAY_TASKS = 4_600;
const TASKS = `/spaces/${SEED.spaceToken}/tasks/`;

export async function benchDoNotCall(): Promise<void> {
	console.log(
		`\n## A campaign slice at ${CONTACTS.toLocaleString('en')} contacts: ${LISTED.toLocaleString('en')} numbers on the do-not-call list, a day's tasks in the space (n8n ${N8N_VERSION})\n`,
	);
	const h = await startProcessHarness({});
	let n8n: N8nServer | undefined;
	try {
		h.n8n.env.DB_SQLITE_POOL_SIZE = '3';
		n8n = await Server.start(h.n8n);
		const contacts = Array.from({ length: CONTACTS }, (_, i) => ({
			name: `Contact ${i + 1}`,
			// Numbers in use (+1 646 200-0000 up): the Task node refuses an exchange starting 0 or 1.
			phone: `+1646${2_000_000 + i}`,
			status: 'new',
			next_call_at: '',
		}));
		const campaign = await n8n.dataTables.create('Campaign', CAMPAIGN_COLUMNS, []);
		for (let i = 0; i < contacts.length; i += 5000) await n8n.dataTables.insert(campaign, contacts.slice(i, i + 5000));
		const figures = await n8n.dataTables.create('Figures', FIGURES_COLUMNS, []);
		const doNotCall = await n8n.dataTables.create('Unpod do-not-call', DO_NOT_CALL_COLUMNS, []);
		// A day of other slices: 4,600 tasks created over the last 23 hours.
		const now = Date.now();
		const day = h.server.calls.addTasks(
			Array.from({ length: DAY_TASKS }, (_, i) => ({
				name: `Earlier ${i}`,
				contact_number: `+1718${2_000_000 + i}`,
			})),
		);
		day.forEach((task, i) => (task.createdUs = (now - 3_600_000 - (i / DAY_TASKS) * 22 * 3_600_000) * 1000));

		// The runner as its schedule runs it: a webhook stands in for the hourly trigger, so that the
		// run is a production one (n8n keeps a node's static data only outside the editor's runs).
		const example = loadExample('data-table-campaign.json', {
			credential: CREDENTIAL.unpodApi,
			consent: false,
			filesDir: h.n8n.folder,
			dataTable: campaign,
			figuresTable: figures,
			doNotCallTable: doNotCall,
		});
		example.nodes.push({
			id: 'bench-hourly-schedule',
			name: 'The hourly schedule',
			position: [0, 400],
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			webhookId: 'bench-slice',
			parameters: {
				httpMethod: 'POST',
				path: 'bench-slice',
				responseMode: 'lastNode',
				responseData: 'noData',
				options: {},
			},
		});
		example.connections!['The hourly schedule'] = example.connections!['Every hour: the next slice'];
		const runner = pathFrom(example, 'The hourly schedule');
		runner.id = 'benchDncRunner';
		await h.n8n.importWorkflows([runner]);
		await n8n.setActive(runner.id, true);

		const rows: Array<Record<string, string | number>> = [];
		let lastStart = 0;
		const slice = async (label: string, list: number, run: () => Promise<unknown>) => {
			for (const task of h.server.store.tasks) if (task.createdUs < lastStart * 1000) task.createdUs -= 3_600_000_000;
			lastStart = Date.now();
			const before = h.server.requests.length;
			const started = performance.now();
			await run();
			const ms = performance.now() - started;
			const requests = h.server.requests.slice(before);
			rows.push({
				slice: label,
				'numbers on the list': list,
				time: `${Math.round(ms)} ms`,
				'guard reads': requests.filter((r) => r.method === 'GET' && r.path.endsWith(TASKS)).length,
				creates: requests.filter((r) => r.method === 'POST').length,
				'requests to Unpod': requests.length,
			});
			return ms;
		};
		const scheduled = async () => {
			const res = await n8n!.postWebhook('bench-slice', {}, 120_000);
			if (res.status !== 200) throw new Error(`The slice answered ${res.status}: ${JSON.stringify(res.data)}`);
		};
		const withoutList: number[] = [];
		const withList: number[] = [];
		await slice('1: the first, over a day of 4,600 tasks', 0, scheduled);
		for (let i = 2; i <= 4; i++) withoutList.push(await slice(`${i}: the next hour`, 0, scheduled));
		// 10,000 numbers nobody may call, ten of them in the next slices' rows, written as people write them.
		const listed = Array.from({ length: LISTED }, (_, i) => {
			if (i < 10) {
				const n = String(2_000_800 + i * 20);
				return `+1 (646) ${n.slice(0, 3)}-${n.slice(3)}`;
			}
			const n = String(70_000_000 + i);
			return `+44 20 ${n.slice(0, 4)} ${n.slice(4)}`;
		}).map((phone) => ({ phone, reason: 'bench', source: 'bench', added_at: '' }));
		for (let i = 0; i < listed.length; i += 5000) await n8n.dataTables.insert(doNotCall, listed.slice(i, i + 5000));
		for (let i = 5; i <= 7; i++) withList.push(await slice(`${i}: the next hour`, LISTED, scheduled));
		const refused = (await n8n.dataTables.rows(campaign)).filter((r) => r.status === 'do not call').length;

		table(rows);
		const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
		console.log(
			`\nWith ${LISTED.toLocaleString('en')} numbers on the list a slice took ${(mean(withList) / mean(withoutList)).toFixed(2)}x the time ` +
				`(${Math.round(mean(withList))} ms against ${Math.round(mean(withoutList))} ms, slices 5-7 against 2-4); ${refused} rows refused as listed.`,
		);
		await n8n.setActive(runner.id, false);
	} finally {
		await n8n?.stop();
		await h.close();
	}
}
