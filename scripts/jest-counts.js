// A Jest reporter that writes the counts of a run to the file UNPOD_JEST_COUNTS names, for
// test-compat's table. Unlike --json --outputFile, it prints nothing of its own.
const { writeFileSync } = require('fs');

module.exports = class JestCounts {
	onRunComplete(_contexts, results) {
		if (!process.env.UNPOD_JEST_COUNTS) return;
		writeFileSync(
			process.env.UNPOD_JEST_COUNTS,
			JSON.stringify({ passed: results.numPassedTests, failed: results.numFailedTests }),
		);
	}
};
