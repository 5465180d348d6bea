/**
 * What a call says of itself: where the law asks it to name the business and how to reach it,
 * the opening in the language of the place, and the evidence read from a transcript. Pure.
 */
import { DISCLOSURE_RULES, disclosureRulesFor, ruleAsking } from '../../../../nodes/shared/disclosure/rules';
import { LANGUAGES, languageOf, openingInstruction, openingLine } from '../../../../nodes/shared/disclosure/openings';
import { aiDisclosure, saysItIsAnAi } from '../../../../nodes/shared/disclosure/evidence';
import { PURPOSES } from '../../../../nodes/shared/callPurposes';
import type { Purpose } from '../../../../nodes/shared/callPurposes';

const asks = (country: string | undefined, region: string | undefined, purpose: Purpose) => {
	const rules = disclosureRulesFor(country, region, purpose);
	return {
		business: ruleAsking(rules, 'business')?.where ?? null,
		contact: ruleAsking(rules, 'contact')?.where ?? null,
		ai: ruleAsking(rules, 'ai')?.where ?? null,
		recorded: ruleAsking(rules, 'recorded')?.where ?? null,
	};
};

describe('where a call must say who calls and how to reach them', () => {
	test.each([
		[
			'US',
			'NY',
			'informational',
			{ business: 'the United States', contact: 'the United States', ai: null, recorded: null },
		],
		[
			'US',
			'CA',
			'survey',
			{
				business: 'the United States',
				contact: 'the United States',
				ai: 'California',
				recorded: 'the US states where every party consents to a recording',
			},
		],
		[
			'US',
			'FL',
			'sales',
			{
				business: 'the United States',
				contact: 'the United States',
				ai: null,
				recorded: 'the US states where every party consents to a recording',
			},
		],
		['CA', 'QC', 'informational', { business: 'Canada', contact: 'Canada', ai: null, recorded: null }],
		[
			'GB',
			undefined,
			'sales',
			{ business: 'the United Kingdom', contact: 'the United Kingdom', ai: null, recorded: null },
		],
		['GB', undefined, 'informational', { business: null, contact: null, ai: null, recorded: null }],
		['FR', undefined, 'sales', { business: 'France', contact: null, ai: 'the European Union', recorded: null }],
		['FR', undefined, 'informational', { business: null, contact: null, ai: 'the European Union', recorded: null }],
		['IT', undefined, 'sales', { business: null, contact: null, ai: 'the European Union', recorded: null }],
		['IN', undefined, 'sales', { business: null, contact: null, ai: null, recorded: null }],
		[undefined, undefined, 'sales', { business: null, contact: null, ai: null, recorded: null }],
	])('%s %s, %s calls', (country, region, purpose, expected) => {
		expect(asks(country, region, purpose as Purpose)).toEqual(expected);
	});

	test('every rule cites its source and says what was read', () => {
		for (const rule of DISCLOSURE_RULES) {
			expect(rule.citation.length).toBeGreaterThan(80);
			expect(['text', 'regulator summary', 'summaries']).toContain(rule.read);
			for (const purpose of rule.covers) expect(PURPOSES).toContain(purpose);
		}
	});
});

describe('the opening, in the language of the place', () => {
	test.each([
		['FR', undefined, 'fr'],
		['RE', undefined, 'fr'],
		['CA', 'QC', 'fr'],
		['CA', 'ON', 'en'],
		['DE', undefined, 'de'],
		['AT', undefined, 'de'],
		['MX', undefined, 'es'],
		['IT', undefined, 'it'],
		['NL', undefined, 'nl'],
		['PT', undefined, 'pt-PT'],
		['BR', undefined, 'pt-BR'],
		['BE', undefined, 'en'],
		['CH', undefined, 'en'],
		['US', 'CA', 'en'],
		[undefined, undefined, 'en'],
	])('%s %s: %s', (country, region, language) => {
		expect(languageOf(country, region)).toBe(language);
	});

	/** That the call is recorded, in each language: the last sentence of every opening. */
	const RECORDED: Record<(typeof LANGUAGES)[number], string> = {
		en: 'This call is recorded.',
		fr: 'Cet appel est enregistré.',
		de: 'Dieses Gespräch wird aufgezeichnet.',
		es: 'Esta llamada se está grabando.',
		it: 'Questa chiamata viene registrata.',
		nl: 'Dit gesprek wordt opgenomen.',
		'pt-PT': 'Esta chamada está a ser gravada.',
		'pt-BR': 'Esta chamada está sendo gravada.',
	};

	test.each(LANGUAGES.map((language) => [language]))(
		'%s: says an AI speaks, for whom, how to reach them, and that it is recorded',
		(language) => {
			const line = openingLine(language, { business: 'Acme Ltd', contact: '+1 800 555 0100' });
			expect(line).toContain('Acme Ltd');
			expect(line).toContain('+1 800 555 0100');
			expect(saysItIsAnAi(line)).toBe(true);
			const unnamed = openingLine(language, {});
			expect(saysItIsAnAi(unnamed)).toBe(true);
			expect(unnamed).not.toContain('Acme');
			expect(line.endsWith(RECORDED[language])).toBe(true);
			expect(unnamed.endsWith(RECORDED[language])).toBe(true);
		},
	);

	test('the words in English and French, and quotes in a name kept out of the quoted line', () => {
		expect(openingLine('en', { business: 'Acme "Best" Ltd' })).toBe(
			"Hello, this is an AI assistant, an artificial intelligence, calling on behalf of Acme 'Best' Ltd. This call is recorded.",
		);
		expect(openingLine('fr', { business: 'Acme', contact: '01 23 45 67 89' })).toBe(
			'Bonjour, je suis un assistant virtuel, une intelligence artificielle, qui appelle pour le compte de Acme, joignable au 01 23 45 67 89. Cet appel est enregistré.',
		);
		expect(openingInstruction('de', { business: 'Acme' })).toBe(
			'Opening, required by law: before anything else, say these words in German, word for word: "Guten Tag, hier spricht ein virtueller Assistent, eine künstliche Intelligenz, im Auftrag von Acme. Dieses Gespräch wird aufgezeichnet." Then say in one sentence why you are calling, from what follows.',
		);
	});
});

