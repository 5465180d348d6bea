#!/usr/bin/env node
// `npm test`: installs the test runtime if needed, builds, then runs every suite with the lint,
// n8n's scanner and the tests' type check beside it (each check on one core).
// Each step says what it does and how long it took: the tests are quiet until a file ends.
const { execFileSync, spawn } = require('child_process');
const { existsSync } = require('fs');
const { join } = require('path');
const { startCounter } = require('./n8n-starts');
const { ensureEngineNodes } = require('../dev/install/engine-nodes');
const { checkCache, ensureRuntime, installDir } = require('../dev/install/runtime');
const { ensureChromium } = require('../dev/install/services');

const started = Date.now();
const starts = startCounter();
const seconds = (since) => `${Math.round((Date.now() - since) / 1000)} s`;
const step = (title, what, cmd, args) => {
	console.log(`\n== ${title}: ${what}`);
	const stepStarted = Date.now();
	execFileSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...starts.env } });
	console.log(`   ${title}: done in ${seconds(stepStarted)}`);
};
/**
 * Steps at once: the first (the tests) prints as it goes, the others keep their output and print
 * it when they end; resolves with the first failed step's exit code, 0 when none failed.
 */
const together = async ([live, ...quiet]) => {
	const run = ({ title, what, cmd, args }, printsAsItGoes) =>
		new Promise((done) => {
			const stepStarted = Date.now();
			const out = [];
			if (printsAsItGoes) console.log(`\n== ${title}: ${what}`);
			// The checks at a lower priority: they take the cores the tests leave while n8n's processes
			// wait, and never slow the tests, whose files are the longest part (a clean clone's cold
			// checks took 60 s of CPU from the tests: npm test 275 s there, against 220 s here).
			const child = spawn(printsAsItGoes ? cmd : 'nice', printsAsItGoes ? args : ['-n', '15', cmd, ...args], {
				env: { ...process.env, ...starts.env },
				stdio: printsAsItGoes ? 'inherit' : 'pipe',
			});
			child.stdout?.on('data', (d) => out.push(d));
			child.stderr?.on('data', (d) => out.push(d));
			// A command that cannot start: said as its output ('close' follows with no exit code).
			child.once('error', (error) => out.push(Buffer.from(`${error.message}\n`)));
			child.once('close', (code) => {
				if (!printsAsItGoes) console.log(`\n== ${title}: ${what}`);
				process.stdout.write(Buffer.concat(out));
				console.log(`   ${title}: ${code === 0 ? 'done' : `FAILED (exit ${code})`} in ${seconds(stepStarted)}`);
				done(code === 0 ? 0 : (code ?? 1));
			});
		});
	const codes = await Promise.all([run(live, true), ...quiet.map((s) => run(s, false))]);
	const failed = codes.find((code) => code !== 0);
	if (failed) throw Object.assign(new Error('a step failed'), { status: failed });
};
const scannerInstalled = existsSync(join(installDir(join(__dirname, '..', 'test', 'scan')), 'node_modules', '@n8n'));

async function main() {
	ensureRuntime();
	ensureChromium();
	ensureEngineNodes();
	step('build', 'TypeScript to dist/ and the icons (about 5 s)', 'npm', ['run', 'build', '--silent']);
	// The tests and three single-threaded checks at once: the checks take about 25 s of CPU, the
	// tests about 3 minutes of wall time, much of it waiting on n8n's processes (npm test here: 249 to
	// 254 s with the checks first, 220 and 221 s beside them).
	await together([
		// Jest prints the count of passed and failed tests itself.
		{
			title: 'tests',
			what:
				'unit, engine and end-to-end (in real n8n, a Chromium and the demo) at once, three files at a time; ' +
				'about 3 minutes on 2 cores, quiet until a file ends',
			cmd: 'npx',
			args: ['jest', ...process.argv.slice(2)],
		},
		{
			title: 'lint',
			what: "n8n's community-node rules, then n8n's own lint config (@n8n/node-cli; installed once per machine)",
			cmd: 'npm',
			args: ['run', 'lint', '--silent'],
		},
		{
			title: "n8n's community-package scan",
			what:
				'@n8n/scan-community-package on the source and the packed tarball' +
				(scannerInstalled ? '' : ' (first it installs the scanner, once per machine: 0.1 GB)'),
			cmd: 'npm',
			args: ['run', 'scan', '--silent'],
		},
		{
			title: 'type check of the tests',
			what: 'tsc on test/ (incremental: its build info in the runtime cache)',
			cmd: 'npx',
			args: ['tsc', '-p', 'test/tsconfig.json', '--incremental', '--tsBuildInfoFile', checkCache('tests.tsbuildinfo')],
		},
	]);
}

main()
	.catch((error) => {
		process.exitCode = typeof error.status === 'number' && error.status ? error.status : 1;
	})
	.finally(() => {
		console.log(`\n${starts.report().text}`);
		console.log(`\nnpm test finished in ${seconds(started)}`);
	});
