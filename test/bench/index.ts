/** `npm run bench [-- import]`: prints figures; it asserts nothing. */
import { benchCallAndWait } from './callAndWait';
import { benchCallEvents } from './callEvents';
import { benchImport } from './import';
import { benchGuard, benchRateLimit } from './ratelimit';
import { benchTrigger } from './trigger';

const sections: Record<string, { about: string; run: () => Promise<void> }> = {
	import: {
		about: 'Task > Create against the HTTP Request node: 10,000 rows (BENCH_ROWS), time and memory',
		run: () => benchImport(Number(process.env.BENCH_ROWS ?? 10_000)),
	},
	trigger: { about: 'Unpod Trigger: time to the first emitted call, requests a poll', run: () => benchTrigger() },
	callEvents: { about: 'Call Events Trigger: deliveries a second, each one execution', run: () => benchCallEvents() },
	callAndWait: { about: 'Task > Call and Wait: 100 calls followed to their end', run: () => benchCallAndWait() },
	ratelimit: {
		about: 'An import under a 60 requests a minute plan, and the duplicate guard on a re-import',
		run: async () => {
			await benchRateLimit(Number(process.env.BENCH_ROWS ?? 10_000));
			await benchGuard();
		},
	},
};

const USAGE = [
	'Usage: npm run bench [-- <section>...]   (no section: all of them)',
	'',
	'Sections:',
	...Object.entries(sections).map(([name, s]) => `  ${name.padEnd(12)} ${s.about}`),
].join('\n');

async function main() {
	const wanted = process.argv.slice(2);
	if (wanted.some((a) => a === '--help' || a === '-h')) {
		console.log(USAGE);
		return;
	}
	const unknown = wanted.filter((name) => !sections[name]);
	if (unknown.length) {
		console.error(`Unknown section ${unknown.map((n) => `"${n}"`).join(', ')}.\n\n${USAGE}`);
		process.exitCode = 2;
		return;
	}
	for (const name of wanted.length ? wanted : Object.keys(sections)) await sections[name].run();
}

main().catch((error) => {
	console.error(error instanceof Error ? error.message : error);
	process.exitCode = 1;
});
