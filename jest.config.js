/** Unit tests and end-to-end tests (real n8n against the local Unpod server). */
module.exports = {
	preset: 'ts-jest',
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'test/tsconfig.json', diagnostics: { warnOnly: false } }] },
	setupFilesAfterEnv: ['<rootDir>/test/helpers/jest-setup.ts'],
	testTimeout: 180000,
	maxWorkers: 2,
	forceExit: true,
};
