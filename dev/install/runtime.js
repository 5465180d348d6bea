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
//
// The folder holds the recipe (package.json and lockfile); n8n itself installs into a per-user
// cache, as npm keeps its own: ~/.cache/n8n-nodes-unpod/runtimes/<folder>-<hash of the recipe>
// (UNPOD_RUNTIME_CACHE moves it). Another clone on the machine, or the next CI run, finds it
// there; a changed recipe installs anew and the older install of that folder is removed.
const { createHash } = require('crypto');
const { execFileSync, spawn } = require('child_process');
const { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } = require('fs');
const { homedir } = require('os');
const { basename, delimiter, join, relative, resolve } = require('path');

const ROOT = join(__dirname, '..', '..');
const DEFAULT = join(ROOT, 'test', 'n8n', '2.8');

function runtimeDir() {
	return resolve(process.env.UNPOD_N8N_RUNTIME || DEFAULT);
}

function cacheRoot() {
	if (process.env.UNPOD_RUNTIME_CACHE) return resolve(process.env.UNPOD_RUNTIME_CACHE);
	const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
	return join(base, 'n8n-nodes-unpod', 'runtimes');
}

/** Where the recipe in `dir` is installed: keyed by the folder and its package.json and lockfile. */
function installDir(dir = runtimeDir()) {
	const hash = createHash('sha256');
	for (const file of ['package.json', 'package-lock.json']) {
		const path = join(dir, file);
		hash.update(existsSync(path) ? readFileSync(path) : '');
	}
	return join(cacheRoot(), `${basename(dir)}-${hash.digest('hex').slice(0, 12)}`);
}

function recipe(dir) {
	return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).unpodRuntime ?? {};
}

/** The folder of the Node binary and headers the `node` package installed into `install`. */
function nodeHomeIn(install) {
	const base = join(install, 'node_modules', 'node', 'node_modules');
	const arch = existsSync(base) ? readdirSync(base).find((name) => /^node-(linux|darwin|win)-/.test(name)) : undefined;
	return arch ? join(base, arch) : undefined;
}

/** The same for an installed runtime, if its recipe asks for a Node of its own. */
function nodeHome(dir) {
	return recipe(dir).nodePackage ? nodeHomeIn(installDir(dir)) : undefined;
}

function envFor(dir, install, base = process.env) {
	const env = { ...(recipe(dir).env ?? {}) };
	const home = recipe(dir).nodePackage ? nodeHomeIn(install) : undefined;
	if (home) {
		env.PATH = `${join(home, 'bin')}${delimiter}${base.PATH ?? ''}`;
		env.npm_config_nodedir = home;
	}
	return env;
}

/** What a process that runs this n8n needs on top of the caller's environment. */
function runtimeEnv(dir = runtimeDir(), base = process.env) {
	return envFor(dir, installDir(dir), base);
}

function n8nVersion(dir = runtimeDir()) {
	return JSON.parse(readFileSync(join(installDir(dir), 'node_modules', 'n8n', 'package.json'), 'utf8')).version;
}

function npm(dir, args, env = process.env) {
	execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, stdio: 'inherit', env });
}

/** What npm runs the install with: no usage reports, temp files inside the install (removed with it). */
function installEnv(work, base = process.env) {
	// @scarf/scarf (via swagger-ui-dist) reports installs from its install script and keeps a
	// history file in the system temp folder unless told not to; DO_NOT_TRACK is the common opt-out.
	return { ...base, SCARF_ANALYTICS: 'false', DO_NOT_TRACK: '1', TMPDIR: join(work, '.tmp') };
}

/** The ticker of dev/install/install-progress.js: what the install is doing, every 15 s. */
function progress(dir, started) {
	const script = join(__dirname, 'install-progress.js');
	return spawn(process.execPath, [script, dir, String(started), String(process.pid)], {
		stdio: ['ignore', 'inherit', 'inherit'],
	});
}

function isInstalled(dir) {
	return (
		existsSync(join(installDir(dir), 'node_modules', '.bin', 'n8n')) && (!recipe(dir).nodePackage || nodeHome(dir))
	);
}

/**
 * Installs the recipe in `dir` into its cache folder with `install(work)`: beside its place
 * first and moved there when complete, so an interrupted install is never taken for one; the
 * folder's older installs go. Returns where it installed.
 */
