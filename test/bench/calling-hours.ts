/**
 * Keep to Calling Hours at scale: 100,000 contacts across the places of the law's table (14 US
 * states and Canada by area code, France, Australia and South Africa, fixed lines and mobiles) in
 * one Create, in a real n8n (the test runtime) against the local server, with the option off and
 * on: requests (against ceil(N/100) plus one per slot), the execution's time, the peak memory of
 * n8n's processes; the look-up alone in microseconds a row, for these places and for every North
 * American area code; a 30-day limit's reads of a space of 100,000 tasks, run after run; and what
 * the calling hours add to the package.
 */
import { readdirSync, readFileSync, statSync } from 'fs';
import { join } from 'path';
import { gzipSync } from 'zlib';
import { N8N_VERSION, ROOT } from '../../dev/harness/paths';
import { table } from '../../dev/harness/report';
import { chain, codeRowsNode } from '../../dev/harness/workflow-builders';
import { CallingHours } from '../../nodes/shared/callingHours/callee';
import { NORTH_AMERICAN_REGIONS } from '../../nodes/shared/callingHours/phoneZones.data';
import { RULES } from '../../nodes/shared/callingHours/rules';
import { stopExecuteContextTimers } from '../../dev/harness/engine';
import { createExecutor } from '../helpers/execute';
import { createNode, spaceRef } from '../helpers/nodes';
import { SEED } from '../../dev/server/seed';
import { startServer } from '../../dev/server/server';
import { mb, runInFreshN8n } from './campaign-scale';

const REGIONS = NORTH_AMERICAN_REGIONS.split(',').map((entry) => entry.split(':'));
const AREAS = REGIONS.map(([area]) => area);

/**
 * The prefixes of the law's places: each area code of a state or province with a rule, then
 * France's, Australia's and South Africa's fixed lines and mobiles; each followed by 7 digits.
 */
const LAW_PREFIXES = [
	...REGIONS.filter(([, region]) =>
		RULES.some((rule) => rule.countryCode === '1' && rule.regions?.includes(region)),
	).map(([area]) => `1${area}`),
	...['331', '334', '336', '337', '612', '613', '614', '618', '2711', '2721', '2782', '2783'],
];

/** The i-th contact of `prefixes`: each in turn, a spread of numbers. */
const numberOf = (i: number, prefixes = LAW_PREFIXES) =>
	`+${prefixes[i % prefixes.length]}${String(2_000_000 + ((i * 7919) % 7_999_999)).padStart(7, '0')}`;
const AREA_PREFIXES = AREAS.map((area) => `1${area}`);

/** The rows, made by a Code node in n8n. */
const rowsCode = (n: number) =>
	codeRowsNode(
		'Contacts',
		`const prefixes = ${JSON.stringify(LAW_PREFIXES)};
return Array.from({ length: ${n} }, (_, i) => ({ json: { name: 'Contact ' + i, phone: '+' + prefixes[i % prefixes.length] + String(2000000 + ((i * 7919) % 7999999)).padStart(7, '0') } }));`,
	);

/** The look-up alone, as Create does it for each row: where it rings, then the first legal instant. */
function lookUpCost(n: number, prefixes: string[]): { perRowUs: number; slots: number; held: number } {
	const now = Date.now();
	const started = process.hrtime.bigint();
	const hours = new CallingHours();
	const slots = new Set<number>();
	let held = 0;
	for (let i = 0; i < n; i++) {
		const callee = hours.calleeOf(numberOf(i, prefixes), undefined, { law: true, purpose: 'sales' });
		const at = hours.firstLegal(now, callee.windows);
		if (at === undefined) held++;
		else if (at !== now) slots.add(hours.slot(at, callee.windows, 15) ?? at);
	}
	const ns = Number(process.hrtime.bigint() - started);
	return { perRowUs: ns / 1000 / n, slots: slots.size, held };
}

/** Bytes of the built files the calling hours add (the generated data among them), raw and gzipped. */
function addedBytes(): { raw: number; gzip: number; data: number } {
	const files = [
		...readdirSync(join(ROOT, 'dist/nodes/shared/callingHours')).map((f) =>
			join(ROOT, 'dist/nodes/shared/callingHours', f),
		),
		...['hoursSettings', 'whenToCall'].flatMap((m) =>
			['.js', '.d.ts', '.js.map'].map((ext) => join(ROOT, 'dist/nodes/UnpodTask/placeCalls', m + ext)),
		),
	];
	const raw = files.reduce((sum, f) => sum + statSync(f).size, 0);
	const gzip = files.reduce((sum, f) => sum + gzipSync(readFileSync(f)).length, 0);
	const data = statSync(join(ROOT, 'dist/nodes/shared/callingHours/phoneZones.data.js')).size;
	return { raw, gzip, data };
}

