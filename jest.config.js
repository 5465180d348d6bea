/** Unit tests and end-to-end tests (real n8n against the local Unpod server). */
module.exports = {
	preset: 'ts-jest',
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	// Queue mode needs Redis and PostgreSQL: `npm run test:queue`.
	testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/queue/'],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'test/tsconfig.json', diagnostics: { warnOnly: false } }] },
	setupFilesAfterEnv: ['<rootDir>/test/helpers/jest-setup.ts'],
	testTimeout: 180000,
	maxWorkers: 2,
};
