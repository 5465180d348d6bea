/**
 * The spend guards at scale: 100,000 contacts in one Create, in a real n8n (the test runtime)
 * against the local server, in a space that already holds a day of other workflows' calls; 1 in
 * 100 numbers of a kind that costs more (premium rate, shared cost, personal, satellite), Skip
 * Contacts Already Called on (the default). Off (no cap, costly numbers allowed) and on (Max Calls
 * per Day 50,000, costly numbers refused):
 * requests, contacts created, refused and held, the execution's time and n8n's peak memory; and
 * the number check alone, in microseconds a row.
 */
import { N8N_VERSION } from '../../dev/harness/paths';
import { table } from '../../dev/harness/report';
import { chain, codeRowsNode } from '../../dev/harness/workflow-builders';
import { NumberPlans } from '../../nodes/shared/allowedNumbers/numberPlans';
import { createNode, spaceRef } from '../helpers/nodes';
import { SEED } from '../../dev/server/seed';
import { startServer } from '../../dev/server/server';
import { createFigures } from './campaign-scale';

/** One contact in 100 is costly: each of these in turn, a prefix and the digits it takes after it. */
const COSTLY: Array<[string, number]> = [
	['+1900555', 4],
	['+44909', 7],
	['+33899', 6],
	['+499001', 6],
	['+87077', 7],
	['+33810', 6],
	['+4470', 8],
	['+88216', 6],
];
/** The i-th contact's number. */
const numberOf = (i: number) => {
	if (i % 100 !== 99) return `+1212${String(2_000_000 + i).padStart(7, '0')}`;
	const [prefix, digits] = COSTLY[Math.floor(i / 100) % COSTLY.length];
	return prefix + String(10 ** 9 + i).slice(-digits);
};
/** Calls other workflows placed in the space over the last day. */
const EARLIER_CALLS = 5_000;
const CAP = 50_000;

/** The rows, made by a Code node in n8n. */
const rowsCode = (n: number) =>
	codeRowsNode(
		'Contacts',
		`const numberOf = ${numberOf.toString()};
const COSTLY = ${JSON.stringify(COSTLY)};
return Array.from({ length: ${n} }, (_, i) => ({ json: { name: 'Contact ' + i, phone: numberOf(i) } }));`,
	);

/** The number check alone, as Create makes it for each row. */
function checkCost(n: number): { perRowUs: number; costly: number } {
	const plans = new NumberPlans();
	const started = process.hrtime.bigint();
	let costly = 0;
	for (let i = 0; i < n; i++) if (plans.of(numberOf(i)).costly) costly++;
	return { perRowUs: Number(process.hrtime.bigint() - started) / 1000 / n, costly };
}

export async function benchSpendGuards(n = 100_000): Promise<void> {
	console.log(
		`## Spend guards: ${n.toLocaleString('en')} contacts in one Create, 1 in 100 of a costly kind, in a space holding ${EARLIER_CALLS.toLocaleString('en')} calls of the last day (n8n ${N8N_VERSION})\n`,
	);
	const cost = checkCost(n);
	console.log(
		`The number check alone (kind and country, each row): ${cost.perRowUs.toFixed(2)} µs a row; ${cost.costly.toLocaleString('en')} costly numbers found.\n`,
	);
	const server = await startServer();
	try {
		const results: Array<Record<string, string | number>> = [];
		for (const [i, on] of [false, true].entries()) {
			const space = `bench-spend-${i}`;
			server.store.addSpace(SEED.orgHandle, space, `Bench spend ${i}`, [SEED.agentHandle, SEED.secondAgentHandle]);
			const earlier = server.calls.addTasks(
				Array.from({ length: EARLIER_CALLS }, (_, k) => ({
					name: `Earlier ${k}`,
					contact_number: `+1646${String(2_000_000 + k)}`,
				})),
				{ space },
			);
			earlier.forEach((task, k) => (task.createdUs = (Date.now() - (k % 1380) * 60_000) * 1000));
			const options = on ? { maxCallsPerDay: CAP } : { allowCostlyNumbers: true };
			const create = createNode(
				// Skip Contacts Already Called on, as by default: its read of the space is the one the cap uses.
				{ space: spaceRef(space), callingHours: false, skipExisting: true, callContext: 'Spring offer', options },
				{},
				'Create',
			);
			results.push({
				guards: on ? `on (cap ${CAP.toLocaleString('en')}, costly refused)` : 'off',
				...(await createFigures(server, chain(`benchSpend${i}`, [rowsCode(n), create]), n)),
			});
		}
		table(results);
	} finally {
		await server.stop();
	}
}
