/**
 * The Data Table campaign at 10,000 and 100,000 contacts, in a real n8n (the test runtime): the
 * contacts filled from a CSV in slices, the runner's first slices, the page's views and the daily
 * report, each with its time and the peak memory of n8n's processes (its task runner included)
 * above what they held before.
 */
import axios from 'axios';
import { execFile } from 'child_process';
import { writeFileSync } from 'fs';
import { join } from 'path';
import { promisify } from 'util';
import { loadExample, pathFrom } from '../../dev/harness/examples';
import { N8nServer } from '../../dev/harness/n8n-server';
import { N8N_VERSION } from '../../dev/harness/paths';
import type { Workflow } from '../../dev/harness/workflow-builders';
import { CREDENTIAL, credentialsFor, startProcessHarness } from '../helpers/setup';
import { N8n } from '../../dev/harness/n8n';
import type { UnpodServer } from '../../dev/server/server';
import { percentile, table } from '../../dev/harness/report';
import {
	CAMPAIGN_COLUMNS,
	campaignRows,
	DO_NOT_CALL_COLUMNS,
	FIGURES_COLUMNS,
	figuresRow,
} from '../../dev/harness/campaign';

const LOGIN = { id: 'benchPageLogin', name: 'Campaign page login' };
const USER = { username: 'campaign', password: 'bench-page-password-2f9d' };
const VIEWS = 10;
const REPORTS = 5;
const SLICES = 3;

const run = promisify(execFile);
/**
 * An area code of its own for each size's numbers (the duplicate guard would skip the other run's),
 * with exchanges from 200 up: one starting 0 or 1 is no number in use, and the Task node refuses it.
 */
const areaOf = (size: number) => ({ 10_000: 646, 100_000: 718 })[size] ?? 917;
/** Kilobytes as the tables show them. */
export const mb = (kb: number) => `${Math.round(kb / 1024)} MB`;
const ms = (value: number) => `${Math.round(value)} ms`;

/** The resident memory (kB) of every process in n8n's process group, sampled until stopped. */
export function sampleMemory(group: number) {
	const read = async () => {
		const { stdout } = await run('ps', ['-o', 'rss=', '-g', String(group)]);
		return stdout
			.split('\n')
			.map(Number)
			.filter((n) => n > 0)
			.reduce((sum, n) => sum + n, 0);
	};
	let peak = 0;
	let stopped = false;
	const loop = (async () => {
		while (!stopped) {
			peak = Math.max(peak, await read());
			await new Promise((r) => setTimeout(r, 100));
		}
	})();
	return {
		read,
		async stop() {
			stopped = true;
			await loop;
			return peak;
		},
	};
}

/** Runs a workflow from a trigger as the editor does; the execution's own time (n8n's start and stop). */
export async function timedRun(n8n: N8nServer, workflowId: string, trigger: string): Promise<number> {
	const current = await n8n.rest.get(`/workflows/${workflowId}`);
	const res = await n8n.rest.post(`/workflows/${workflowId}/run`, {
		workflowData: current.data.data,
		triggerToStartFrom: { name: trigger },
	});
	const id = res.data?.data?.executionId;
	if (!id) throw new Error(`Running ${workflowId} failed: ${res.status} ${JSON.stringify(res.data)}`);
	for (;;) {
		const execution = (await n8n.rest.get(`/executions/${id}`)).data?.data;
		if (execution?.status && !['new', 'running', 'waiting'].includes(execution.status)) {
			if (execution.status !== 'success') throw new Error(`${workflowId} ended ${execution.status}`);
			return Date.parse(execution.stoppedAt) - Date.parse(execution.startedAt);
		}
		await new Promise((r) => setTimeout(r, 100));
	}
}

/** What a measured step took, and the memory n8n's processes held above the baseline meanwhile. */
export async function measured<T>(group: number, step: () => Promise<T>): Promise<{ result: T; peakAboveKb: number }> {
	const memory = sampleMemory(group);
	const baseline = await memory.read();
	const result = await step();
	return { result, peakAboveKb: Math.max(0, (await memory.stop()) - baseline) };
}

/**
 * `workflow` run once from `trigger` in an n8n of its own, with the tests' credentials for
 * `server`: what a run before left in n8n's heap is no one's baseline. Its time (ms) and n8n's
 * peak memory above idle; the n8n and its folder are gone after.
 */
