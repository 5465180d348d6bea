/** Debian's Chromium, headless, through playwright-core: pages read as a person's browser shows them. */
import { existsSync } from 'fs';
import { chromium, type Browser } from 'playwright-core';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { chromiumPath } = require('../install/services.js') as { chromiumPath: () => string };

export const BROWSER_ARGS = [
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

/** Starts Chromium; `npm test` and `npm run test:compat` install it (apt) when it is missing. */
export async function startBrowser(): Promise<Browser> {
	const path = chromiumPath();
	if (!existsSync(path))
		throw new Error(`No Chromium at ${path}: run npm test (it installs Debian's chromium) or apt-get install chromium`);
	return await chromium.launch({ executablePath: path, args: BROWSER_ARGS });
}