function installRecipe(dir, install) {
	const target = installDir(dir);
	const work = `${target}.partial-${process.pid}`;
	rmSync(work, { recursive: true, force: true });
	mkdirSync(work, { recursive: true });
	for (const file of ['package.json', 'package-lock.json'])
		writeFileSync(join(work, file), readFileSync(join(dir, file)));
	try {
		install(work);
		rmSync(target, { recursive: true, force: true });
		renameSync(work, target);
	} catch (error) {
		rmSync(work, { recursive: true, force: true });
		throw error;
	}
	removeOlderInstalls(dir, target);
	return target;
}

/**
 * A tool's recipe in `dir` (n8n's lint CLI, its scanner) installed once per machine with
 * `npm ci --ignore-scripts` (a dependency's preinstall insists on pnpm); `entry`, a file of the
 * complete install, says whether it is there. Returns where it is installed.
 */
function ensureTool(dir, entry, what) {
	const installed = installDir(dir);
	if (existsSync(join(installed, entry))) return installed;
	console.log(`Installing ${what} into ${installed} (once per machine)...`);
	return installRecipe(dir, (work) =>
		execFileSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
			cwd: work,
			stdio: 'inherit',
			env: { ...process.env, SCARF_ANALYTICS: 'false', DO_NOT_TRACK: '1' },
		}),
	);
}

function ensureRuntime(dir = runtimeDir()) {
	if (isInstalled(dir)) return dir;
	const { ignoreScripts, rebuild = [], nodePackage } = recipe(dir);
	const wanted = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).dependencies?.n8n;
	const target = installDir(dir);
	console.log(
		`Installing n8n ${wanted} for ${relative(process.cwd(), dir) || dir} into ${target}: once per machine (the demo, ` +
			'the tests, the bench and other clones share it). It downloads from the npm registry and builds native modules: ' +
			'154 to 295 s and 2 GB for n8n 2.8.4 on the 2-core development machine, depending on the download.',
	);
	const started = Date.now();
	installRecipe(dir, (work) => {
		const env = installEnv(work);
		mkdirSync(env.TMPDIR);
		const ticker = progress(work, started);
		try {
			// `npm install` from the lockfile: `npm ci` rejects n8n's lockfile over optional
			// platform packages that npm itself leaves out of it.
			npm(work, ['install', '--no-save', ...(ignoreScripts ? ['--ignore-scripts'] : [])], env);
			if (nodePackage) {
				// Its install script fetches the platform's Node binary from the registry.
				npm(work, ['rebuild', 'node'], env);
				if (!nodeHomeIn(work)) throw new Error(`The node package in ${work} installed no Node binary`);
			}
			if (rebuild.length) npm(work, ['rebuild', ...rebuild], { ...env, ...envFor(dir, work) });
			rmSync(env.TMPDIR, { recursive: true, force: true });
		} finally {
			ticker.kill();
		}
	});
	if (!isInstalled(dir)) throw new Error(`n8n did not install into ${target}`);
	console.log(`n8n ${n8nVersion(dir)} installed in ${Math.round((Date.now() - started) / 1000)} s`);
	return dir;
}

const isAlive = (pid) => {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
};

/**
 * Earlier installs of the same folder (an older recipe) are 2 to 3 GB each, as are installs
 * left half done by a process that is gone.
 */
function removeOlderInstalls(dir, keep) {
	const prefix = `${basename(dir)}-`;
	for (const name of readdirSync(cacheRoot())) {
		if (!name.startsWith(prefix) || join(cacheRoot(), name) === keep) continue;
		const partial = /\.partial-(\d+)$/.exec(name);
		if (partial && isAlive(Number(partial[1]))) continue;
		rmSync(join(cacheRoot(), name), { recursive: true, force: true });
	}
}

/**
 * Where a check keeps what it learnt between runs of one checkout (tsc's build info, ESLint's
 * cache), beside the runtimes, so a clean clone in the same place starts warm. Both key their
 * entries by file content, so a stale entry is never trusted.
 */
function checkCache(name) {
	const dir = join(cacheRoot(), 'checks', createHash('sha256').update(ROOT).digest('hex').slice(0, 12));
	mkdirSync(dir, { recursive: true });
	return join(dir, name);
}

module.exports = {
	cacheRoot,
	checkCache,
	ensureRuntime,
	ensureTool,
	installDir,
	installEnv,
	installRecipe,
	runtimeDir,
	runtimeEnv,
	n8nVersion,
};

if (require.main === module) ensureRuntime();
