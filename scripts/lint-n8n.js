#!/usr/bin/env node
// `npm run lint` runs this after the community plugin: n8n's own lint config for community
// nodes, the one @n8n/node-cli ships and `n8n-node lint` runs, on nodes/, credentials/ and
// package.json. The CLI (0.7 GB with its AI SDK) installs once per machine, as the n8n runtimes
// do, from the recipe in test/n8n-lint, with --ignore-scripts: a dependency's preinstall insists
// on pnpm.
const { execFileSync } = require('child_process');
const { join } = require('path');
const { ensureTool } = require('../dev/install/runtime');

const ROOT = join(__dirname, '..');
const RECIPE = join(ROOT, 'test', 'n8n-lint');
const ESLINT = join('node_modules', 'eslint', 'bin', 'eslint.js');

const target = ensureTool(RECIPE, ESLINT, "@n8n/node-cli's lint config");
const eslint = join(target, ESLINT);
try {
	execFileSync(
		process.execPath,
		[eslint, '--config', join(RECIPE, 'eslint.config.mjs'), '--max-warnings=0', 'nodes', 'credentials', 'package.json'],
		{ cwd: ROOT, stdio: 'inherit', env: { ...process.env, UNPOD_N8N_LINT: target } },
	);
} catch {
	process.exitCode = 1;
}
