#!/usr/bin/env node
// `npm run lint` runs this after the community plugin: n8n's own lint config for community
// nodes, the one @n8n/node-cli ships and `n8n-node lint` runs, on nodes/, credentials/ and
// package.json. The CLI (0.7 GB with its AI SDK) installs once per machine, as the n8n runtimes
// do, from the recipe in test/n8n-lint, with --ignore-scripts: a dependency's preinstall insists
// on pnpm.
const { execFileSync } = require('child_process');
const { existsSync } = require('fs');
const { join } = require('path');
const { installDir, installRecipe } = require('./runtime');

const ROOT = join(__dirname, '..');
const RECIPE = join(ROOT, 'test', 'n8n-lint');
const eslintIn = (folder) => join(folder, 'node_modules', 'eslint', 'bin', 'eslint.js');

function ensureInstalled() {
	const installed = installDir(RECIPE);
	if (existsSync(eslintIn(installed))) return { target: installed, eslint: eslintIn(installed) };
	console.log(`Installing @n8n/node-cli's lint config into ${installed} (once per machine)...`);
	const target = installRecipe(RECIPE, (work) =>
		execFileSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
			cwd: work,
			stdio: 'inherit',
			env: { ...process.env, SCARF_ANALYTICS: 'false', DO_NOT_TRACK: '1' },
		}),
	);
	return { target, eslint: eslintIn(target) };
}

const { target, eslint } = ensureInstalled();
try {
	execFileSync(
		process.execPath,
		[eslint, '--config', join(RECIPE, 'eslint.config.mjs'), '--max-warnings=0', 'nodes', 'credentials', 'package.json'],
		{ cwd: ROOT, stdio: 'inherit', env: { ...process.env, UNPOD_N8N_LINT: target } },
	);
} catch {
	process.exitCode = 1;
}
