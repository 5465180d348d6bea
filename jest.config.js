/** Unit tests and end-to-end tests (real n8n against the local Unpod server). */
module.exports = {
	preset: 'ts-jest',
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'test/tsconfig.json', diagnostics: { warnOnly: false } }] },
	testTimeout: 180000,
	maxWorkers: 2,
	forceExit: true,
};
