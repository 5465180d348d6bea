/**
 * Evidence after a call: whether the agent said, in its first turns, that it is an AI, and the
 * line it said it in. Read from the transcript in any shape Unpod writes it (a list of turns, or
 * `Assistant: ...` lines). Pure.
 */
import type { IDataObject } from 'n8n-workflow';
import { objectOf } from '../values';

/** The agent's turns read: the opening and its first answer. */
const FIRST_TURNS = 2;
const LINE_LENGTH = 300;

/**
 * Words that say an AI speaks, in the opening's languages (openings.ts) and as agents put it
 * otherwise. The abbreviations match in capitals only: `ai` and `ia` are words of Italian,
 * Portuguese and Spanish.
 */
const AI_WORDS = [
	/\b(?:AI|IA|KI)\b|\bA\.I\./,
	/\bartificial intelligence\b|\b(?:virtual|automated|digital) assistant\b|\bchat ?bot\b|\bnot a (?:real )?(?:human|person)\b/i,
	/\bintelligence artificielle\b|\b(?:assistant|agent) virtuel\b/i,
	/\bk(?:ü|ue)nstliche[nr]? intelligenz\b|\bvirtuelle[rn]? assistent/i,
	/\binteligencia artificial\b|\basistente virtual\b/i,
	/\bintelligenza artificiale\b|\bassistente virtuale\b/i,
	/\bkunstmatige intelligentie\b|\bvirtuele assistent\b/i,
	/\bintelig[eê]ncia artificial\b|\bassistente virtual\b/i,
];

/**
 * A negation in the few words before the AI's words makes them a denial ("I'm not an AI", "je ne
 * suis pas une IA", "ich bin keine KI"), in the same languages. Only there: "I'm a virtual
 * assistant, not a real person" says it.
 */
const NEGATION = /\b(?:not|never|no|pas|jamais|nicht|kein\w*|non|não|niet|geen|nunca)\b|n't\b/i;
const WORDS_BEFORE = 3;

/** Whether `clause` says an AI speaks: AI's words in it with no negation just before them. */
function clauseSays(clause: string): boolean {
	return AI_WORDS.some((words) => {
		const found = words.exec(clause);
		if (!found) return false;
		const before = clause.slice(0, found.index).split(/\s+/).filter(Boolean).slice(-WORDS_BEFORE).join(' ');
		return !NEGATION.test(before);
	});
}

/**
 * Whether `line` says an AI speaks: one of its clauses (split at sentence ends and commas) says so
 * and is no question. "Are you an AI?" asks; "I'm an AI assistant, do you have a minute?" says.
 */
export const saysItIsAnAi = (line: string) =>
	line
		.split(/(?<=[.!?…])\s+/)
		.flatMap((sentence) => {
			const clauses = sentence.split(/[,;:]\s*/);
			// Only the clause the question mark ends is the question.
			return /\?\s*$/.test(sentence) ? clauses.slice(0, -1) : clauses;
		})
		.some(clauseSays);

/** The agent's first turns, in order. */
function agentTurns(transcript: unknown): string[] {
	if (Array.isArray(transcript))
		return transcript
			.map(objectOf)
			.filter((turn) => turn.role === 'assistant' || turn.role === 'agent' || turn.role === 'bot')
			.map((turn) => String(turn.content ?? turn.message ?? '').trim())
			.filter(Boolean)
			.slice(0, FIRST_TURNS);
	if (typeof transcript !== 'string') return [];
	return transcript
		.split('\n')
		.map((line) => /^\s*(?:assistant|agent|bot)\s*:\s*(.+)$/i.exec(line)?.[1]?.trim())
		.filter((line): line is string => Boolean(line))
		.slice(0, FIRST_TURNS);
}

/**
 * `ai_disclosed`: whether the agent's first turns say it is an AI (null when the agent said
 * nothing: no call, or no transcript); `disclosure_line`: the turn that said it.
 */
export function aiDisclosure(transcript: unknown): Pick<IDataObject, 'ai_disclosed' | 'disclosure_line'> {
	const turns = agentTurns(transcript);
	if (!turns.length) return { ai_disclosed: null, disclosure_line: null };
	const line = turns.find(saysItIsAnAi);
	return {
		ai_disclosed: line !== undefined,
		disclosure_line:
			line === undefined ? null : line.length > LINE_LENGTH ? `${line.slice(0, LINE_LENGTH - 1)}…` : line,
	};
}
