#!/usr/bin/env node
// Installs the real n8n that tests, the demo and the benchmark run the package in, and says
// how to run it. Each runtime lives in its own folder under test/n8n/ because n8n needs
// install overrides that a community package's own package.json may not carry; a folder's
// package.json may hold an `unpodRuntime` recipe for n8n versions that need more:
//   nodePackage   the npm `node` package in that folder supplies the Node binary (Node 24 here)
//   ignoreScripts install with --ignore-scripts (some install scripts download from outside)
//   rebuild       native modules to build afterwards, with that Node
//   env           environment n8n needs to run (e.g. N8N_EXPRESSION_ENGINE)
// UNPOD_N8N_RUNTIME picks the folder (default test/n8n/2.8).
const { execFileSync, spawn } = require('child_process');
const { existsSync, readdirSync, readFileSync } = require('fs');
const { delimiter, join, relative, resolve } = require('path');

const ROOT = join(__dirname, '..');
const DEFAULT = join(ROOT, 'test', 'n8n', '2.8');

function runtimeDir() {
	return resolve(process.env.UNPOD_N8N_RUNTIME || DEFAULT);
}

function recipe(dir) {
	return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).unpodRuntime ?? {};
}

/** The folder of the Node binary and headers the `node` package installed, if the recipe asks for one. */
function nodeHome(dir) {
	if (!recipe(dir).nodePackage) return undefined;
	const base = join(dir, 'node_modules', 'node', 'node_modules');
	const arch = existsSync(base) ? readdirSync(base).find((name) => /^node-(linux|darwin|win)-/.test(name)) : undefined;
	return arch ? join(base, arch) : undefined;
}

/** What a process that runs this n8n needs on top of the caller's environment. */
function runtimeEnv(dir = runtimeDir(), base = process.env) {
	const env = { ...(recipe(dir).env ?? {}) };
	const home = nodeHome(dir);
	if (home) {
		env.PATH = `${join(home, 'bin')}${delimiter}${base.PATH ?? ''}`;
		env.npm_config_nodedir = home;
	}
	return env;
}

function n8nVersion(dir = runtimeDir()) {
	return JSON.parse(readFileSync(join(dir, 'node_modules', 'n8n', 'package.json'), 'utf8')).version;
}

function npm(dir, args, env = process.env) {
	execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, stdio: 'inherit', env });
}

/**
 * npm says nothing for minutes with --loglevel=error, and its own progress bar needs a
 * terminal: a small process beside it says how far the install is, every 20 s.
 */
function progress(dir, started) {
	const modules = join(dir, 'node_modules');
	// It ends with the install, and on its own if the installing process is gone.
	const code = `setInterval(() => {
		if (process.ppid !== ${process.pid}) process.exit(0);
		let n = 0;
		try { n = require('fs').readdirSync(${JSON.stringify(modules)}).length; } catch {}
		console.log('  ... installing n8n: ' + Math.round((Date.now() - ${started}) / 1000) + ' s, ' + n + ' packages in place');
	}, 20000);`;
	return spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'inherit', 'inherit'] });
}

function ensureRuntime(dir = runtimeDir()) {
	if (existsSync(join(dir, 'node_modules', '.bin', 'n8n')) && (!recipe(dir).nodePackage || nodeHome(dir))) return dir;
	const { ignoreScripts, rebuild = [], nodePackage } = recipe(dir);
	const wanted = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).dependencies?.n8n;
	console.log(
		`Installing n8n ${wanted} into ${relative(process.cwd(), dir) || dir}: the first run only (the demo, the tests ` +
			'and the bench share it). About 4 minutes and 2 to 3 GB on the 2-core development machine.',
	);
	const started = Date.now();
	const ticker = progress(dir, started);
	try {
		// `npm install` from the lockfile: `npm ci` rejects n8n's lockfile over optional
		// platform packages that npm itself leaves out of it.
		npm(dir, ['install', '--no-save', ...(ignoreScripts ? ['--ignore-scripts'] : [])]);
		if (nodePackage) {
			// Its install script fetches the platform's Node binary from the registry.
			npm(dir, ['rebuild', 'node']);
			if (!nodeHome(dir)) throw new Error(`The node package in ${dir} installed no Node binary`);
		}
		if (rebuild.length) npm(dir, ['rebuild', ...rebuild], { ...process.env, ...runtimeEnv(dir) });
	} finally {
		ticker.kill();
	}
	console.log(`n8n ${n8nVersion(dir)} installed in ${Math.round((Date.now() - started) / 1000)} s`);
	return dir;
}

module.exports = { ensureRuntime, runtimeDir, runtimeEnv, n8nVersion };

if (require.main === module) ensureRuntime();
