/** `npm run test:queue`: the end-to-end tests in n8n's queue mode (one cluster, one test file at a time). */
const base = require('./jest.config');

module.exports = {
	...base,
	roots: ['<rootDir>/test/queue'],
	testPathIgnorePatterns: ['/node_modules/'],
	testTimeout: 600000,
	maxWorkers: 1,
};