export async function runInFreshN8n(
	server: UnpodServer,
	workflow: Workflow,
	trigger = 'Start',
): Promise<{ result: number; peakAboveKb: number }> {
	const folder = await N8n.create();
	let n8n: N8nServer | undefined;
	try {
		await folder.importCredentials(credentialsFor(server));
		await folder.importWorkflows([workflow]);
		n8n = await N8nServer.start(folder);
		server.resetTraffic();
		return await measured(n8n.processGroup!, () => timedRun(n8n!, String(workflow.id), trigger));
	} finally {
		await n8n?.stop();
		folder.dispose();
	}
}

/**
 * A Create of `n` contacts run in a fresh n8n (runInFreshN8n): its requests to `server`, the
 * contacts its create requests carried, its time and n8n's peak memory, as the tables show them.
 */
export async function createFigures(
	server: UnpodServer,
	workflow: Workflow,
	n: number,
): Promise<Record<string, string | number>> {
	const run = await runInFreshN8n(server, workflow);
	const posts = server.requests.filter((r) => r.method === 'POST');
	const created = posts.reduce((sum, p) => sum + (p.body as { documents: unknown[] }).documents.length, 0);
	return {
		requests: server.requests.length,
		'reads of recent tasks': server.requests.filter((r) => r.method === 'GET').length,
		'create requests': posts.length,
		created,
		'not created': n - created,
		'execution time': `${(run.result / 1000).toFixed(1)} s`,
		'peak memory above idle': mb(run.peakAboveKb),
	};
}

async function saveWorkflow(n8n: N8nServer, workflow: Workflow, name: string): Promise<string> {
	const saved = await n8n.rest.post('/workflows', {
		name,
		nodes: workflow.nodes,
		connections: workflow.connections ?? {},
		settings: { executionOrder: 'v1' },
	});
	if (saved.status !== 200) throw new Error(`Saving ${name} failed: ${saved.status}`);
	return String(saved.data.data.id);
}

