/**
 * `npm run test:queue`: the end-to-end tests in n8n's queue mode. Each file starts a cluster of
 * its own (Redis, PostgreSQL, a main and two workers), so the two files run side by side.
 */
const base = require('./jest.config');

module.exports = {
	...base,
	roots: ['<rootDir>/test/queue'],
	testPathIgnorePatterns: ['/node_modules/'],
	testTimeout: 600000,
	maxWorkers: 2,
};
