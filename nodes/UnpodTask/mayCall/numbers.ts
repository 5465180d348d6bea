/**
 * Which numbers the operations that place calls may dial at all, before any request: none of a
 * kind that costs far more than a call (premium rate, shared cost, personal numbers, satellite
 * and international network codes) unless the user allows them, none that is no number in use,
 * and only the countries the user allows. Its two options, and the refusal of a contact.
 */
import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NumberPlans } from '../../shared/allowedNumbers/numberPlans';
import { normalizePhone } from '../../shared/contacts';
import { ItemParameters } from '../../shared/parameters';
import type { NumberFacts } from '../../shared/allowedNumbers/numberPlans';

export const allowCostlyNumbersOption: INodeProperties = {
	displayName: 'Allow Premium-Rate and Satellite Numbers',
	name: 'allowCostlyNumbers',
	type: 'boolean',
	default: false,
	description:
		'Whether to call numbers that cost far more than a call: premium-rate, shared-cost and personal numbers (+1 900, +44 9, +33 89) and satellite and international network codes (+870, +881, +882, +883, +979, +808). Off: such a contact is not called, and its item says why.',
};

export const allowedCountriesOption: INodeProperties = {
	displayName: 'Allowed Countries',
	name: 'allowedCountries',
	type: 'string',
	default: '',
	placeholder: 'e.g. US, CA, GB',
	description:
		"Only numbers of these countries are called: two-letter codes (ISO 3166), separated by commas. Empty: every country. The country is read from the number (a +1 number's area code tells the US, Canada and the Caribbean apart).",
};

/** The numbers options every operation that places calls shows. */
export const allowedNumbersOptions = [allowedCountriesOption, allowCostlyNumbersOption];

/** What an item allows: the countries (none: all), and costly numbers or not. */
export interface NumberRules {
	countries?: ReadonlySet<string>;
	costly: boolean;
}

/** Reads and checks the options once per distinct value: a run of 100,000 items reads a few. */
export class AllowedNumbers {
	/** The run's number plans, compiled once: the rows' numbers are read with them too. */
	readonly plans = new NumberPlans();
	private parsed = new Map<string, ReadonlySet<string> | undefined>();

	constructor(
		private context: IExecuteFunctions,
		private parameters = new ItemParameters(context),
	) {}

	/** Item `itemIndex`'s rules; a code that is no country stops the node, naming the field and the item. */
	rulesOf(itemIndex: number): NumberRules {
		const options = this.parameters.get<IDataObject>('options', itemIndex, {});
		const text = String(options.allowedCountries ?? '').trim();
		if (!this.parsed.has(text)) this.parsed.set(text, this.countriesOf(text, itemIndex));
		return { countries: this.parsed.get(text), costly: options.allowCostlyNumbers === true };
	}

	/** What `number` is: its country, and a kind that costs more. */
	facts(number: string): NumberFacts {
		return this.plans.of(number);
	}

	/** `number` read as the gate compares it: international however it is written (`+44 (0)20 ...`). */
	normalized(number: string): string {
		return normalizePhone(number, '', this.plans) ?? number;
	}

	/**
	 * Why `number` (of `facts`) may not be called under `rules`, or undefined when it may: a costly
	 * kind first, then a number not in use (whatever the options), then a country not allowed.
	 * `field` names a number other than the one called (`alternate_number`).
	 */
	refusal(
		number: string,
		rules: NumberRules,
		facts = this.plans.of(number),
		field = '',
	): { by: 'number' | 'country'; reason: string } | undefined {
		const what = field ? `${field} ${number}` : number;
		if (facts.costly && !rules.costly) {
			return {
				by: 'number',
				reason: `${what} is a ${facts.costly} number (+${facts.callingCode}), which costs far more than a call; not called (Options > Allow Premium-Rate and Satellite Numbers)`,
			};
		}
		if (!number.startsWith('+'))
			return {
				by: 'number',
				reason: `${what} has no country code, so where it rings and what it costs cannot be told; not called`,
			};
		if (facts.notInUse) return { by: 'number', reason: `${what} is not a number in use: ${facts.notInUse}; not called` };
		if (!rules.countries) return undefined;
		if (!facts.country)
			return {
				by: 'country',
				reason: `${what} is not a number of a country (+${facts.callingCode}); not called (Options > Allowed Countries: ${[...rules.countries].join(', ')})`,
			};
		if (!rules.countries.has(facts.country))
			return {
				by: 'country',
				reason: `${what} is a number of ${facts.country}, not of Allowed Countries (${[...rules.countries].join(', ')}); not called`,
			};
		return undefined;
	}

	private countriesOf(text: string, itemIndex: number): ReadonlySet<string> | undefined {
		if (!text) return undefined;
		const codes = text
			.split(/[\s,;]+/)
			.filter(Boolean)
			.map((code) => code.toUpperCase());
		const bad = codes.find((code) => !NumberPlans.COUNTRIES.has(code));
		if (bad !== undefined) {
			throw new NodeOperationError(
				this.context.getNode(),
				`Item ${itemIndex + 1}: Allowed Countries: "${bad}" is not a country code`,
				{
					itemIndex,
					description: 'Give two-letter country codes (ISO 3166) separated by commas, e.g. US, CA, GB.',
				},
			);
		}
		return new Set(codes);
	}
}
