#!/usr/bin/env node
// `npm run test:queue`: the end-to-end tests in n8n's queue mode (Redis, PostgreSQL, a main
// and two workers), on the pinned n8n. Installs Debian's redis-server and postgresql when
// missing (services.js), and checks afterwards that no process the run started is left.
// `npm run test:compat -- --queue` runs it beside the version matrix.
const { execFileSync } = require('child_process');
const { existsSync, mkdtempSync, readFileSync, rmSync } = require('fs');
const { tmpdir } = require('os');
const { join } = require('path');
const { ensureRuntime } = require('../dev/install/runtime');
const { ensureServices } = require('../dev/install/services');

const ROOT = join(__dirname, '..');
const started = Date.now();
const seconds = (since) => Math.round((Date.now() - since) / 1000);

/** Processes still alive in a process group the run started (their leaders wrote them down). */
function leftBehind(groupsFile) {
	if (!existsSync(groupsFile)) return [];
	const groups = new Set(readFileSync(groupsFile, 'utf8').split('\n').filter(Boolean));
	return execFileSync('ps', ['-eo', 'pid=,pgid=,args='])
		.toString()
		.split('\n')
		.map((line) => line.trim().match(/^(\d+)\s+(\d+)\s+(.*)$/))
		.filter((m) => m && groups.has(m[2]))
		.map((m) => `${m[1]} ${m[3].slice(0, 120)}`);
}

const work = mkdtempSync(join(tmpdir(), 'unpod-queue-'));
const groupsFile = join(work, 'process-groups');
let exitCode = 1;
try {
	let since = Date.now();
	ensureServices();
	ensureRuntime();
	// test:compat --queue has built it already, and its runtimes copy dist/ meanwhile.
	if (!process.env.UNPOD_BUILT) execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
	console.log(`== queue mode: ready in ${seconds(since)} s`);
	since = Date.now();
	// Ports of its own (dev/harness/ports.ts), so that it can run beside the version matrix.
	const env = { UNPOD_PORT_SLOT: '2', ...process.env, UNPOD_PROCESS_GROUPS: groupsFile };
	try {
		execFileSync('npx', ['jest', '-c', 'jest.queue.config.js', ...process.argv.slice(2)], {
			cwd: ROOT,
			stdio: 'inherit',
			env,
		});
		exitCode = 0;
	} catch (error) {
		exitCode = error.status || 1;
	}
	console.log(`== queue-mode tests: ${seconds(since)} s`);
	const left = leftBehind(groupsFile);
	if (left.length) {
		console.error(`Processes left behind by the queue-mode run:\n  ${left.join('\n  ')}`);
		exitCode = exitCode || 1;
	} else {
		const count = readFileSync(groupsFile, 'utf8').split('\n').filter(Boolean).length;
		console.log(`== no process left: ${count} process groups started (Redis, PostgreSQL, n8n), all gone`);
	}
} catch (error) {
	console.error(error.message);
	exitCode = 1;
} finally {
	rmSync(work, { recursive: true, force: true });
	console.log(`npm run test:queue finished in ${seconds(started)} s`);
	process.exitCode = exitCode;
}
