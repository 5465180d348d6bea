/**
 * The package's reading of numbers against libphonenumber-js's own (the dev dependency whose
 * metadata the data is generated from): on 20,000 numbers of each of a dozen calling codes, each
 * one in use exactly when libphonenumber says it is valid, of the same country, costly exactly
 * when libphonenumber's type is premium rate, shared cost or personal; and the number as it is
 * written nationally or with a trunk prefix after the code read as libphonenumber reads it.
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import type { PhoneNumber } from 'libphonenumber-js/max';
import { NumberPlans } from '../../../nodes/shared/allowedNumbers/numberPlans';
import { normalizePhone } from '../../../nodes/shared/contacts';

const CODES = ['1', '7', '33', '39', '44', '49', '52', '54', '55', '61', '64', '81', '86', '376'];
const PER_CODE = 20_000;
/** Where each code's costly numbers start, so that the sweep meets them: random digits rarely do. */
const COSTLY_STARTS: Record<string, string[]> = {
	'1': ['900', '500', '533', '544'],
	'33': ['89', '81', '82'],
	'44': ['909', '871', '70', '845'],
	'49': ['900', '180', '700', '137'],
	'61': ['190', '13'],
	'64': ['900'],
	'376': ['9', '1'],
};
const COSTLY: Record<string, string> = { PREMIUM_RATE: 'premium-rate', SHARED_COST: 'shared-cost', PERSONAL_NUMBER: 'personal' };

/** A fixed sequence, so that a failure names the same numbers on every run. */
function random(seed: number) {
	let state = seed;
	return (n: number) => {
		state = (state * 1103515245 + 12345) % 2147483648;
		return Math.floor((state / 2147483648) * n);
	};
}

const digits = (rand: (n: number) => number, count: number) =>
	Array.from({ length: Math.max(0, count) }, () => String(rand(10))).join('');

/** What libphonenumber says of `raw`, as the package says it. */
function reference(number: PhoneNumber | undefined) {
	if (!number?.isValid()) return { inUse: false };
	const costly = COSTLY[number.getType() ?? ''];
	return { inUse: true, number: number.number, country: number.country, ...(costly ? { costly } : {}) };
}

function ours(plans: NumberPlans, number: string | undefined) {
	const facts = number ? plans.of(number) : { notInUse: 'not a phone number' };
	if (!number || facts.notInUse) return { inUse: false };
	return { inUse: true, number, country: facts.country, ...(facts.costly ? { costly: facts.costly } : {}) };
}

test.each(CODES)('+%s: 20,000 numbers read as libphonenumber reads them', (code) => {
	const plans = new NumberPlans();
	const rand = random(Number(code));
	// The first digits of numbers found in use, by their type: later numbers start with them, so that every type is met often.
	const starts = new Map<string, string[]>(COSTLY_STARTS[code] ? [['costly', COSTLY_STARTS[code]]] : []);
	const disagreements: string[] = [];
	const counts = { inUse: 0, costly: 0, written: 0 };
	const compare = (written: string, theirs: ReturnType<typeof reference>, mine: ReturnType<typeof ours>) => {
		if (JSON.stringify(theirs) !== JSON.stringify(mine) && disagreements.length < 10)
			disagreements.push(`${written}: libphonenumber ${JSON.stringify(theirs)}, ours ${JSON.stringify(mine)}`);
	};
	for (let i = 0; i < PER_CODE; i++) {
		const known = [...starts.values()];
		const start = i % 2 && known.length ? known[rand(known.length)][rand(8)] ?? '' : '';
		// 7 to 15 digits in all (E.164's most): fewer or more is no phone number to the package.
		const length = Math.min(15 - code.length, Math.max(7 - code.length, 4 + rand(10)));
		const national = (start + digits(rand, length)).slice(0, length);
		const raw = `+${code}${national}`;
		const parsed = parsePhoneNumberFromString(raw);
		const theirs = reference(parsed);
		compare(raw, theirs, ours(plans, normalizePhone(raw, '', plans)));
		if (!theirs.inUse || !parsed) continue;
		counts.inUse++;
		if ('costly' in theirs) counts.costly++;
		const type = parsed.getType() ?? '';
		const bank = starts.get(type) ?? [];
		if (bank.length < 8) starts.set(type, [...bank, national.slice(0, 3)]);
		else bank[rand(8)] = national.slice(0, 3);
		// As people write it: nationally with its Default Country Code, and with a trunk prefix after the code.
		const nationally = parsed.formatNational();
		const national0 = nationally.replace(/\D/g, '');
		const trunk = national0.slice(0, national0.length - national.length);
		const forms = trunk ? [nationally, `+${code} (${trunk}) ${national}`] : [nationally];
		for (const form of forms) {
			counts.written++;
			const again = reference(parsePhoneNumberFromString(form, parsed.country));
			compare(`${form} (default +${code})`, again, ours(plans, normalizePhone(form, `+${code}`, plans)));
		}
	}
	expect(disagreements).toEqual([]);
	// The sweep met numbers in use and, for the codes that have them, costly ones.
	expect(counts.inUse).toBeGreaterThan(PER_CODE / 50);
	if (COSTLY_STARTS[code]) expect(counts.costly).toBeGreaterThan(10);
});
