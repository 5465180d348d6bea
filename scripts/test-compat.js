#!/usr/bin/env node
// `npm run test:compat [-- 2.41|1.x]`: what differs between n8n versions, on the other versions
// users run: the suites that need real n8n processes (test/e2e: loading as a community package,
// the credential test and pickers, activation, polling, webhooks, the examples, the AI agent,
// the MCP server). Node logic (test/engine, test/unit), and an end-to-end test of it whose n8n
// side another test checks on every version (onPinnedN8n), tests our code, not n8n's: `npm test`
// runs it once. Each runtime installs once per machine into the runtime cache (dev/install/runtime.js).
//
// The runtimes are installed one after the other, then tested side by side, each in a port
// range of its own (UNPOD_PORT_SLOT): most of an end-to-end suite's time is spent waiting on
// n8n (its polls, its start), not computing. Each line a suite prints is prefixed with its runtime.
//
// `-- --queue` (CI) also runs `npm run test:queue`, once the first runtime's suite ends: the
// matrix's last minutes run one runtime, and queue mode spends most of its time waiting on its
// cluster (about one core), so the two share the machine better than one after the other.
const { execFileSync, spawn } = require('child_process');
const { existsSync, mkdtempSync, readFileSync, rmSync } = require('fs');
const { tmpdir } = require('os');
const { join } = require('path');
const { createInterface } = require('readline');
const { startCounter } = require('./n8n-starts');
const { ensureRuntime, n8nVersion, runtimeEnv } = require('../dev/install/runtime');
const { ensureChromium } = require('../dev/install/services');

const ROOT = join(__dirname, '..');
const RUNTIMES = [
	{ folder: '2.41', what: 'newest 2.x that installs here, on Node 24 (npm `node` package)' },
	{ folder: '1.x', what: 'newest 1.x, on Node 20 with the legacy expression engine' },
];

const withQueue = process.argv.includes('--queue');
const only = process.argv.slice(2).filter((arg) => arg !== '--queue');
const chosen = RUNTIMES.filter((r) => !only.length || only.includes(r.folder));
const seconds = (since) => Math.round((Date.now() - since) / 1000);

/** Installs a runtime (once per machine) and says what it is. */
function prepare({ folder, what }) {
	const dir = join(ROOT, 'test', 'n8n', folder);
	const row = {
		folder,
		dir,
		runtime: folder,
		what,
		install_s: 0,
		tests_s: 0,
		passed: 0,
		failed: 0,
		starts: 0,
		ok: false,
	};
	const since = Date.now();
	try {
		ensureRuntime(dir);
		const env = { ...process.env, UNPOD_N8N_RUNTIME: dir };
		const node = execFileSync('node', ['--version'], { env: { ...env, ...runtimeEnv(dir, env) } })
			.toString()
			.trim();
		row.runtime = `n8n ${n8nVersion(dir)} on Node ${node.replace(/^v/, '')}`;
		row.installed = true;
	} catch (error) {
		console.error(`${folder}: ${error.message}`);
	}
	row.install_s = seconds(since);
	return row;
}

/** Prints a child's output line by line, each line prefixed. */
function prefixed(stream, prefix, out) {
	createInterface({ input: stream }).on('line', (line) => out.write(`${prefix} ${line}\n`));
}

/** The end-to-end suite on one runtime, in port range `slot`. */
function runSuite(row, slot) {
	return new Promise((done) => {
		const work = mkdtempSync(join(tmpdir(), 'unpod-compat-'));
		const results = join(work, 'counts.json');
		const starts = startCounter();
		const since = Date.now();
		console.log(`\n== ${row.runtime}: the end-to-end suite`);
		const child = spawn(
			'npx',
			[
				'jest',
				'test/e2e',
				// The CRM and sheet examples' runs against vendor twins (crm-examples) are npm test's:
				// here they took 611 to 718 s of a runtime's suite into 127 to 269 s, and their load
				// made the Data Table campaign's poll miss its minute on 2.41.1. Their import and
				// node types are checked here with every example (examples.test.ts).
				'--testPathIgnorePatterns=/node_modules/',
				'--testPathIgnorePatterns=crm-examples',
				// `npm run demo` runs on the pinned n8n only; what it shows (the examples, both triggers)
				// is tested here by their own files.
				'--testPathIgnorePatterns=demo',
				// Two files at once each: a third on 2.41 (five at once on 2 cores) timed out its
				// webhook tests ("50 calls end at once") and its safety net.
				'--maxWorkers=2',
				'--reporters=default',
				'--reporters=./scripts/jest-counts.js',
			],
			{
				cwd: ROOT,
				env: {
					...process.env,
					...starts.env,
					UNPOD_N8N_RUNTIME: row.dir,
					UNPOD_PORT_SLOT: String(slot),
					// Tests of the package's own logic (onPinnedN8n, test/helpers/versions.ts) are npm test's.
					UNPOD_VERSION_MATRIX: '1',
					UNPOD_JEST_COUNTS: results,
				},
				stdio: ['ignore', 'pipe', 'pipe'],
			},
		);
		prefixed(child.stdout, `[${row.folder}]`, process.stdout);
		prefixed(child.stderr, `[${row.folder}]`, process.stderr);
		child.once('close', (code) => {
			row.tests_s = seconds(since);
			const counted = starts.report();
			row.starts = counted.count;
			console.log(`[${row.folder}] ${counted.text}`);
			if (existsSync(results)) Object.assign(row, JSON.parse(readFileSync(results, 'utf8')));
			row.ok = code === 0 && row.failed === 0 && row.passed > 0;
			rmSync(work, { recursive: true, force: true });
			done();
		});
	});
}

/** `npm run test:queue`, the package already built, each line it prints prefixed. */
function runQueue() {
	return new Promise((done) => {
		const since = Date.now();
		console.log('\n== queue mode, beside the matrix');
		const child = spawn('node', [join(__dirname, 'test-queue.js')], {
			cwd: ROOT,
			env: { ...process.env, UNPOD_BUILT: '1' },
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		prefixed(child.stdout, '[queue]', process.stdout);
		prefixed(child.stderr, '[queue]', process.stderr);
		child.once('error', (error) => console.error(`[queue] ${error.message}`));
		child.once('close', (code) => done({ ok: code === 0, seconds: seconds(since) }));
	});
}

async function main() {
	execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
	ensureChromium();
	const rows = chosen.map(prepare);
	// A runtime's port range is its place in RUNTIMES; queue mode has the third (test-queue.js).
	const slot = (row) => RUNTIMES.findIndex((r) => r.folder === row.folder);
	const lanes = rows.filter((r) => r.installed).map((row) => runSuite(row, slot(row)));
	const firstEnded = lanes.length ? Promise.race(lanes) : Promise.resolve();
	const queue = withQueue ? firstEnded.then(runQueue) : undefined;
	await Promise.all(lanes);
	const queueRow = await queue;
	console.log('\nCompatibility');
	for (const r of rows) {
		console.log(
			`  ${r.ok ? 'PASS' : 'FAIL'}  ${r.runtime}: ${r.passed} passed, ${r.failed} failed; install ${r.install_s} s, tests ${r.tests_s} s, ${r.starts} n8n processes`,
		);
		for (const f of r.failures ?? []) console.log(`        failed: ${f.test}\n          ${f.why.slice(0, 400)}`);
	}
	if (queueRow)
		console.log(`  ${queueRow.ok ? 'PASS' : 'FAIL'}  queue mode: ${queueRow.seconds} s (its own lines say more)`);
	process.exitCode = rows.every((r) => r.ok) && (!queueRow || queueRow.ok) ? 0 : 1;
}

main().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
