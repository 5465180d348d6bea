/**
 * Consent as the law asks it, table-driven: for each rule of the table, a call it covers is
 * refused without the consent it asks and allowed with it; its exceptions, revocations, a consent
 * dated after now, Consent: Always, and a number whose country is not known. Pure: the rules and
 * records, no clock but the `now` given.
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import { CONSENT_RULES, consentRulesFor, strictestRule } from '../../../../nodes/shared/consent/rules';
import { DISCLOSURE_RULES } from '../../../../nodes/shared/disclosure/rules';
import type { ConsentRule } from '../../../../nodes/shared/consent/rules';
import { consentAsked, consentDocument, consentMissing, readConsent } from '../../../../nodes/shared/consent/record';
import type { ConsentRecord, ConsentValues } from '../../../../nodes/shared/consent/record';
import { PURPOSES } from '../../../../nodes/shared/callPurposes';
import type { Purpose } from '../../../../nodes/shared/callPurposes';
import type { SourceRead } from '../../../../nodes/shared/lawPlaces';

const NOW = Date.parse('2026-12-06T12:00:00Z');
const BEFORE = '2026-05-01T09:30:00Z';

const record = (values: ConsentValues): ConsentRecord => {
	const read = readConsent(values);
	if ('field' in read) throw new Error(read.message);
	return read.record;
};

/** What stops a call of `purpose` to `country` with `values`, under Where the Law Asks; undefined: it may go. */
const stops = (
	country: string | undefined,
	purpose: Purpose,
	values: ConsentValues,
	mode: 'whereLawAsks' | 'always' = 'whereLawAsks',
) => {
	const r = record(values);
	return consentMissing(r, consentAsked(mode, country, purpose, r), purpose, NOW);
};

const EXPRESS = { at: BEFORE, source: 'web form' };
const WRITTEN = {
	...EXPRESS,
	wording: 'I agree to receive marketing calls from Acme, also by an AI voice, at this number.',
};

describe('each rule: refused without the consent it asks, allowed with it', () => {
	const cases = CONSENT_RULES.flatMap((rule) =>
		rule.covers.map(
			(purpose) => [rule.where, rule.countries[0], purpose, rule] as [string, string, Purpose, ConsentRule],
		),
	);

	test.each(cases)('%s (%s), %s calls', (_, country, purpose, rule) => {
		// The strictest rule for this call is this one, or one that asks as much.
		const asked = consentAsked('whereLawAsks', country, purpose, { currentContract: false });
		expect(asked?.level).toBe(rule.asks);
		expect(stops(country, purpose, {})).toMatchObject({
			field: 'consent_at',
			law: expect.stringContaining(asked!.rule!.article),
		});
		const wordsKept = rule.asks === 'written' || rule.keeps === 'documented';
		expect(stops(country, purpose, wordsKept ? WRITTEN : EXPRESS)).toBeUndefined();
		if (wordsKept) expect(stops(country, purpose, EXPRESS)).toMatchObject({ field: 'consent_wording' });
	});

	test('every rule names its article, cites its source and says what was read', () => {
		for (const rule of CONSENT_RULES) {
			expect(rule.article.length).toBeGreaterThan(5);
			expect(rule.citation.length).toBeGreaterThan(80);
			expect(['text', 'regulator summary', 'summaries']).toContain(rule.read);
			for (const purpose of rule.covers) expect(PURPOSES).toContain(purpose);
		}
	});
});

