/**
 * What a phone number is, from Google's libphonenumber metadata generated into the package
 * (numberPlans.data.ts): its country, whether it is a number in use at all, and whether it is of
 * a kind that costs far more than a call (premium rate, shared cost, personal numbers, satellite
 * and international network codes); and how a trunk prefix is read off a national number.
 * Pure: the nodes decide what to do with it.
 */
import { NUMBER_PLANS, NUMBER_TYPES } from './numberPlans.data';
import type { NumberType, Plan } from './numberPlans.data';

export interface NumberFacts {
	/** The country calling code (`44`), when the number has one the data lists. */
	callingCode?: string;
	/** ISO 3166 alpha-2 (`GB`), when the number is one of a country's. */
	country?: string;
	/** What makes it cost more (`premium-rate`), when it does. */
	costly?: string;
	/** Why it is no number in use (`+1 755 is not assigned`), when no plan of its code takes it. */
	notInUse?: string;
}

/** The kinds of number refused by default, as the items name them. */
const COSTLY_TYPES: readonly NumberType[] = ['premium-rate', 'shared-cost', 'personal'];

interface Compiled {
	country: string;
	lead?: RegExp;
	general: RegExp;
	lengths: number[];
	types: Array<{ type: NumberType; pattern: RegExp; lengths: number[] }>;
}

const whole = (pattern: string) => new RegExp(`^(?:${pattern})$`);

/** `7, 9 or 10`. */
const orList = (values: number[]) =>
	values.length > 1 ? `${values.slice(0, -1).join(', ')} or ${values[values.length - 1]}` : String(values[0]);

/** The data, compiled plan by plan as numbers need it: one instance for a run of a node. */
export class NumberPlans {
	private compiled = new Map<string, Compiled[]>();
	private trunks = new Map<string, RegExp>();
	private areas = new Map<string, boolean>();

	/** Every country the data knows, for checking what a user typed. */
	static readonly COUNTRIES: ReadonlySet<string> = new Set(
		Object.values(NUMBER_PLANS).flatMap((code) => code.plans.map((plan) => plan[0]).filter(Boolean)),
	);

	/** The calling code `digits` (a number's, without its +) start with; codes are prefix-free. */
	static callingCodeOf(digits: string): string | undefined {
		return [1, 2, 3].map((n) => digits.slice(0, n)).find((code) => NUMBER_PLANS[code]);
	}

	/** What `number` (E.164: a + and digits) is; nothing for a number without a country code. */
	of(number: string): NumberFacts {
		if (!/^\+\d+$/.test(number)) return {};
		const digits = number.slice(1);
		const callingCode = NumberPlans.callingCodeOf(digits);
		if (!callingCode) return { notInUse: `+${digits.slice(0, 3)} is no country calling code` };
		const code = NUMBER_PLANS[callingCode];
		const national = digits.slice(callingCode.length);
		const plan = this.planOf(callingCode, national);
		const type = plan && this.typeOf(plan, national);
		const costly = code.everyNumber ?? plan?.types.find((t) => COSTLY_TYPES.includes(t.type) && this.takes(t, national))?.type;
		return {
			callingCode,
			...(plan?.country ? { country: plan.country } : {}),
			...(costly ? { costly } : {}),
			...(type ? {} : { notInUse: this.whyNotInUse(callingCode, national, plan) }),
		};
	}

	/**
	 * The national number `digits` of calling code `callingCode` as libphonenumber reads it: its
	 * trunk prefix (the UK's 0, the US's 1) read off by the code's rule where the number is then
	 * one in use and was not before. Italy's leading 0, which is part of its numbers, stays.
	 */
	national(callingCode: string, digits: string): string {
		const trunk = NUMBER_PLANS[callingCode]?.trunk;
		if (!trunk) return digits;
		let prefix = this.trunks.get(callingCode);
		if (!prefix) this.trunks.set(callingCode, (prefix = new RegExp(`^(?:${trunk[0]})`)));
		const match = prefix.exec(digits);
		if (!match || !match[0]) return digits;
		const groups = match.length - 1;
		// As libphonenumber: a rule rewrites the number only where the pattern's last group took digits.
		const stripped =
			trunk[1] && groups > 0 && match[groups] ? digits.replace(prefix, trunk[1]) : digits.slice(match[0].length);
		return !this.inUse(callingCode, digits) && this.inUse(callingCode, stripped) ? stripped : digits;
	}

	/** Whether `national` is a number in use of calling code `callingCode`. */
	inUse(callingCode: string, national: string): boolean {
		const plan = this.planOf(callingCode, national);
		return plan !== undefined && this.typeOf(plan, national) !== undefined;
	}

	/** As libphonenumber: the one plan of the code, else the first whose leading digits start it or whose types take it. */
	private planOf(callingCode: string, national: string): Compiled | undefined {
		const plans = this.plans(callingCode);
		if (plans.length === 1) return plans[0];
		return plans.find((plan) => (plan.lead ? national.search(plan.lead) === 0 : this.typeOf(plan, national)));
	}

	/** The type of `national` in `plan`, in libphonenumber's order: fixed line, then the others. */
	private typeOf(plan: Compiled, national: string): NumberType | undefined {
		if (!plan.general.test(national)) return undefined;
		return plan.types.find((t) => this.takes(t, national))?.type;
	}

	private takes(type: Compiled['types'][number], national: string): boolean {
		return type.lengths.includes(national.length) && type.pattern.test(national);
	}

	private whyNotInUse(callingCode: string, national: string, plan: Compiled | undefined): string {
		const data = "in Google's libphonenumber data";
		const lengths = [...new Set(this.plans(callingCode).flatMap((p) => p.lengths))].sort((a, b) => a - b);
		if (!lengths.includes(national.length))
			return `a number of +${callingCode} has ${orList(lengths)} digits after the country code ${data}, not ${national.length}`;
		if (callingCode === '1' && !this.areaInUse(national.slice(0, 3)))
			return `+1 ${national.slice(0, 3)} is not assigned ${data}`;
		const of = plan?.country ? `${plan.country} (+${callingCode})` : `+${callingCode}`;
		return `it is no kind of number of ${of} ${data}`;
	}

	/** Whether any number of the +1 area code `area` is in use: one exchange of 800 is enough. */
	private areaInUse(area: string): boolean {
		let known = this.areas.get(area);
		if (known === undefined) {
			known = false;
			for (let exchange = 200; exchange < 1000 && !known; exchange++)
				known = ['0100', '5555'].some((line) => this.inUse('1', `${area}${exchange}${line}`));
			this.areas.set(area, known);
		}
		return known;
	}

	private plans(callingCode: string): Compiled[] {
		let compiled = this.compiled.get(callingCode);
		if (compiled) return compiled;
		const shared = NUMBER_PLANS[callingCode].plans.length > 1;
		compiled = NUMBER_PLANS[callingCode].plans.map(([country, lead, general, lengths, types]: Plan) => ({
			country,
			...(shared && lead ? { lead: new RegExp(`^(?:${lead})`) } : {}),
			general: whole(general),
			lengths,
			types: types.flatMap((type, i) =>
				type === 0
					? []
					: typeof type === 'string'
						? [{ type: NUMBER_TYPES[i], pattern: whole(type), lengths }]
						: [{ type: NUMBER_TYPES[i], pattern: whole(type[0]), lengths: type[1] }],
			),
		}));
		this.compiled.set(callingCode, compiled);
		return compiled;
	}
}
