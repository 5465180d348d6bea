#!/usr/bin/env node
// `npm run lint` runs this after the community plugin: n8n's own lint config for community
// nodes, the one @n8n/node-cli ships and `n8n-node lint` runs, on nodes/, credentials/ and
// package.json. The CLI (0.7 GB with its AI SDK) installs once per machine, as the n8n runtimes
// do, from the recipe in test/n8n-lint, with --ignore-scripts: a dependency's preinstall insists
// on pnpm.
const { execFileSync } = require('child_process');
const { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } = require('fs');
const { basename, dirname, join } = require('path');
const { installDir } = require('./runtime');

const ROOT = join(__dirname, '..');
const RECIPE = join(ROOT, 'test', 'n8n-lint');

function ensureInstalled() {
	const target = installDir(RECIPE);
	const eslint = join(target, 'node_modules', 'eslint', 'bin', 'eslint.js');
	if (existsSync(eslint)) return { target, eslint };
	console.log(`Installing @n8n/node-cli's lint config into ${target} (once per machine)...`);
	const work = `${target}.partial-${process.pid}`;
	rmSync(work, { recursive: true, force: true });
	mkdirSync(work, { recursive: true });
	for (const file of ['package.json', 'package-lock.json'])
		writeFileSync(join(work, file), readFileSync(join(RECIPE, file)));
	try {
		execFileSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
			cwd: work,
			stdio: 'inherit',
			env: { ...process.env, SCARF_ANALYTICS: 'false', DO_NOT_TRACK: '1' },
		});
		renameSync(work, target);
	} catch (error) {
		rmSync(work, { recursive: true, force: true });
		throw error;
	}
	// An older recipe's install goes.
	const prefix = `${basename(RECIPE)}-`;
	for (const name of readdirSync(dirname(target)))
		if (name.startsWith(prefix) && join(dirname(target), name) !== target && !name.includes('.partial-'))
			rmSync(join(dirname(target), name), { recursive: true, force: true });
	return { target, eslint };
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