describe('which calls each place asks consent for', () => {
	test.each([
		['US', 'sales', 'written', '47 CFR 64.1200(a)(2)-(3), (f)(9)'],
		['US', 'survey', 'express', '47 CFR 64.1200(a)(1)(iii)'],
		['US', 'informational', 'express', '47 CFR 64.1200(a)(1)(iii)'],
		['PR', 'informational', 'express', '47 CFR 64.1200(a)(1)(iii)'],
		['CA', 'sales', 'express', 'CRTC Unsolicited Telecommunications Rules, Part IV'],
		['FR', 'sales', 'express', 'Code de la consommation L223-1'],
		['RE', 'sales', 'express', 'Code de la consommation L223-1'],
		['GB', 'sales', 'express', 'PECR regulation 19'],
		['DE', 'sales', 'express', 'UWG 7(2), 7a'],
	])('%s, %s calls: %s consent (%s)', (country, purpose, level, article) => {
		const asked = consentAsked('whereLawAsks', country, purpose as Purpose, { currentContract: false });
		expect(asked).toMatchObject({ level, rule: { article } });
	});

	test('Germany asks express consent, documented: the text sets no written form, UWG 7a asks the record kept', () => {
		expect(consentAsked('whereLawAsks', 'DE', 'sales', { currentContract: false })).toMatchObject({
			level: 'express',
			keeps: 'documented',
		});
		expect(stops('DE', 'sales', EXPRESS)).toEqual({
			field: 'consent_wording',
			problem: 'no wording of what the person agreed to (consent_wording is empty)',
			law: 'the law of Germany asks express consent, documented, for sales or marketing calls (UWG 7(2), 7a)',
		});
	});

	test.each([
		['CA', 'informational'],
		['CA', 'survey'],
		['FR', 'informational'],
		['GB', 'survey'],
		['DE', 'informational'],
		['IN', 'sales'],
		['JE', 'sales'],
	])('%s, %s calls: none asked', (country, purpose) => {
		expect(consentAsked('whereLawAsks', country, purpose as Purpose, { currentContract: false })).toBeUndefined();
		expect(stops(country, purpose as Purpose, {})).toBeUndefined();
	});

	test("France's exception: a call in the course of a current contract needs no canvassing consent", () => {
		expect(stops('FR', 'sales', {})).toMatchObject({ field: 'consent_at' });
		expect(stops('FR', 'sales', { currentContract: 'TRUE' })).toBeUndefined();
		expect(stops('FR', 'sales', { currentContract: 'no' })).toMatchObject({ field: 'consent_at' });
		// The exception is France's alone: a US sales call still asks written consent.
		expect(stops('US', 'sales', { currentContract: true })).toMatchObject({ field: 'consent_at' });
	});

	test('the strictest of several rules holds', () => {
		const rules = consentRulesFor('US', 'sales', { currentContract: false });
		expect(strictestRule(rules)?.asks).toBe('written');
		expect(strictestRule([])).toBeUndefined();
	});
});

describe('a record that does not hold', () => {
	test('a revocation stops every call, asked or not, unless consent was given again after it', () => {
		expect(stops('US', 'informational', { ...EXPRESS, revokedAt: '2026-06-01T00:00:00Z' })).toMatchObject({
			field: 'consent_revoked_at',
			problem: 'consent revoked on 2026-06-01T00:00:00.000Z',
		});
		expect(stops('IN', 'sales', { revokedAt: 'yes' })).toMatchObject({
			problem: 'consent revoked',
			law: 'a person who revoked consent is not called',
		});
		expect(
			stops('US', 'informational', { at: '2026-07-01T00:00:00Z', revokedAt: '2026-06-01T00:00:00Z' }),
		).toBeUndefined();
		expect(stops('US', 'informational', { ...EXPRESS, revokedAt: 'no' })).toBeUndefined();
		expect(stops('US', 'informational', { ...EXPRESS, revokedAt: false })).toBeUndefined();
	});

	test('a consent dated after now is none yet', () => {
		expect(stops('US', 'informational', { at: '2026-12-07T09:00:00Z' })).toMatchObject({
			field: 'consent_at',
			problem: 'consent dated after now (2026-12-07T09:00:00.000Z)',
		});
		expect(stops('US', 'informational', { at: '2026-12-06T11:59:00Z' })).toBeUndefined();
	});

	test('Consent: Always asks express consent where no law does; an unknown country asks it too', () => {
		expect(stops('IN', 'sales', {}, 'always')).toMatchObject({ law: 'Consent: Always asks express consent' });
		expect(stops('IN', 'sales', EXPRESS, 'always')).toBeUndefined();
		expect(stops(undefined, 'informational', {})).toMatchObject({
			law: "the number's country is not known asks express consent",
		});
	});

	test('each law as an item names it: the place, the level, the purpose and the article', () => {
		expect(stops('US', 'sales', {})!.law).toBe(
			'the law of the United States asks written consent for sales or marketing calls (47 CFR 64.1200(a)(2)-(3), (f)(9))',
		);
		expect(stops('DE', 'sales', EXPRESS)!.problem).toBe(
			'no wording of what the person agreed to (consent_wording is empty)',
		);
	});
});

