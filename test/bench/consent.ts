/**
 * Consent at scale: 100,000 contacts in one Create, in a real n8n (the test runtime) against the
 * local server, across the consent table's places and one it has no rule for (the US, Canada,
 * France, the UK, Germany, India), each row carrying its consent record, 1 in 50 with none;
 * Consent Off, then Where the Law Asks: requests, contacts created and refused, the execution's
 * time and n8n's peak memory; and the record's check alone, in microseconds a row.
 */
import { N8N_VERSION } from '../../dev/harness/paths';
import { table } from '../../dev/harness/report';
import { chain, codeRowsNode } from '../../dev/harness/workflow-builders';
import { consentAsked, consentMissing, readConsent } from '../../nodes/shared/consent/record';
import { createNode, spaceRef } from '../helpers/nodes';
import { SEED } from '../../dev/server/seed';
import { startServer } from '../../dev/server/server';
import { createFigures } from './campaign-scale';

/** Each place in turn: a prefix and the digits it takes after it, and its country. */
const PLACES: Array<[string, number, string]> = [
	['+1212', 7, 'US'],
	['+1416', 7, 'CA'],
	['+3314', 7, 'FR'],
	['+44207', 7, 'GB'],
	['+4930', 8, 'DE'],
	['+9122', 8, 'IN'],
];
/**
 * The i-th contact: its number, and its consent record (none for 1 in 50). Numbers from 2 then
 * zeros up (+1 212 200-0000): a local part starting 0 is no number in use in libphonenumber's
 * data, and the Task node refuses it before consent is read.
 */
const contactOf = (i: number) => {
	const [prefix, digits] = PLACES[i % PLACES.length];
	const phone = prefix + String(2 * 10 ** (digits - 1) + i);
	if (i % 50 === 49) return { name: `Contact ${i}`, phone };
	return {
		name: `Contact ${i}`,
		phone,
		consent_at: '2026-03-02T10:15:00Z',
		consent_source: 'web form',
		consent_wording: 'I agree that Acme may call me about its offers, also with an AI voice.',
	};
};

/** The rows, made by a Code node in n8n. */
const rowsCode = (n: number) =>
	codeRowsNode(
		'Contacts',
		`const PLACES = ${JSON.stringify(PLACES)};
const contactOf = ${contactOf.toString()};
return Array.from({ length: ${n} }, (_, i) => ({ json: contactOf(i) }));`,
	);

/** The record's check alone, as the gate makes it for each row: read, what is asked, what is missing. */
function checkCost(n: number): { perRowUs: number; refused: number } {
	const now = Date.now();
	let refused = 0;
	const started = process.hrtime.bigint();
	for (let i = 0; i < n; i++) {
		const contact = contactOf(i);
		const read = readConsent({
			at: contact.consent_at,
			source: contact.consent_source,
			wording: contact.consent_wording,
		});
		if ('field' in read) continue;
		const asked = consentAsked('whereLawAsks', PLACES[i % PLACES.length][2], 'sales', read.record);
		if (consentMissing(read.record, asked, 'sales', now)) refused++;
	}
	return { perRowUs: Number(process.hrtime.bigint() - started) / 1000 / n, refused };
}

export async function benchConsent(n = 100_000): Promise<void> {
	console.log(
		`## Consent: ${n.toLocaleString('en')} contacts in one Create across the US, Canada, France, the UK, Germany and India, 1 in 50 without consent (n8n ${N8N_VERSION})\n`,
	);
	const cost = checkCost(n);
	console.log(
		`The consent check alone (the record read, what its law asks, what is missing): ${cost.perRowUs.toFixed(2)} µs a row; ${cost.refused.toLocaleString('en')} refused.\n`,
	);
	const server = await startServer();
	try {
		const results: Array<Record<string, string | number>> = [];
		for (const [i, consent] of (['off', 'whereLawAsks'] as const).entries()) {
			const space = `bench-consent-${i}`;
			server.store.addSpace(SEED.orgHandle, space, `Bench consent ${i}`, [SEED.agentHandle, SEED.secondAgentHandle]);
			server.resetTraffic();
			const create = createNode(
				// Skip Contacts Already Called on, as by default; calling hours off: the bench runs at any hour.
				{ space: spaceRef(space), callingHours: false, skipExisting: true, callContext: 'Spring offer', consent },
				{},
				'Create',
			);
			results.push({
				consent: consent === 'off' ? 'Off' : 'Where the Law Asks',
				...(await createFigures(server, chain(`benchConsent${i}`, [rowsCode(n), create]), n)),
			});
		}
		table(results);
		console.log(
			'\nOne create request per 100 contacts of one language (the opening is in the context): six places, three languages (English, French, German). Refused contacts are left out before any request, so Where the Law Asks makes no request more than Off.',
		);
	} finally {
		await server.stop();
	}
}