export async function benchCampaignScale(sizes = [10_000, 100_000]): Promise<void> {
	console.log(
		`\n## The Data Table campaign at ${sizes.map((n) => n.toLocaleString('en')).join(' and ')} contacts (n8n ${N8N_VERSION})\n`,
	);
	const h = await startProcessHarness({}, undefined, [
		{ ...LOGIN, type: 'httpBasicAuth', data: { user: USER.username, password: USER.password } },
	]);
	let n8n: N8nServer | undefined;
	try {
		h.n8n.env.N8N_RESTRICT_FILE_ACCESS_TO = h.n8n.folder;
		h.n8n.env.DB_SQLITE_POOL_SIZE = '3';
		n8n = await N8nServer.start(h.n8n);
		const group = n8n.processGroup!;
		const local = {
			credential: CREDENTIAL.unpodApi,
			consent: false,
			filesDir: h.n8n.folder,
			credentials: { httpBasicAuth: LOGIN },
		};
		const fills: Array<Record<string, string | number>> = [];
		const slices: Array<Record<string, string | number>> = [];
		const pages: Array<Record<string, string | number>> = [];
		for (const size of sizes) {
			// Filled from a CSV by the contacts example, 5,000 lines an execution.
			const csv = join(h.n8n.folder, `contacts-${size}.csv`);
			writeFileSync(
				csv,
				// Numbers of their own for each size: the duplicate guard would skip the other run's.
				['name,phone,email', ...campaignRows(size).map((r, i) => `${r.name},+1${areaOf(size)}${2_000_000 + i},`)].join(
					'\n',
				) + '\n',
			);
			const filled = await n8n.dataTables.create(`Campaign ${size}`, CAMPAIGN_COLUMNS, []);
			const contacts = loadExample('data-table-campaign-contacts.json', { ...local, dataTable: filled });
			for (const node of contacts.nodes.filter((n) => n.type === 'n8n-nodes-base.readWriteFile'))
				node.parameters!.fileSelector = csv;
			contacts.id = `benchFill${size}`;
			await h.n8n.importWorkflows([contacts]);
			const fill = await measured(group, () => timedRun(n8n!, contacts.id, 'Add contacts from contacts.csv'));
			fills.push({
				contacts: size,
				'fill time': `${(fill.result / 1000).toFixed(1)} s`,
				executions: await n8n.executionCount(contacts.id),
				'peak memory above idle': mb(fill.peakAboveKb),
			});

			// The runner's first slices of those new rows (200 each), with the duplicate guard on.
			const figuresOfFilled = await n8n.dataTables.create(`Figures ${size}`, FIGURES_COLUMNS, []);
			const doNotCallTable = await n8n.dataTables.create(`Do-not-call ${size}`, DO_NOT_CALL_COLUMNS, []);
			const campaign = loadExample('data-table-campaign.json', {
				...local,
				dataTable: filled,
				figuresTable: figuresOfFilled,
				doNotCallTable,
			});
			campaign.id = `benchRunner${size}`;
			await h.n8n.importWorkflows([campaign]);
			for (let i = 0; i < SLICES; i++) {
				const before = h.server.requests.length;
				const slice = await measured(group, () => timedRun(n8n!, campaign.id, 'Start the campaign'));
				const requests = h.server.requests.slice(before);
				slices.push({
					contacts: size,
					slice: i + 1,
					time: ms(slice.result),
					'requests to Unpod': `${requests.length} (${requests.filter((r) => r.method === 'POST').length} creates)`,
					'peak memory above idle': mb(slice.peakAboveKb),
				});
			}

			// The page and the report on a campaign halfway through (every stage), its figures kept:
			// the rows still new last, as the runner leaves them (it takes rows in id order).
			const seeded = campaignRows(size);
			const rows = [...seeded.filter((r) => r.status !== 'new'), ...seeded.filter((r) => r.status === 'new')];
			const taken = rows.findIndex((r) => r.status === 'new');
			const halfway = await n8n.dataTables.create(`Halfway ${size}`, CAMPAIGN_COLUMNS, []);
			for (let i = 0; i < rows.length; i += 5000) await n8n.dataTables.insert(halfway, rows.slice(i, i + 5000));
			const figures = await n8n.dataTables.create(`Halfway figures ${size}`, FIGURES_COLUMNS, [
				figuresRow(rows, new Date().toISOString().slice(0, 10), taken),
			]);
			const pageWorkflow = pathFrom(
				loadExample('data-table-campaign.json', { ...local, dataTable: halfway, figuresTable: figures }),
				'Campaign page',
			);
			const pageId = await saveWorkflow(n8n, pageWorkflow, `Page ${size}`);
			await n8n.setActive(pageId, true);
			const url = `${n8n.url}/webhook/unpod-campaign`;
			const view = async () => {
				const started = performance.now();
				const res = await axios.get(url, { auth: USER, responseType: 'text', validateStatus: () => true });
				if (res.status !== 200) throw new Error(`The page answered ${res.status}: ${String(res.data).slice(0, 300)}`);
				return { ms: performance.now() - started, bytes: Buffer.byteLength(String(res.data)) };
			};
			await view();
			const before = h.server.requests.length;
			const views = await measured(group, async () => {
				const all = [];
				for (let i = 0; i < VIEWS; i++) all.push(await view());
				return all;
			});
			const unpod = h.server.requests.slice(before);
			await n8n.setActive(pageId, false);

			const report = loadExample('unpod-daily-report.json', { ...local, dataTable: halfway, figuresTable: figures });
			// Without its mail and Slack.
			const reportPath = pathFrom(report, 'Every morning at 7');
			reportPath.nodes = reportPath.nodes.filter((n) => !['Email the report', 'Post to Slack'].includes(n.name));
			delete (reportPath.connections as Record<string, unknown>)['Yesterday against the day before'];
			const reportId = await saveWorkflow(n8n, reportPath, `Report ${size}`);
			const reports = await measured(group, async () => {
				const times = [];
				for (let i = 0; i < REPORTS; i++) times.push(await timedRun(n8n!, reportId, 'Every morning at 7'));
				return times;
			});
			const times = views.result.map((v) => v.ms);
			pages.push({
				contacts: size,
				'page median': ms(percentile(times, 50)),
				'page slowest': ms(Math.max(...times)),
				'page size': `${views.result[0].bytes.toLocaleString('en')} bytes`,
				'requests to Unpod per view': unpod.length / VIEWS,
				'peak memory above idle (views)': mb(views.peakAboveKb),
				'report median': ms(percentile(reports.result, 50)),
				'report slowest': ms(Math.max(...reports.result)),
				'peak memory above idle (reports)': mb(reports.peakAboveKb),
			});
		}
		console.log(`Filling the table from a CSV (the contacts example, 5,000 lines an execution):`);
		table(fills);
		console.log(
			`\nThe runner's first ${SLICES} slices of the filled table (200 rows each, Skip Contacts Already Called on):`,
		);
		table(slices);
		console.log(
			`\nThe page (${VIEWS} views after one to warm up) and the daily report (${REPORTS} runs, without mail and Slack), on a campaign halfway:`,
		);
		table(pages);
	} finally {
		await n8n?.stop();
		await h.close();
	}
}
