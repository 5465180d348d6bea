#!/usr/bin/env node
// `npm run test:compat [-- 2.41|1.x]`: what differs between n8n versions, on the other versions
// users run: the suites that need real n8n processes (test/e2e: loading as a community package,
// the credential test and pickers, activation, polling, webhooks, the examples, the AI agent,
// the demo). Node logic (test/engine, test/unit) tests our code, not n8n's: `npm test` runs it
// once. Each runtime installs once per machine into the runtime cache (scripts/runtime.js).
const { execFileSync } = require('child_process');
const { existsSync, mkdtempSync, readFileSync, rmSync } = require('fs');
const { tmpdir } = require('os');
const { join } = require('path');
const { startCounter } = require('./n8n-starts');
const { ensureRuntime, n8nVersion, runtimeEnv } = require('./runtime');

const ROOT = join(__dirname, '..');
const RUNTIMES = [
	{ folder: '2.41', what: 'newest 2.x that installs here, on Node 24 (npm `node` package)' },
	{ folder: '1.x', what: 'newest 1.x, on Node 20 with the legacy expression engine' },
];

const only = process.argv.slice(2);
const chosen = RUNTIMES.filter((r) => !only.length || only.includes(r.folder));
const report = [];
const seconds = (since) => Math.round((Date.now() - since) / 1000);

execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
for (const { folder, what } of chosen) {
	const dir = join(ROOT, 'test', 'n8n', folder);
	const row = { runtime: folder, what, install_s: 0, tests_s: 0, passed: 0, failed: 0, starts: 0, ok: false };
	const starts = startCounter();
	report.push(row);
	const work = mkdtempSync(join(tmpdir(), 'unpod-compat-'));
	try {
		let since = Date.now();
		ensureRuntime(dir);
		row.install_s = seconds(since);
		const env = { ...process.env, UNPOD_N8N_RUNTIME: dir };
		const node = execFileSync('node', ['--version'], { env: { ...env, ...runtimeEnv(dir, env) } })
			.toString()
			.trim();
		row.runtime = `n8n ${n8nVersion(dir)} on Node ${node.replace(/^v/, '')}`;
		console.log(`\n== ${row.runtime}: the end-to-end suite`);
		since = Date.now();
		const results = join(work, 'counts.json');
		try {
			execFileSync('npx', ['jest', 'test/e2e', '--reporters=default', '--reporters=./scripts/jest-counts.js'], {
				cwd: ROOT,
				stdio: 'inherit',
				env: { ...env, ...starts.env, UNPOD_JEST_COUNTS: results },
			});
			row.ok = true;
		} catch {
			row.ok = false;
		}
		row.tests_s = seconds(since);
		const counted = starts.report();
		row.starts = counted.count;
		console.log(counted.text);
		if (existsSync(results)) {
			const { passed, failed } = JSON.parse(readFileSync(results, 'utf8'));
			Object.assign(row, { passed, failed });
			row.ok = row.ok && failed === 0;
		}
	} catch (error) {
		console.error(`${folder}: ${error.message}`);
		row.ok = false;
	} finally {
		rmSync(work, { recursive: true, force: true });
	}
}

console.log('\nCompatibility');
for (const r of report) {
	console.log(
		`  ${r.ok ? 'PASS' : 'FAIL'}  ${r.runtime}: ${r.passed} passed, ${r.failed} failed; install ${r.install_s} s, tests ${r.tests_s} s, ${r.starts} n8n processes`,
	);
}
process.exitCode = report.every((r) => r.ok) ? 0 : 1;
