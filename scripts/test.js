#!/usr/bin/env node
// `npm test`: installs the test runtime if needed, builds, lints, runs n8n's scanner, type-checks the tests, then every suite.
const { execFileSync } = require('child_process');
const { startCounter } = require('./n8n-starts');
const { ensureRuntime } = require('./runtime');
const { ensureChromium } = require('./services');

const started = Date.now();
const starts = startCounter();
const step = (title, cmd, args) => {
	console.log(`\n== ${title}`);
	execFileSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...starts.env } });
};

try {
	ensureRuntime();
	ensureChromium();
	step('build', 'npm', ['run', 'build', '--silent']);
	step('lint', 'npm', ['run', 'lint', '--silent']);
	step("n8n's community-package scan", 'npm', ['run', 'scan', '--silent']);
	step('type check of the tests', 'npx', ['tsc', '-p', 'test/tsconfig.json']);
	// Jest prints the count of passed and failed tests itself.
	step('tests', 'npx', ['jest', ...process.argv.slice(2)]);
} catch (error) {
	process.exitCode = typeof error.status === 'number' && error.status ? error.status : 1;
} finally {
	console.log(`\n${starts.report().text}`);
	console.log(`\nnpm test finished in ${Math.round((Date.now() - started) / 1000)} s`);
}
