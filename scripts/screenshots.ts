/**
 * `npm run screenshots`: pictures of the example workflows in the n8n editor, for the README.
 * Runs the demo's environment and Debian's Chromium (`apt-get install chromium`), headless.
 */
import { mkdirSync } from 'fs';
import { join } from 'path';
import { chromium } from 'playwright-core';
import { DEMO_CREDENTIAL, startDemoEnvironment } from './demo-env';
import { SEED } from '../dev/server/seed';

const OUT = join(__dirname, '..', 'examples', 'screenshots');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

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
	const res = await env.n8nServer.rest.post('/workflows', {
		name: 'Follow an import by its runs',
		nodes: [
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
		{ workflowId, nodeId: 'runs-panel', file: 'space-get-runs' },
		{ workflowId, nodeId: 'run-tasks-panel', file: 'space-get-run-tasks' },
	];
}

async function main() {
	mkdirSync(OUT, { recursive: true });
	const env = await startDemoEnvironment({ say: (t) => console.log(t) });
	const browser = await chromium.launch({
		executablePath: CHROMIUM,
		args: [
			'--no-sandbox',
			'--disable-gpu',
			'--disable-quic',
			'--no-first-run',
			'--disable-background-networking',
			'--disable-component-update',
			'--disable-sync',
		],
	});
	try {
		const context = await browser.newContext({ viewport: { width: 1440, height: 860 } });
		// Signed in as the owner the environment set up.
		await context.addCookies(
			env.n8nServer.cookie.split('; ').map((pair) => {
				const [name, ...value] = pair.split('=');
				return { name, value: value.join('='), url: env.n8nServer.url };
			}),
		);
		const page = await context.newPage();
		for (const workflow of env.workflows) {
			await page.goto(`${env.n8nServer.url}/workflow/${workflow.id}`);
			await page.waitForSelector('[data-test-id="canvas-node"]', { timeout: 30_000 });
			await page.keyboard.press('Escape');
			await page.waitForTimeout(1500);
			const file = join(OUT, `${workflow.id}.png`);
			await page.screenshot({ path: file });
			console.log(`Saved ${file}`);
		}
		// The newer operations' parameter panels, as a user opens them.
		const panels = await panelWorkflow(env);
		const recordings = env.workflows.find((w) => w.nodes.some((n) => n.name === 'Download Recording'))!;
		panels.push({
			workflowId: recordings.id,
			nodeId: recordings.nodes.find((n) => n.name === 'Download Recording')!.id,
			file: 'task-download-recording',
		});
		const events = env.workflows.find((w) => w.nodes.some((n) => n.type.endsWith('unpodCallEventsTrigger')))!;
		panels.push({
			workflowId: events.id,
			nodeId: events.nodes.find((n) => n.type.endsWith('unpodCallEventsTrigger'))!.id,
			file: 'call-events-trigger',
		});
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
