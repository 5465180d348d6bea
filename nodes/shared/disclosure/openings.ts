/**
 * The opening the package puts before every call's context: the words the agent says first, in
 * the language of the place where the phone rings, that an AI speaks, for whom, how to reach them,
 * and that the call is recorded (rules.ts says where the law asks which). Pure.
 */

export const LANGUAGES = ['en', 'fr', 'de', 'es', 'it', 'nl', 'pt-PT', 'pt-BR'] as const;
export type Language = (typeof LANGUAGES)[number];

export const LANGUAGE_NAMES: Readonly<Record<Language, string>> = {
	en: 'English',
	fr: 'French',
	de: 'German',
	es: 'Spanish',
	it: 'Italian',
	nl: 'Dutch',
	'pt-PT': 'Portuguese (Portugal)',
	'pt-BR': 'Portuguese (Brazil)',
};

/**
 * The language of each country whose people share one, by ISO 3166 code; any other (several
 * languages, as Belgium and Switzerland, or one the package has no words in) is spoken to in
 * English, unless the node's Opening Language says otherwise.
 */
const BY_COUNTRY: Readonly<Record<string, Language>> = Object.fromEntries(
	(
		[
			['fr', 'FR GP MQ GF RE YT MC BL MF PM NC PF WF'],
			['de', 'DE AT LI'],
			['es', 'ES MX AR CO CL PE VE EC GT CU BO DO HN PY SV NI CR PA UY'],
			['it', 'IT SM VA'],
			['nl', 'NL SR'],
			['pt-PT', 'PT AO MZ CV'],
			['pt-BR', 'BR'],
		] as Array<[Language, string]>
	).flatMap(([language, countries]) => countries.split(' ').map((country) => [country, language])),
);

/** The language of a number's place: its country's, and Quebec's French for a +1 area code of Quebec. */
export function languageOf(country: string | undefined, region: string | undefined): Language {
	if (country === 'CA' && region === 'QC') return 'fr';
	return (country && BY_COUNTRY[country]) || 'en';
}

/** Who calls, as the opening says it: the business and how to reach it, both optional. */
export interface Caller {
	business?: string;
	contact?: string;
}

type Words = (caller: Required<Pick<Caller, 'business'>> & Caller) => string;

/** The line in each language: with the business (and its contact, where given), and without. */
const LINES: Readonly<Record<Language, { named: Words; unnamed: string }>> = {
	en: {
		named: ({ business, contact }) =>
			`Hello, this is an AI assistant, an artificial intelligence, calling on behalf of ${business}${contact ? `, which you can reach at ${contact}` : ''}. This call is recorded.`,
		unnamed: 'Hello, this is an AI assistant, an artificial intelligence. This call is recorded.',
	},
	fr: {
		named: ({ business, contact }) =>
			`Bonjour, je suis un assistant virtuel, une intelligence artificielle, qui appelle pour le compte de ${business}${contact ? `, joignable au ${contact}` : ''}. Cet appel est enregistré.`,
		unnamed: 'Bonjour, je suis un assistant virtuel, une intelligence artificielle. Cet appel est enregistré.',
	},
	de: {
		named: ({ business, contact }) =>
			`Guten Tag, hier spricht ein virtueller Assistent, eine künstliche Intelligenz, im Auftrag von ${business}${contact ? `, erreichbar unter ${contact}` : ''}. Dieses Gespräch wird aufgezeichnet.`,
		unnamed:
			'Guten Tag, hier spricht ein virtueller Assistent, eine künstliche Intelligenz. Dieses Gespräch wird aufgezeichnet.',
	},
	es: {
		named: ({ business, contact }) =>
			`Hola, soy un asistente virtual, una inteligencia artificial, y llamo en nombre de ${business}${contact ? `, con quien puede contactar en el ${contact}` : ''}. Esta llamada se está grabando.`,
		unnamed: 'Hola, soy un asistente virtual, una inteligencia artificial. Esta llamada se está grabando.',
	},
	it: {
		named: ({ business, contact }) =>
			`Buongiorno, sono un assistente virtuale, un'intelligenza artificiale, e chiamo per conto di ${business}${contact ? `, che può contattare al ${contact}` : ''}. Questa chiamata viene registrata.`,
		unnamed: "Buongiorno, sono un assistente virtuale, un'intelligenza artificiale. Questa chiamata viene registrata.",
	},
	nl: {
		named: ({ business, contact }) =>
			`Goedendag, u spreekt met een virtuele assistent, een kunstmatige intelligentie, namens ${business}${contact ? `, bereikbaar op ${contact}` : ''}. Dit gesprek wordt opgenomen.`,
		unnamed:
			'Goedendag, u spreekt met een virtuele assistent, een kunstmatige intelligentie. Dit gesprek wordt opgenomen.',
	},
	'pt-PT': {
		named: ({ business, contact }) =>
			`Olá, sou um assistente virtual, uma inteligência artificial, e ligo em nome de ${business}${contact ? `, que pode contactar através do ${contact}` : ''}. Esta chamada está a ser gravada.`,
		unnamed: 'Olá, sou um assistente virtual, uma inteligência artificial. Esta chamada está a ser gravada.',
	},
	'pt-BR': {
		named: ({ business, contact }) =>
			`Olá, sou um assistente virtual, uma inteligência artificial, e estou ligando em nome de ${business}${contact ? `, que pode ser contatada pelo ${contact}` : ''}. Esta chamada está sendo gravada.`,
		unnamed: 'Olá, sou um assistente virtual, uma inteligência artificial. Esta chamada está sendo gravada.',
	},
};

/** That the call is commercial, said before that it is recorded, where the law asks it (France's L221-16). */
const COMMERCIAL: Readonly<Record<Language, string>> = {
	en: 'This is a sales call.',
	fr: "Il s'agit d'un appel commercial.",
	de: 'Es handelt sich um einen Werbeanruf.',
	es: 'Se trata de una llamada comercial.',
	it: 'Si tratta di una chiamata commerciale.',
	nl: 'Dit is een commercieel gesprek.',
	'pt-PT': 'Trata-se de uma chamada comercial.',
	'pt-BR': 'Trata-se de uma ligação comercial.',
};

/** What the opening says beyond who calls: that the call is commercial. */
export interface OpeningSays {
	commercial?: boolean;
}

/** The words the agent says first, in `language`. Quotes in a name become single quotes: the line is quoted. */
export function openingLine(language: Language, caller: Caller, says: OpeningSays = {}): string {
	const clean = (text: string | undefined) => text?.replace(/["\r\n]+/g, (m) => (m.startsWith('"') ? "'" : ' ')).trim();
	const business = clean(caller.business);
	const contact = clean(caller.contact);
	const line = business ? LINES[language].named({ business, contact }) : LINES[language].unnamed;
	if (!says.commercial) return line;
	// The last sentence says the call is recorded: that it is commercial goes before it.
	const recorded = line.lastIndexOf('. ') + 2;
	return `${line.slice(0, recorded)}${COMMERCIAL[language]} ${line.slice(recorded)}`;
}

/** How the opening begins in a call's context: the local server's agent, and a reader of a run, find it by it. */
export const OPENING_MARK = 'Opening, required by law:';

/**
 * The opening as the agent is told it, in the call's context before the user's: the line word for
 * word, first, then why the call is made, in a sentence.
 */
export function openingInstruction(language: Language, caller: Caller, says: OpeningSays = {}): string {
	return `${OPENING_MARK} before anything else, say these words in ${LANGUAGE_NAMES[language]}, word for word: "${openingLine(language, caller, says)}" Then say in one sentence why you are calling, from what follows.`;
}
