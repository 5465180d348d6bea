/** `npm run bench [-- import]`: prints figures; it asserts nothing. */
import { benchCallAndWait } from './callAndWait';
import { benchCallEvents } from './callEvents';
import { benchImport } from './import';
import { benchGuard, benchRateLimit } from './ratelimit';
import { benchTrigger } from './trigger';

const sections: Record<string, () => Promise<void>> = {
	import: () => benchImport(Number(process.env.BENCH_ROWS ?? 10_000)),
	trigger: () => benchTrigger(),
	callEvents: () => benchCallEvents(),
	callAndWait: () => benchCallAndWait(),
	ratelimit: async () => {
		await benchRateLimit(Number(process.env.BENCH_ROWS ?? 10_000));
		await benchGuard();
	},
};

async function main() {
	const wanted = process.argv.slice(2);
	for (const name of wanted.length ? wanted : Object.keys(sections)) {
		if (!sections[name]) throw new Error(`Unknown section "${name}"; choose from ${Object.keys(sections).join(', ')}`);
		await sections[name]();
	}
}

main().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
