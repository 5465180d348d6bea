/**
 * What a phone number is, from Google's libphonenumber metadata generated into the package
 * (numberPlans.data.ts): its country, and whether it is of a kind that costs far more than a
 * call (premium rate, shared cost, personal numbers, satellite and international network codes).
 * Pure: the nodes decide what to do with it.
 */
import { NUMBER_PLANS } from './numberPlans.data';

export interface NumberFacts {
	/** The country calling code (`44`), when the number has one the data lists. */
	callingCode?: string;
	/** ISO 3166 alpha-2 (`GB`), when the code belongs to countries. */
	country?: string;
	/** What makes it cost more (`premium-rate`), when it does. */
	costly?: string;
}

interface Compiled {
	countries: Array<{ country: string; test?: (national: string) => boolean }>;
	costly: Array<{ kind: string; pattern: RegExp }>;
	everyNumber?: string;
}

/** The data, compiled code by code as numbers need it: one instance for a run of a node. */
export class NumberPlans {
	private compiled = new Map<string, Compiled>();

	/** Every country the data knows, for checking what a user typed. */
	static readonly COUNTRIES: ReadonlySet<string> = new Set(
		Object.values(NUMBER_PLANS).flatMap((plan) => plan.countries.map((c) => (typeof c === 'string' ? c : c[0]))),
	);

	/** What `number` (E.164: a + and digits) is; nothing for a number without a country code. */
	of(number: string): NumberFacts {
		if (!/^\+\d{4,15}$/.test(number)) return {};
		const digits = number.slice(1);
		// Country calling codes are prefix-free.
		const callingCode = [1, 2, 3].map((n) => digits.slice(0, n)).find((code) => NUMBER_PLANS[code]);
		if (!callingCode) return {};
		const plan = this.plan(callingCode);
		const national = digits.slice(callingCode.length);
		const country = plan.countries.find((c) => !c.test || c.test(national))?.country ?? plan.countries[0]?.country;
		const costly = plan.everyNumber ?? plan.costly.find((c) => c.pattern.test(national))?.kind;
		return { callingCode, ...(country ? { country } : {}), ...(costly ? { costly } : {}) };
	}

	private plan(code: string): Compiled {
		let compiled = this.compiled.get(code);
		if (compiled) return compiled;
		const plan = NUMBER_PLANS[code];
		const whole = (pattern: string) => new RegExp(`^(?:${pattern})$`);
		compiled = {
			// As libphonenumber: a country whose leading digits start the number, else whose patterns take it whole.
			countries: plan.countries.map((c) => {
				if (typeof c === 'string') return { country: c };
				const [country, by, pattern] = c;
				const re = by === 'lead' ? new RegExp(`^(?:${pattern})`) : whole(pattern);
				return { country, test: (national: string) => re.test(national) };
			}),
			// A costly number with digits too many still reaches the costly line: a match at the start is enough.
			costly: Object.entries(plan.costly ?? {}).map(([kind, pattern]) => ({
				kind,
				pattern: new RegExp(`^(?:${pattern})`),
			})),
			...(plan.everyNumber ? { everyNumber: plan.everyNumber } : {}),
		};
		this.compiled.set(code, compiled);
		return compiled;
	}
}
