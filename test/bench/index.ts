/**
 * `npm run bench [-- import] [-- --write]`: prints figures; it asserts nothing. `--write` also
 * puts each section's output, dated, with the machine it came from, in docs/figures.md.
 */
import { cpus } from 'os';
import { writeFigures } from './figures';
import { N8N_VERSION } from '../../dev/harness/paths';
import { benchApprovals } from './approvals';
import { benchCallAndWait } from './callAndWait';
import { benchCallingHours } from './calling-hours';
import { benchCallEvents } from './call-events';
import { benchCampaign, UNPOD_SIDES } from './campaign';
import { benchCampaignScale } from './campaign-scale';
import { benchDoNotCall } from './do-not-call';
import { benchImport } from './import';
import { benchMcp } from './mcp';
import { benchSpendGuards } from './spend-guards';
import { benchConsent } from './consent';
import { benchGuard, benchRateLimit } from './ratelimit';
import { benchTrigger } from './trigger';

const sections: Record<string, { about: string; run: () => Promise<void> }> = {
	import: {
		about: 'Bulk import of 10,000 rows (BENCH_ROWS): the Task node against one HTTP Request per row',
		run: () => benchImport(Number(process.env.BENCH_ROWS ?? 10_000)),
	},
	trigger: {
		about: 'Unpod Trigger at 1,000 to 100,000 open calls: requests a poll, polls to see an end, state size',
		run: () => benchTrigger(),
	},
	callEvents: {
		about: "Push against poll: from a call's end to the CRM step, both triggers at once",
		run: () => benchCallEvents(),
	},
	callAndWait: {
		about: 'Call and Wait with 1, 100 and 250 calls: requests, and how soon an end is seen',
		run: () => benchCallAndWait(),
	},
	approvals: {
		about:
			'Call and Wait for Approval: 100 waiting 2 minutes (BENCH_APPROVAL_WAIT_MINUTES: requests, executions held), woken by push and by poll',
		run: () => benchApprovals(100, Number(process.env.BENCH_APPROVAL_WAIT_MINUTES ?? 2) * 60_000),
	},
	campaign: {
		about: 'A 1,000-contact campaign run to its end by Follow Up, on a faked date: calls, requests, the window',
		run: () => benchCampaign(),
	},
	unpodFollowUps: {
		about: "The same campaign with Unpod's own follow-ups and redials on: who calls next, nobody twice",
		run: async () => {
			for (const side of UNPOD_SIDES) await benchCampaign(side);
		},
	},
	campaign100k: {
		about:
			'The Data Table campaign at 10,000 and 100,000 contacts in real n8n: the fill from a CSV, the first slices, the page and the report (time, peak memory)',
		run: () => benchCampaignScale(),
	},
	doNotCall: {
		about:
			"A campaign slice at 100,000 contacts as its schedule runs it: over a day's tasks, then with 10,000 numbers on the do-not-call list (requests, time)",
		run: () => benchDoNotCall(),
	},
	mcp: {
		about:
			"The MCP example's tools through n8n's MCP Server Trigger and the MCP SDK: time per request, requests to Unpod",
		run: () => benchMcp(),
	},
	callingHours: {
		about:
			"Keep to Calling Hours: 100,000 contacts across the law's places in one Create, off and on (requests, time, peak memory), the look-up per row, a 30-day limit's reads at 100,000 tasks, the added size",
		run: () => benchCallingHours(Number(process.env.BENCH_ROWS ?? 100_000)),
	},
	spendGuards: {
		about:
			'Max Calls per Day and the costly numbers at 100,000 contacts in one Create, off and on (requests, created, time, peak memory); the number check per row',
		run: () => benchSpendGuards(Number(process.env.BENCH_ROWS ?? 100_000)),
	},
	consent: {
		about:
			'Consent at 100,000 contacts in one Create across six places, 1 in 50 without consent: Off against Where the Law Asks (requests, created, time, peak memory); the check per row',
		run: () => benchConsent(Number(process.env.BENCH_ROWS ?? 100_000)),
	},
	ratelimit: {
		about: 'Bulk import under a 60 requests a minute plan; the duplicate guard against recent tasks',
		run: async () => {
			await benchRateLimit(Number(process.env.BENCH_ROWS ?? 10_000));
			await benchGuard();
		},
	},
};

const USAGE = [
	'Usage: npm run bench [-- <section>...] [-- --write]   (no section: all of them)',
	"  --write   also writes each section's output, dated, into docs/figures.md",
	'',
	'Sections:',
	...Object.entries(sections).map(([name, s]) => `  ${name.padEnd(12)} ${s.about}`),
].join('\n');

async function main() {
	const args = process.argv.slice(2);
	const write = args.includes('--write');
	const wanted = args.filter((a) => a !== '--write');
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
	for (const name of wanted.length ? wanted : Object.keys(sections)) {
		const printed: string[] = [];
		const log = console.log;
		console.log = (...parts: unknown[]) => {
			printed.push(parts.map(String).join(' '));
			log(...parts);
		};
		try {
			await sections[name].run();
		} finally {
			console.log = log;
		}
		if (write) {
			const machine = `${cpus().length} cores, Node ${process.version.slice(1)}, n8n ${N8N_VERSION}`;
			writeFigures(name, sections[name].about, printed, machine, new Date());
		}
	}
}

main().catch((error) => {
	console.error(error instanceof Error ? error.message : error);
	process.exitCode = 1;
});
