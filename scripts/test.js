#!/usr/bin/env node
// `npm test`: installs the test runtime if needed, builds, lints, then runs every suite.
const { execFileSync } = require('child_process');
const { ensureRuntime } = require('./runtime');

const started = Date.now();
const step = (title, cmd, args) => {
	console.log(`\n== ${title}`);
	execFileSync(cmd, args, { stdio: 'inherit' });
};

try {
	ensureRuntime();
	step('build', 'npm', ['run', 'build', '--silent']);
	step('lint', 'npm', ['run', 'lint', '--silent']);
	step('tests', 'npx', ['jest', ...process.argv.slice(2)]);
	console.log(`\nnpm test finished in ${Math.round((Date.now() - started) / 1000)} s`);
} catch (error) {
	process.exitCode = typeof error.status === 'number' && error.status ? error.status : 1;
}
