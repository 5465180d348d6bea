/**
 * `npm run screenshots`: pictures of the example workflows in the n8n editor, for the README.
 * Runs the demo's environment and Debian's Chromium (`apt-get install chromium`), headless.
 */
import { mkdirSync } from 'fs';
import { join } from 'path';
import { chromium } from 'playwright-core';
import { startDemoEnvironment } from './demo-env';

const OUT = join(__dirname, '..', 'examples', 'screenshots');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

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
	} finally {
		await browser.close();
		await env.stop();
	}
}

main().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