describe('evidence after the call: ai_disclosed from the first agent turns', () => {
	const turns = (...lines: Array<[string, string]>) => lines.map(([role, content]) => ({ role, content }));

	test('the opening said: true, quoting the line', () => {
		const opening = openingLine('fr', { business: 'Acme' });
		expect(aiDisclosure(turns(['assistant', opening], ['user', 'Oui ?']))).toEqual({
			ai_disclosed: true,
			disclosure_line: opening,
		});
		// Said in the agent's second turn: still its first turns.
		expect(
			aiDisclosure(
				turns(['assistant', 'Hello!'], ['user', 'Who is this?'], ['assistant', "I'm a virtual assistant for Acme."]),
			),
		).toEqual({ ai_disclosed: true, disclosure_line: "I'm a virtual assistant for Acme." });
	});

	test('not said in the first two agent turns: false; no agent turn at all: null', () => {
		expect(
			aiDisclosure(
				turns(
					['assistant', 'Hello Ann, this is Acme.'],
					['user', 'Hi'],
					['assistant', 'Great deal today.'],
					['user', 'Are you a bot?'],
					['assistant', 'I am an AI.'],
				),
			),
		).toEqual({ ai_disclosed: false, disclosure_line: null });
		expect(aiDisclosure([])).toEqual({ ai_disclosed: null, disclosure_line: null });
		expect(aiDisclosure(undefined)).toEqual({ ai_disclosed: null, disclosure_line: null });
		expect(aiDisclosure(turns(['user', 'Hello?']))).toEqual({ ai_disclosed: null, disclosure_line: null });
	});

	test('a transcript as text lines reads the same', () => {
		expect(aiDisclosure('Assistant: Guten Tag, hier spricht ein KI-Assistent.\nContact: Ja?')).toEqual({
			ai_disclosed: true,
			disclosure_line: 'Guten Tag, hier spricht ein KI-Assistent.',
		});
	});

	test("'ai' and 'ia' as words of Italian, Portuguese or Spanish are not a disclosure", () => {
		expect(saysItIsAnAi('Buongiorno, parlo ai clienti di Acme.')).toBe(false);
		expect(saysItIsAnAi('Ai, que susto!')).toBe(false);
		expect(saysItIsAnAi('I am an AI assistant from Acme.')).toBe(true);
		expect(saysItIsAnAi('This is an A.I. assistant from Acme.')).toBe(true);
	});

	test('a denial or a question says nothing of the agent: only a sentence that says an AI speaks counts', () => {
		expect(saysItIsAnAi("No, I'm not an AI.")).toBe(false);
		expect(saysItIsAnAi('Wait, are you an AI?')).toBe(false);
		expect(saysItIsAnAi('Nein, ich bin keine KI.')).toBe(false);
		expect(saysItIsAnAi("Non, je ne suis pas une IA. C'est Marie.")).toBe(false);
		expect(saysItIsAnAi('Is this an AI calling me?')).toBe(false);
		expect(saysItIsAnAi("There's no AI on this line.")).toBe(false);
		// A question, then the disclosure: the disclosure counts.
		expect(saysItIsAnAi('Are you there? I am a virtual assistant calling for Acme.')).toBe(true);
	});

	test('a negation elsewhere in the sentence, or a question after the disclosure, leaves the disclosure', () => {
		expect(saysItIsAnAi("I'm a virtual assistant, not a real person.")).toBe(true);
		expect(saysItIsAnAi("I'm not a real person: I'm Acme's assistant.")).toBe(true);
		expect(saysItIsAnAi("Hi, I'm an AI assistant from Acme, do you have a minute?")).toBe(true);
		expect(saysItIsAnAi('Sono un assistente virtuale, non una persona.')).toBe(true);
		expect(saysItIsAnAi("Don't worry, I'm an AI assistant and this call is recorded.")).toBe(true);
		expect(saysItIsAnAi('Je ne vous dérange pas longtemps, je suis une intelligence artificielle.')).toBe(true);
	});
});
