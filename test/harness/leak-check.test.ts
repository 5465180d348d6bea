/** The environment every test file runs in fails a file that leaves something open, by name. */
import { spawn } from 'child_process';
import { existsSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { createServer } from 'net';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const LeakCheckEnvironment = require('../helpers/leak-check-environment.js');

const environment = () =>
	new LeakCheckEnvironment(
		{ globalConfig: {}, projectConfig: { testEnvironmentOptions: { leakGraceMs: 300 } } },
		{ console, docblockPragmas: {}, testPath: 'test/example.test.ts' },
	);

test('a server or a process left running fails the file, named; one stopped in time passes', async () => {
	const env = environment();
	await env.setup();
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const port = (server.address() as { port: number }).port;
	const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' });
	try {
		await expect(env.teardown()).rejects.toThrow(
			new RegExp(
				`test/example.test.ts left 2 open 300 ms after it ended: .*a server listening on 127.0.0.1:${port}.*a process \\(pid ${child.pid}`,
			),
		);
	} finally {
		child.kill();
		await new Promise<void>((resolve) => server.close(() => resolve()));
	}
	await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(undefined)));

	// Closing as the file ends (an n8n that was just stopped) is waited for, not reported.
	const next = environment();
	await next.setup();
	const closing = createServer();
	await new Promise<void>((resolve) => closing.listen(0, '127.0.0.1', resolve));
	setTimeout(() => closing.close(), 50);
	await expect(next.teardown()).resolves.toBeUndefined();
});

test('a timer left holding the worker fails the file: counted, and named when UNPOD_LEAK_TIMERS=1 asks', async () => {
	const counted = environment();
	await counted.setup();
	const left = setTimeout(() => undefined, 30_000);
	try {
		await expect(counted.teardown()).rejects.toThrow(
			/test\/example.test.ts left 1 open 300 ms after it ended: 1 timer \(UNPOD_LEAK_TIMERS=1 names them\)/,
		);
	} finally {
		clearTimeout(left);
	}

	process.env.UNPOD_LEAK_TIMERS = '1';
	try {
		const named = environment();
		await named.setup();
		const poll = setInterval(function pollUnpod() {}, 60_000);
		const unref = setTimeout(() => undefined, 30_000).unref();
		try {
			await expect(named.teardown()).rejects.toThrow(
				/left 1 open 300 ms after it ended: a 60000 ms timer \(function pollUnpod/,
			);
		} finally {
			clearInterval(poll);
			clearTimeout(unref);
		}
		// A timer cleared before the file ends is not reported.
		const cleared = environment();
		await cleared.setup();
		clearTimeout(setTimeout(() => undefined, 30_000));
		await expect(cleared.teardown()).resolves.toBeUndefined();
	} finally {
		delete process.env.UNPOD_LEAK_TIMERS;
	}
});

test('a worker still holding something after its last file says what, and ends when Jest says so', async () => {
	const script = [
		`require(${JSON.stringify(require.resolve('../helpers/leak-check-environment.js'))});`,
		'setInterval(() => undefined, 60_000);',
		"process.send('ready');",
	].join('\n');
	// A Jest worker's shape: a Node process with an IPC channel to its parent.
	const worker = spawn(process.execPath, ['-e', script], {
		env: { ...process.env, JEST_WORKER_ID: '9' },
		stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
	});
	let stderr = '';
	worker.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
	const exited = new Promise<number | null>((resolve) => worker.once('exit', (code) => resolve(code)));
	try {
		await new Promise((resolve) => worker.once('message', resolve));
		// Jest's end message (CHILD_MESSAGE_END): the worker ends at once, saying what it still held.
		worker.send([2, false]);
		await expect(exited).resolves.toBe(0);
		expect(stderr).toMatch(
			new RegExp(`Jest worker ${worker.pid} ends with its last file done, still holding: .*Timeout`),
		);
	} finally {
		if (worker.exitCode === null && worker.signalCode === null) {
			worker.kill();
			await exited;
		}
	}
});

test("a file's temp folder (poll-env) is removed at the environment's teardown, which runs even when the file failed to load", async () => {
	// This file's own environment holds the list; poll-env puts its removal there, not in an afterAll.
	const list = (globalThis as { __removeAtTeardown?: Array<() => void> }).__removeAtTeardown!;
	const before = list.length;
	const previous = process.env.N8N_USER_FOLDER;
	delete process.env.N8N_USER_FOLDER;
	try {
		jest.isolateModules(() => require('../../dev/harness/poll-env'));
		const folder = process.env.N8N_USER_FOLDER!;
		expect(existsSync(folder)).toBe(true);
		expect(list).toHaveLength(before + 1);
		// A file that never ran: only its environment's set-up and teardown.
		const env = environment();
		await env.setup();
		env.global.__removeAtTeardown.push(list.pop()!);
		await env.teardown();
		expect(existsSync(folder)).toBe(false);
		expect(process.env.N8N_USER_FOLDER).toBeUndefined();
	} finally {
		if (previous !== undefined) process.env.N8N_USER_FOLDER = previous;
	}
});

test('under another test environment (no teardown list), poll-env refuses and leaves no temp folder', () => {
	const holder = globalThis as { __removeAtTeardown?: Array<() => void> };
	const list = holder.__removeAtTeardown;
	const previous = process.env.N8N_USER_FOLDER;
	// Other files' workers make poll folders in the shared temp folder meanwhile: this test follows
	// the folders this process makes, not the folder's listing.
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const made = jest.spyOn(require('fs') as typeof import('fs'), 'mkdtempSync');
	delete process.env.N8N_USER_FOLDER;
	delete holder.__removeAtTeardown;
	try {
		expect(() => jest.isolateModules(() => require('../../dev/harness/poll-env'))).toThrow(
			/project's test environment/,
		);
		const folders = made.mock.results.map((result) => String(result.value));
		expect(folders).toHaveLength(1);
		expect(folders.filter((folder) => existsSync(folder))).toEqual([]);
		expect(process.env.N8N_USER_FOLDER).toBeUndefined();
	} finally {
		made.mockRestore();
		holder.__removeAtTeardown = list;
		if (previous !== undefined) process.env.N8N_USER_FOLDER = previous;
	}
});
