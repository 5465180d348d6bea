#!/usr/bin/env node
// `npm test`: installs the test runtime if needed, builds, lints, runs n8n's scanner, then every suite.
const { execFileSync } = require('child_process');
const { existsSync, mkdtempSync, readFileSync, rmSync } = require('fs');
const { dirname, join } = require('path');
const { tmpdir } = require('os');
const { ensureRuntime } = require('./runtime');

const started = Date.now();
const step = (title, cmd, args) => {
	console.log(`\n== ${title}`);
	execFileSync(cmd, args, { stdio: 'inherit' });
};
const results = join(mkdtempSync(join(tmpdir(), 'unpod-jest-')), 'results.json');

try {
	ensureRuntime();
	step('build', 'npm', ['run', 'build', '--silent']);
	step('lint', 'npm', ['run', 'lint', '--silent']);
	step("n8n's community-package scan", 'npm', ['run', 'scan', '--silent']);
	step('tests', 'npx', ['jest', '--json', `--outputFile=${results}`, ...process.argv.slice(2)]);
} catch (error) {
	process.exitCode = typeof error.status === 'number' && error.status ? error.status : 1;
} finally {
	if (existsSync(results)) {
		const { numPassedTests, numFailedTests } = JSON.parse(readFileSync(results, 'utf8'));
		console.log(`\nTests: ${numPassedTests} passed, ${numFailedTests} failed`);
	}
	rmSync(dirname(results), { recursive: true, force: true });
	console.log(`npm test finished in ${Math.round((Date.now() - started) / 1000)} s`);
}
