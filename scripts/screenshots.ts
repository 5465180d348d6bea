/**
 * `npm run screenshots`: pictures of the example workflows in the n8n editor and of the Data
 * Table campaign's page, for the README. Runs the demo's environment and Debian's Chromium
 * (installed with apt when missing, as `npm test` does), headless.
 */
import { mkdirSync } from 'fs';
import { join } from 'path';
import type { Browser } from 'playwright-core';
import { DEMO_CREDENTIAL, startDemoEnvironment } from './demo-env';
import { SEED } from '../dev/server/seed';
import { startBrowser } from '../dev/harness/browser';
import { CAMPAIGN_COLUMNS, campaignRows, FIGURES_COLUMNS, figuresRow } from '../dev/harness/campaign';
import { loadExample, pathFrom } from '../dev/harness/examples';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { ensureChromium } = require('../dev/install/services.js') as { ensureChromium: () => void };

const OUT = join(__dirname, '..', 'examples', 'screenshots');

type Env = Awaited<ReturnType<typeof startDemoEnvironment>>;

/** A workflow that only shows Space > Get Runs and Get Run Tasks, saved through n8n's REST API. */
async function panelWorkflow(env: Env): Promise<Array<{ workflowId: string; nodeId: string; file: string }>> {
	const space = { __rl: true, mode: 'list', value: SEED.spaceToken, cachedResultName: 'Outbound Leads' };
	const credentials = { unpodApi: DEMO_CREDENTIAL };
	const node = (id: string, name: string, x: number, parameters: Record<string, unknown>) => ({
		id,
		name,
		type: 'n8n-nodes-unpod.unpodSpace',
		typeVersion: 1,
		position: [x, 0],
		credentials,
		parameters: { resource: 'space', space, ...parameters },
	});
	const agent = { __rl: true, mode: 'list', value: SEED.agentHandle, cachedResultName: 'Sales Assistant' };
	const res = await env.n8nServer.rest.post('/workflows', {
		name: 'Follow an import by its runs',
		nodes: [
			{
				...node('agent-panel', 'Get Agent Tasks', -240, {}),
				type: 'n8n-nodes-unpod.unpodAgent',
				parameters: { operation: 'getTasks', agent, limit: 20 },
			},
			node('runs-panel', 'Get Runs', 0, { operation: 'getRuns', limit: 10 }),
			node('run-tasks-panel', 'Get Run Tasks', 240, {
				operation: 'getRunTasks',
				runId: '={{ $json.run_id }}',
				returnAll: true,
			}),
		],
		connections: { 'Get Runs': { main: [[{ node: 'Get Run Tasks', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	});
	if (res.status !== 200)
		throw new Error(`Saving the panel workflow failed: ${res.status} ${JSON.stringify(res.data)}`);
	const workflowId = res.data.data.id;
	return [
		{ workflowId, nodeId: 'agent-panel', file: 'node-agent' },
		{ workflowId, nodeId: 'runs-panel', file: 'space-get-runs' },
		{ workflowId, nodeId: 'run-tasks-panel', file: 'space-get-run-tasks' },
	];
}

/**
 * The campaign page as a browser shows it, on a wide screen and a phone: 400 rows of a campaign
 * halfway through in a Data Table, the example's page nodes published with a login.
 */
async function campaignPage(env: Env, browser: Browser): Promise<void> {
	const login = { username: 'campaign', password: 'screenshots-page-password' };
	const credential = await env.n8nServer.rest.post('/credentials', {
		name: 'Campaign page login',
		type: 'httpBasicAuth',
		data: { user: login.username, password: login.password },
	});
	if (credential.status !== 200) throw new Error(`Saving the page's login failed: ${credential.status}`);
	// The rows still new last, as the runner leaves them (it takes rows in id order).
	const seeded = campaignRows(400);
	const rows = [...seeded.filter((r) => r.status !== 'new'), ...seeded.filter((r) => r.status === 'new')];
	const table = await env.n8nServer.dataTables.create('Unpod campaign', CAMPAIGN_COLUMNS, rows);
	// The figures the campaign would have kept for those rows (their decisions all today).
	const figuresTable = await env.n8nServer.dataTables.create('Unpod campaign figures', FIGURES_COLUMNS, [
		figuresRow(
			rows,
			new Date().toISOString().slice(0, 10),
			rows.findIndex((r) => r.status === 'new'),
		),
	]);
	// Unpod's side of it: the rows' calls in the space, most of them ended, for its figures.
	env.server.calls.addTasks(rows.map((r) => ({ name: r.name, contact_number: r.phone })));
	env.server.calls.finishCalls({ space: SEED.spaceToken, count: 300, failRate: 0.35 });
	const workflow = loadExample('data-table-campaign.json', {
		credential: DEMO_CREDENTIAL,
		filesDir: env.n8n.folder,
		dataTable: table,
		figuresTable,
		credentials: { httpBasicAuth: { id: credential.data.data.id, name: 'Campaign page login' } },
	});
	// Only the page's nodes: the campaign's own triggers want a webhook secret the demo's credential has not.
	const page = pathFrom(workflow, 'Campaign page');
	const saved = await env.n8nServer.rest.post('/workflows', {
		name: 'Unpod: the campaign page',
		nodes: page.nodes,
		connections: page.connections,
		settings: { executionOrder: 'v1' },
	});
	if (saved.status !== 200) throw new Error(`Saving the campaign workflow failed: ${saved.status}`);
	await env.n8nServer.setActive(saved.data.data.id, true);
	for (const [file, viewport] of [
		['campaign-page', { width: 1100, height: 900 }],
		['campaign-page-phone', { width: 390, height: 844 }],
	] as const) {
		const context = await browser.newContext({ httpCredentials: login, viewport });
		const page = await context.newPage();
		await page.goto(`${env.n8nServer.url}/webhook/unpod-campaign`);
		const path = join(OUT, `${file}.png`);
		await page.screenshot({ path, fullPage: true });
		console.log(`Saved ${path}`);
		await context.close();
	}
}

async function main() {
	// `npm run screenshots -- <workflow id>...` remakes only those example pictures (ids as the
	// files are named, e.g. mcpserver); without one, every picture.
	const only = process.argv.slice(2);
	mkdirSync(OUT, { recursive: true });
	ensureChromium();
	const env = await startDemoEnvironment({ say: (t) => console.log(t) });
	const browser = await startBrowser();
	try {
		if (!only.length) await campaignPage(env, browser);
		const context = await browser.newContext({ viewport: { width: 1440, height: 860 } });
		// Signed in as the owner the environment set up.
		await context.addCookies(
			env.n8nServer.cookie.split('; ').map((pair) => {
				const [name, ...value] = pair.split('=');
				return { name, value: value.join('='), url: env.n8nServer.url };
			}),
		);
		const page = await context.newPage();
		for (const workflow of env.workflows.filter((w) => !only.length || only.includes(w.id))) {
			await page.goto(`${env.n8nServer.url}/workflow/${workflow.id}`);
			await page.waitForSelector('[data-test-id="canvas-node"]', { timeout: 30_000 });
			await page.keyboard.press('Escape');
			await page.waitForTimeout(1500);
			const file = join(OUT, `${workflow.id}.png`);
			await page.screenshot({ path: file });
			console.log(`Saved ${file}`);
		}
		if (only.length) return;
		// The newer operations' parameter panels, as a user opens them.
		const panels = await panelWorkflow(env);
		// Each node as the examples set it up, one picture each for the README.
		for (const [workflowName, nodeName, file] of [
			['contacts CSV to call tasks', 'Create call tasks', 'node-task'],
			['recordings', 'Download Recording', 'task-download-recording'],
			['morning report', 'Unpod analytics', 'node-space'],
			['bridge', 'Connect provider', 'node-bridge'],
			['outcomes to a CRM', 'Unpod Trigger', 'node-trigger'],
			['in seconds', 'Unpod Call Events', 'call-events-trigger'],
		]) {
			const workflow = env.workflows.find(
				(w) => w.name.toLowerCase().includes(workflowName.toLowerCase()) && w.nodes.some((n) => n.name === nodeName),
			);
			if (!workflow) throw new Error(`No example workflow "${workflowName}" with a node "${nodeName}"`);
			panels.push({ workflowId: workflow.id, nodeId: workflow.nodes.find((n) => n.name === nodeName)!.id, file });
		}
		for (const panel of panels) {
			await page.goto(`${env.n8nServer.url}/workflow/${panel.workflowId}/${panel.nodeId}`);
			await page.waitForSelector('[data-test-id="ndv"]', { timeout: 30_000 });
			await page.waitForTimeout(1500);
			const file = join(OUT, `${panel.file}.png`);
			await page.screenshot({ path: file });
			console.log(`Saved ${file}`);
		}
	} finally {
		await browser.close();
		await env.stop();
	}
}

main().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
