#!/usr/bin/env node
// `npm run lint`: the community-node rules (eslint.config.mjs), then n8n's own lint config for
// community nodes, the one @n8n/node-cli ships and `n8n-node lint` runs, on nodes/, credentials/
// and package.json. The CLI (0.7 GB with its AI SDK) installs once per machine, as the n8n
// runtimes do, from the recipe in test/n8n-lint, with --ignore-scripts: a dependency's preinstall
// insists on pnpm. Each pass keeps ESLint's cache by file content (`checkCache`): a file that did
// not change is not linted again.
const { execFileSync } = require('child_process');
const { join } = require('path');
const { checkCache, ensureTool } = require('../dev/install/runtime');

const ROOT = join(__dirname, '..');
const RECIPE = join(ROOT, 'test', 'n8n-lint');
const ESLINT = join('node_modules', 'eslint', 'bin', 'eslint.js');
const TARGETS = ['nodes', 'credentials', 'package.json'];
const cached = (name) => ['--cache', '--cache-strategy', 'content', '--cache-location', checkCache(`eslint-${name}`)];

const target = ensureTool(RECIPE, ESLINT, "@n8n/node-cli's lint config");
try {
	execFileSync(process.execPath, [join(ROOT, ESLINT), ...cached('community'), ...TARGETS], {
		cwd: ROOT,
		stdio: 'inherit',
	});
	execFileSync(
		process.execPath,
		[
			join(target, ESLINT),
			'--config',
			join(RECIPE, 'eslint.config.mjs'),
			'--max-warnings=0',
			...cached('n8n'),
			...TARGETS,
		],
		{ cwd: ROOT, stdio: 'inherit', env: { ...process.env, UNPOD_N8N_LINT: target } },
	);
} catch {
	process.exitCode = 1;
}
