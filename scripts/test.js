#!/usr/bin/env node
// `npm test`: installs the test runtime if needed, builds, then lints, runs n8n's scanner and
// type-checks the tests side by side (each on one core), then every suite.
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
/** Steps at once, each one's output kept and printed when it ends; fails if one fails. */
const together = async (steps) => {
	const failed = [];
	await Promise.all(
		steps.map(
			({ title, what, cmd, args }) =>
				new Promise((done) => {
					const stepStarted = Date.now();
					const out = [];
					const child = spawn(cmd, args, { env: { ...process.env, ...starts.env } });
					child.stdout.on('data', (d) => out.push(d));
					child.stderr.on('data', (d) => out.push(d));
					// A command that cannot start: said as its output ('close' follows with no exit code).
					child.once('error', (error) => out.push(Buffer.from(`${error.message}\n`)));
					child.once('close', (code) => {
						console.log(`\n== ${title}: ${what}`);
						process.stdout.write(Buffer.concat(out));
						console.log(`   ${title}: ${code === 0 ? 'done' : `FAILED (exit ${code})`} in ${seconds(stepStarted)}`);
						if (code !== 0) failed.push(code);
						done();
					});
				}),
		),
	);
	if (failed.length) throw Object.assign(new Error('a step failed'), { status: failed[0] });
};
const scannerInstalled = existsSync(join(installDir(join(__dirname, '..', 'test', 'scan')), 'node_modules', '@n8n'));

async function main() {
	ensureRuntime();
	ensureChromium();
	ensureEngineNodes();
	step('build', 'TypeScript to dist/ and the icons (about 5 s)', 'npm', ['run', 'build', '--silent']);
	// Three single-threaded checks: side by side they take the longest one's time (about 20 s).
	await together([
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
	// Jest prints the count of passed and failed tests itself.
	step(
		'tests',
		'unit, engine and end-to-end (in real n8n, a Chromium and the demo) at once, three files at a time; ' +
			'about 3 minutes on 2 cores, quiet until a file ends',
		'npx',
		['jest', ...process.argv.slice(2)],
	);
}

main()
	.catch((error) => {
		process.exitCode = typeof error.status === 'number' && error.status ? error.status : 1;
	})
	.finally(() => {
		console.log(`\n${starts.report().text}`);
		console.log(`\nnpm test finished in ${seconds(started)}`);
	});
