#!/usr/bin/env node
// Installs the pinned n8n that tests, the demo and the benchmark run the package in.
// It lives in its own folder because n8n needs install overrides that a community
// package's own package.json may not carry.
const { execFileSync } = require('child_process');
const { existsSync } = require('fs');
const { join } = require('path');

const dir = process.env.UNPOD_N8N_RUNTIME || join(__dirname, '..', 'test', 'n8n', '2.8');

function ensureRuntime() {
	if (existsSync(join(dir, 'node_modules', '.bin', 'n8n'))) return dir;
	console.log(`Installing n8n for the tests into ${dir} (a few minutes, once)...`);
	const started = Date.now();
	// `npm install` from the lockfile: `npm ci` rejects n8n's lockfile over optional
	// platform packages that npm itself leaves out of it.
	execFileSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--loglevel=error'], {
		cwd: dir,
		stdio: 'inherit',
	});
	console.log(`n8n installed in ${Math.round((Date.now() - started) / 1000)} s`);
	return dir;
}

module.exports = { ensureRuntime };

if (require.main === module) ensureRuntime();