export async function benchCallingHours(n = 100_000): Promise<void> {
	console.log(
		`## Calling hours: ${n.toLocaleString('en')} contacts across the law's places (${LAW_PREFIXES.length} prefixes: the area codes of 12 US states and Canada, France, Australia, South Africa) in one Create (n8n ${N8N_VERSION})\n`,
	);
	for (const [what, prefixes] of [
		["the law's places", LAW_PREFIXES],
		[`every North American area code (${AREAS.length})`, AREA_PREFIXES],
	] as const) {
		const cost = lookUpCost(n, [...prefixes]);
		console.log(
			`The look-up alone (where the number rings, then the first legal instant, for each row), ${what}: ${cost.perRowUs.toFixed(2)} µs a row; ` +
				`at ${new Date().toISOString().slice(11, 16)} UTC, ${cost.slots} distinct slots, ${cost.held} numbers with no legal hour.`,
		);
	}
	console.log('');
	await thirtyDayReads();
	const bytes = addedBytes();
	console.log(
		`What it adds to dist/: ${(bytes.raw / 1024).toFixed(0)} kB (${(bytes.gzip / 1024).toFixed(0)} kB gzipped, about what the tarball grows), ` +
			`of which the generated prefix table ${(bytes.data / 1024).toFixed(0)} kB.\n`,
	);

	const server = await startServer();
	try {
		// Off and on twice each, in turn, each in a space of its own (the limit of calls in 24 hours
		// reads the space's recent tasks) and in a fresh n8n: what a run before left in n8n's heap is
		// no one's baseline, and its garbage collector still moves the peak by tens of MB.
		const results: Array<Record<string, string | number>> = [];
		for (const [i, on] of [false, true, false, true].entries()) {
			const space = `bench-hours-${i}`;
			server.store.addSpace(SEED.orgHandle, space, `Bench hours ${i}`, [SEED.agentHandle, SEED.secondAgentHandle]);
			const create = createNode(
				{ space: spaceRef(space), callingHours: on, skipExisting: false, callContext: 'Spring offer' },
				{},
				'Create',
			);
			const run = await runInFreshN8n(server, chain(`benchHours${i}`, [rowsCode(n), create]));
			const posts = server.requests.filter((r) => r.method === 'POST');
			const slots = new Set(posts.map((p) => JSON.stringify((p.body as { schedule: unknown }).schedule)));
			results.push({
				'Keep to Calling Hours': on ? 'on' : 'off',
				requests: server.requests.length,
				'reads of recent tasks': server.requests.filter((r) => r.method === 'GET').length,
				'create requests': posts.length,
				'ceil(N/100) + slots': Math.ceil(n / 100) + (slots.size - 1),
				'schedules (now + slots)': slots.size,
				'execution time': `${(run.result / 1000).toFixed(1)} s`,
				'peak memory above idle': mb(run.peakAboveKb),
			});
		}
		table(results);
	} finally {
		await server.stop();
	}
}

/**
 * France's 4 calls in 30 days against a space of 100,000 tasks of the last 30 days: Create of 100
 * French contacts, run after run an hour apart in one workflow (the node's static data kept): the
 * first run reads the 30 days (and the days a call may be scheduled ahead), the next only what
 * is new. n8n's engine in this process, the local server.
 */
async function thirtyDayReads(tasks = 100_000): Promise<void> {
	const server = await startServer();
	try {
		const start = Date.now();
		const added = server.calls.addTasks(
			Array.from({ length: tasks }, (_, i) => ({ name: `Old ${i}`, contact_number: numberOf(i, ['336']) })),
			{ space: SEED.secondSpaceToken, pilot: SEED.secondAgentHandle },
		);
		added.forEach((task, i) => (task.createdUs = (start - (i * 30 * 86_400_000) / tasks) * 1000));
		const create = createExecutor(server, {
			space: { __rl: true, mode: 'token', value: SEED.secondSpaceToken },
			agent: { __rl: true, mode: 'handle', value: SEED.secondAgentHandle },
			callingHours: true,
			options: { outsideHours: 'hold' },
		});
		const rows: Array<Record<string, string | number>> = [];
		for (let run = 1; run <= 3; run++) {
			server.resetTraffic();
			create.newExecution();
			const contacts = Array.from({ length: 100 }, (_, i) => ({
				name: `New ${run}-${i}`,
				phone: numberOf(tasks + run * 100 + i, ['336']),
			}));
			const started = process.hrtime.bigint();
			await create.run(contacts);
			rows.push({
				run,
				'reads of the space': server.requests.filter((r) => r.method === 'GET').length,
				'create requests': server.requests.filter((r) => r.method === 'POST').length,
				time: `${(Number(process.hrtime.bigint() - started) / 1e9).toFixed(1)} s`,
			});
		}
		console.log(
			`A limit over 30 days (France, 4 calls) against a space of ${tasks.toLocaleString('en')} tasks of the last 30 days, Create of 100 French contacts run after run:\n`,
		);
		table(rows);
		console.log('');
	} finally {
		stopExecuteContextTimers();
		await server.stop();
	}
}
