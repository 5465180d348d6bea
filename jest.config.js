/** Unit tests, node logic in n8n's engine, and end-to-end tests in real n8n, against the local Unpod server. */
const { join } = require('path');
const { cacheRoot } = require('./dev/install/runtime');

module.exports = {
	preset: 'ts-jest',
	// Node's, plus a check that each file leaves nothing open in its worker (a process, a server, a timer).
	testEnvironment: '<rootDir>/test/helpers/leak-check-environment.js',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	// Queue mode needs Redis and PostgreSQL: `npm run test:queue`.
	testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/queue/'],
	// Transpiled only (isolatedModules in test/tsconfig.json): `npm test` type-checks the tests
	// once (tsc -p test/tsconfig.json), faster than ts-jest checking each file in each worker.
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'test/tsconfig.json' }] },
	setupFilesAfterEnv: ['<rootDir>/test/helpers/jest-setup.ts'],
	testTimeout: 180000,
	// Three files at once on two cores: the end-to-end files spend much of their time waiting on
	// calls and polls in n8n's own processes (npm test here: 200 s with three; 229 s with two,
	// measured before the demo had a file of its own).
	// test:compat runs two runtimes side by side with two each.
	maxWorkers: 3,
	// A worker whose heap passed this after a file is replaced by a fresh one. At the end Jest gives
	// its workers 500 ms to exit, and an exit takes Linux about 0.2 s a GB of the worker's memory,
	// three workers at once on two cores: the engine files grew a worker to 620-730 MB, its three
	// workers took 300-500 ms to exit, and one in three runs printed "A worker process has failed
	// to exit gracefully". With this limit they end at 200-450 MB.
	workerIdleMemoryLimit: '400MB',
	testSequencer: '<rootDir>/scripts/jest-sequencer.js',
	// The transform cache lives with the n8n runtimes, once per machine (Jest's default is the
	// system temp folder): a clean clone transforms nothing the machine already has (10 s of npm test).
	cacheDirectory: join(cacheRoot(), 'jest'),
};
