// Counts the n8n processes a test run starts (dev/harness/processes.ts writes one line per start).
const { mkdtempSync, readFileSync, rmSync } = require('fs');
const { tmpdir } = require('os');
const { join } = require('path');

function startCounter() {
	const dir = mkdtempSync(join(tmpdir(), 'unpod-starts-'));
	const file = join(dir, 'starts');
	return {
		env: { UNPOD_N8N_STARTS: file },
		/** `n8n processes started: 17 (start 6, import:workflow 5, ...)`, and removes the file. */
		report() {
			let lines = [];
			try {
				lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
			} catch {
				// nothing started
			}
			rmSync(dir, { recursive: true, force: true });
			const byCommand = {};
			for (const command of lines) byCommand[command] = (byCommand[command] ?? 0) + 1;
			const detail = Object.entries(byCommand)
				.sort((a, b) => b[1] - a[1])
				.map(([command, n]) => `${command} ${n}`)
				.join(', ');
			return { count: lines.length, text: `n8n processes started: ${lines.length}${detail ? ` (${detail})` : ''}` };
		},
	};
}

module.exports = { startCounter };
