// Longest files first, so that the last one to start is a short one. Jest does this itself from
// the timings of earlier runs, but a clean clone (CI) has none and gets files ordered by size:
// there the longest end-to-end file started late and npm test took 239 s.
const Sequencer = require('@jest/test-sequencer').default;

const LONGEST_FIRST = [
	'test/e2e/examples.test.ts',
	'test/e2e/crm-examples.test.ts',
	'test/engine/UnpodTrigger/poll.load.test.ts',
	'test/e2e/call-events.test.ts',
	'test/e2e/demo.test.ts',
	'test/e2e/call-events-safety-net.test.ts',
	'test/e2e/trigger-n8n.test.ts',
	'test/e2e/mcp.test.ts',
	'test/e2e/editor.test.ts',
	'test/e2e/n8n-next.test.ts',
	'test/engine/rate-limits.test.ts',
];

class LongestFirst extends Sequencer {
	async sort(tests) {
		const rank = (test) => {
			const i = LONGEST_FIRST.findIndex((file) => test.path.endsWith(file));
			return i === -1 ? LONGEST_FIRST.length : i;
		};
		return [...(await super.sort(tests))].sort((a, b) => rank(a) - rank(b));
	}
}

module.exports = LongestFirst;
