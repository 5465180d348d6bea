#!/usr/bin/env node
// `npm test`: installs the test runtime if needed, builds, lints, runs n8n's scanner, type-checks the tests, then every suite.
// Each step says what it does and how long it took: the tests are quiet until a file ends.
const { execFileSync } = require('child_process');
const { existsSync } = require('fs');
const { join } = require('path');
const { startCounter } = require('./n8n-starts');
const { ensureEngineNodes } = require('./engine-nodes');
const { ensureRuntime } = require('./runtime');
const { ensureChromium } = require('./services');

const started = Date.now();
const starts = startCounter();
const seconds = (since) => `${Math.round((Date.now() - since) / 1000)} s`;
const step = (title, what, cmd, args) => {
	console.log(`\n== ${title}: ${what}`);
	const stepStarted = Date.now();
	execFileSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...starts.env } });
	console.log(`   ${title}: done in ${seconds(stepStarted)}`);
};
const scannerInstalled = existsSync(join(__dirname, '..', 'test', 'scan', 'node_modules', '@n8n'));

try {
	ensureRuntime();
	ensureChromium();
	ensureEngineNodes();
	step('build', 'TypeScript to dist/ and the icons (about 5 s)', 'npm', ['run', 'build', '--silent']);
	step(
		'lint',
		"n8n's community-node rules, then n8n's own lint config (@n8n/node-cli; installed once per machine)",
		'npm',
		['run', 'lint', '--silent'],
	);
	step(
		"n8n's community-package scan",
		'@n8n/scan-community-package on the source and the packed tarball (about 5 s' +
			(scannerInstalled ? ')' : '; first it installs the scanner into test/scan, once: about 10 s more, 0.1 GB)'),
		'npm',
		['run', 'scan', '--silent'],
	);
	step('type check of the tests', 'tsc on test/ (about 5 s)', 'npx', ['tsc', '-p', 'test/tsconfig.json']);
	// Jest prints the count of passed and failed tests itself.
	step(
		'tests',
		'unit, engine and end-to-end (in real n8n, a Chromium and the demo) at once, three files at a time; ' +
			'about 2 minutes on 2 cores, quiet until a file ends',
		'npx',
		['jest', ...process.argv.slice(2)],
	);
} catch (error) {
	process.exitCode = typeof error.status === 'number' && error.status ? error.status : 1;
} finally {
	console.log(`\n${starts.report().text}`);
	console.log(`\nnpm test finished in ${seconds(started)}`);
}