describe('reading a record', () => {
	test('dates as sheets, CRMs and n8n give them; a value that is no date names its field', () => {
		expect(record({ at: '2026-05-01' }).at).toBe(Date.parse('2026-05-01T00:00:00Z'));
		expect(record({ at: '2026-05-01 09:30:00' }).at).toBe(Date.parse('2026-05-01T09:30:00Z'));
		expect(record({ at: new Date(BEFORE) }).at).toBe(Date.parse(BEFORE));
		expect(record({ at: { toMillis: () => 5 } }).at).toBe(5);
		expect(readConsent({ at: 'last spring' })).toEqual({
			field: 'consent_at',
			message: 'consent_at "last spring" is not a date and time (use ISO 8601, e.g. 2026-05-01T09:30:00Z)',
		});
		expect(readConsent({ revokedAt: 'maybe' })).toMatchObject({ field: 'consent_revoked_at' });
		// A sheet's serial date is no instant: read as one, it would be a day of 1970.
		expect(readConsent({ at: 46082 })).toMatchObject({ field: 'consent_at' });
		// Digits as text are read as a number is: "1" is no day of 2001, nor "2026" its first.
		expect(readConsent({ at: '46082' })).toMatchObject({ field: 'consent_at' });
		expect(readConsent({ at: ' 1 ' })).toMatchObject({ field: 'consent_at' });
		expect(readConsent({ revokedAt: '2026' })).toMatchObject({ field: 'consent_revoked_at' });
		expect(record({ at: Date.parse(BEFORE) }).at).toBe(Date.parse(BEFORE));
		expect(record({ at: String(Date.parse(BEFORE)) }).at).toBe(Date.parse(BEFORE));
	});

	test('the record travels in the task document: only what it holds, dates in ISO 8601', () => {
		expect(consentDocument(record({ ...WRITTEN, currentContract: 'yes' }))).toEqual({
			consent_at: '2026-05-01T09:30:00.000Z',
			consent_source: 'web form',
			consent_wording: WRITTEN.wording,
			current_contract: true,
		});
		expect(consentDocument(record({ revokedAt: 'TRUE', source: '  ' }))).toEqual({ consent_revoked_at: 'yes' });
	});
});

describe("the docs' tables say what the code's tables hold", () => {
	const docs = readFileSync(join(__dirname, '..', '..', '..', '..', 'docs', 'consent.md'), 'utf8');
	/** The table rows of the section that starts at `heading`, up to the next section. */
	const rowsOf = (heading: string) => {
		const section = docs.split(/^## /m).find((part) => part.startsWith(heading));
		return (section ?? '').split('\n').filter((line) => line.startsWith('| '));
	};

	/** What a row's Read cell says for each `read` of the code's tables. */
	const READ: Record<SourceRead, RegExp> = {
		text: /^text/,
		'regulator summary': /^the \w+'s summary/,
		summaries: /summaries/,
	};
	const readCell = (rows: string[], where: string, article: string) => {
		const row = rows.find((line) => line.includes(where.replace(/^the /, '')) && line.includes(article));
		return row?.split('|').slice(-2)[0].trim();
	};

	test.each(CONSENT_RULES.map((rule) => [rule.where, rule.article, rule.read] as const))(
		'%s (%s): a row of the consent table naming its article, saying what was read (%s)',
		(where, article, read) => {
			expect(readCell(rowsOf('What the law asks'), where, article)).toMatch(READ[read]);
		},
	);

	test.each(DISCLOSURE_RULES.map((rule) => [rule.where, rule.article.split(',')[0], rule.read] as const))(
		'%s: a row of the disclosure table naming its source (%s), saying what was read (%s)',
		(where, article, read) => {
			expect(readCell(rowsOf('What every call says of itself'), where, article)).toMatch(READ[read]);
		},
	);
});
