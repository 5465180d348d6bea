/**
 * Do-not-call: whether a call's analysis says the person asked not to be called again, whether a
 * row says so, and the list of numbers nobody may call. Pure: no request, no n8n context.
 */
import type { IDataObject } from 'n8n-workflow';
import { normalizePhone } from './contacts';
import { NumberPlans } from './allowedNumbers/numberPlans';

/**
 * A yes as sheets, CRMs and an agent's extractor write it: `true`, `"TRUE"`, `"yes"`, `"y"`, `1`,
 * `"1"`. Anything else, nothing included, is a no.
 */
export function saysYes(value: unknown): boolean {
	if (value === true || value === 1) return true;
	return typeof value === 'string' && /^\s*(true|yes|y|1)\s*$/i.test(value);
}

/** The extracted fields that carry the opt-out, the convention's name first. */
export const DO_NOT_CALL_FIELDS = ['caller_requested_do_not_call', 'do_not_call'];
const REASON_FIELDS = ['do_not_call_reason', 'caller_requested_do_not_call_reason'];
const REASON_LENGTH = 200;

/**
 * The opt-out in a call's extracted fields (`structured_data`): `do_not_call` true when either
 * field says yes; `do_not_call_reason`, shortened, when the agent gave one.
 */
export function optOutOf(structured: IDataObject | null): { do_not_call: boolean; do_not_call_reason: string | null } {
	const fields = structured ?? {};
	const doNotCall = DO_NOT_CALL_FIELDS.some((field) => saysYes(fields[field]));
	const reason = REASON_FIELDS.map((field) => fields[field]).find((v) => typeof v === 'string' && v.trim());
	const text = doNotCall && typeof reason === 'string' ? reason.trim().replace(/\s+/g, ' ') : null;
	return {
		do_not_call: doNotCall,
		do_not_call_reason: text && text.length > REASON_LENGTH ? `${text.slice(0, REASON_LENGTH - 1).trimEnd()}…` : text,
	};
}

/** Digits alone, the shortest tail that still names one line: shorter national numbers match only whole. */
const MIN_TAIL = 7;

/** Every tail of `digits` of at least MIN_TAIL digits, itself included. */
function tails(digits: string): string[] {
	const out: string[] = [];
	for (let start = 0; digits.length - start >= MIN_TAIL; start++) out.push(digits.slice(start));
	return out;
}

/** A number as the list compares it: `+` and digits with a country code, else digits without the trunk 0. */
function keyOf(number: string): { international: boolean; digits: string } {
	return number.startsWith('+')
		? { international: true, digits: number.slice(1) }
		: { international: false, digits: number.replace(/^0+/, '') };
}

/**
 * The numbers nobody may call. A number written another way is the same number (spaces, dashes,
 * dots, parentheses, 00 for +). Two numbers with their country codes match when equal. A number
 * without one leans to refusing: it matches any number that ends with its digits (its national
 * leading 0 dropped, at least 7 digits), whatever the country. Lookups cost the same at 10 or
 * 100,000 entries.
 */
export class DoNotCallList {
	private readonly international = new Set<string>();
	private readonly national = new Set<string>();
	/** Every tail of every entry: a national number looked up matches an entry that ends with it. */
	private readonly entryTails = new Set<string>();
	readonly size: number;

	constructor(numbers: string[]) {
		for (const number of numbers) {
			const { international, digits } = keyOf(number);
			(international ? this.international : this.national).add(digits);
			for (const tail of tails(digits)) this.entryTails.add(tail);
		}
		this.size = this.international.size + this.national.size;
	}

	/** Whether `number` (as normalizePhone writes it) is on the list. */
	has(number: string): boolean {
		const { international, digits } = keyOf(number);
		if (international ? this.international.has(digits) : this.national.has(digits)) return true;
		// An entry without a country code that the number ends with.
		if (tails(digits).some((tail) => this.national.has(tail))) return true;
		// A number without one that an entry ends with.
		return !international && digits.length >= MIN_TAIL && this.entryTails.has(digits);
	}
}

/** An entry of the list that is not a phone number: its place (from 1) and what it was. */
export interface BadEntry {
	position: number;
	value: string;
}

/** What a list entry may be: a number, or a row that holds one (a Data Table's or a sheet's). */
const NUMBER_KEYS = ['phone', 'contact_number', 'number', 'phone_number'];

function entryText(entry: unknown): string {
	if (entry !== null && typeof entry === 'object' && !Array.isArray(entry)) {
		const key = NUMBER_KEYS.find((k) => (entry as IDataObject)[k] !== undefined);
		return key === undefined ? JSON.stringify(entry) : String((entry as IDataObject)[key]);
	}
	return String(entry);
}

/**
 * The Do-Not-Call Numbers setting read as numbers: a list (numbers, texts, or rows with a `phone`
 * or `contact_number`), or text with one number a line or separated by commas or semicolons, or
 * a JSON array as text. Blank entries are left out; an entry that is not a phone number is
 * returned in `bad`, so that nothing is called with a list misread.
 */
export function parseDoNotCallList(value: unknown, defaultCountryCode = ''): { numbers: string[]; bad: BadEntry[] } {
	let entries: unknown[];
	if (value === undefined || value === null || value === '') entries = [];
	else if (Array.isArray(value)) entries = value;
	else if (typeof value === 'string' && value.trim().startsWith('[')) {
		try {
			const parsed: unknown = JSON.parse(value);
			entries = Array.isArray(parsed) ? parsed : [value];
		} catch {
			entries = value.split(/[\n,;]/);
		}
	} else if (typeof value === 'string') entries = value.split(/[\n,;]/);
	else entries = [value];

	const numbers: string[] = [];
	const bad: BadEntry[] = [];
	// One reader for the whole list: its patterns are compiled once.
	const plans = new NumberPlans();
	entries.forEach((entry, index) => {
		if (entry === null || entry === undefined) return;
		const text = entryText(entry).trim();
		if (!text) return;
		const number = normalizePhone(text, defaultCountryCode, plans);
		if (number) numbers.push(number);
		else bad.push({ position: index + 1, value: text.length > 60 ? `${text.slice(0, 57)}...` : text });
	});
	return { numbers, bad };
}
