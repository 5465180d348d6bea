// A Jest reporter that writes the counts of a run, and the tests that failed, to the file
// UNPOD_JEST_COUNTS names, for test-compat's table. Unlike --json --outputFile, it prints
// nothing of its own. The failures go in the table because it is the last thing a run prints:
// a CI log cut to its tail still says which test failed and why.
const { writeFileSync } = require('fs');
const { relative } = require('path');

/** The first lines of a failure message, without colours. */
const firstLines = (message) =>
	message
		.replace(/\u001b\[[0-9;]*m/g, '')
		.split('\n')
		.map((line) => line.trimEnd())
		.filter(Boolean)
		.slice(0, 3)
		.join(' / ');

module.exports = class JestCounts {
	onRunComplete(_contexts, results) {
		if (!process.env.UNPOD_JEST_COUNTS) return;
		const failures = [];
		for (const file of results.testResults) {
			const path = relative(process.cwd(), file.testFilePath);
			if (file.testExecError) failures.push({ test: path, why: firstLines(file.testExecError.message ?? '') });
			for (const test of file.testResults) {
				if (test.status === 'failed') {
					failures.push({ test: `${path}: ${test.fullName}`, why: firstLines(test.failureMessages.join('\n')) });
				}
			}
		}
		writeFileSync(
			process.env.UNPOD_JEST_COUNTS,
			JSON.stringify({ passed: results.numPassedTests, failed: results.numFailedTests, failures }),
		);
	}
};
