/**
 * Who calls, as every operation that places calls says it: Calling On Behalf Of, Business Contact
 * and Opening Language, and the opening each call's context begins with (shared/disclosure/).
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';
import type { ItemParameters } from '../../shared/parameters';
import { LANGUAGES, LANGUAGE_NAMES, openingInstruction } from '../../shared/disclosure/openings';
import type { Caller, Language, OpeningSays } from '../../shared/disclosure/openings';

type Show = Record<string, Array<string | number | boolean>>;

export const CALLING_ON_BEHALF_OF = 'Calling On Behalf Of';
export const BUSINESS_CONTACT = 'Business Contact';

/** Calling On Behalf Of and Business Contact, for an operation shown by `show`. */
export function callerFields(show: Show): INodeProperties[] {
	return [
		{
			displayName: CALLING_ON_BEHALF_OF,
			name: 'callingOnBehalfOf',
			type: 'string',
			default: '',
			placeholder: 'e.g. Acme Insurance Ltd',
			description:
				'The business the calls are for, by the name it is registered under. Every call opens by saying an AI speaks for it. The law of the US and Canada asks every call to name who calls, and France and the UK sales calls: empty, such a contact is a bad row.',
			hint: 'The opening the package puts before the Call Context says it, in the language of the place where the phone rings, with that the call is recorded',
			displayOptions: { show },
		},
		{
			displayName: BUSINESS_CONTACT,
			name: 'businessContact',
			type: 'string',
			default: '',
			placeholder: 'e.g. +1 800 555 0100, 1 Main St, Springfield',
			description:
				'A telephone number (and an address, for California, Canada and the UK) at which the person can reach the business; the opening gives it. The law of the US and Canada asks it of every call, the UK of sales calls: empty, such a contact is a bad row.',
			displayOptions: { show },
		},
	];
}

export const openingLanguageOption: INodeProperties = {
	displayName: 'Opening Language',
	name: 'openingLanguage',
	type: 'options',
	options: [
		{ name: 'The Language of the Place', value: 'auto' },
		...LANGUAGES.map((value) => ({ name: LANGUAGE_NAMES[value], value })),
	],
	default: 'auto',
	description:
		"The language of the opening the agent says first. The language of the place: the country's (Quebec's French for its area codes), English where a country has several or one the package has no words in.",
};

/** An item's caller and its Opening Language. */
export function callerOf(
	parameters: ItemParameters,
	itemIndex: number,
	options: IDataObject,
): Caller & { language?: Language } {
	const text = (name: string) => String(parameters.get(name, itemIndex, '') ?? '').trim();
	const business = text('callingOnBehalfOf');
	const contact = text('businessContact');
	const language = (LANGUAGES as readonly unknown[]).includes(options.openingLanguage)
		? (options.openingLanguage as Language)
		: undefined;
	return { ...(business ? { business } : {}), ...(contact ? { contact } : {}), ...(language ? { language } : {}) };
}

/** The call's context: the opening, then the user's own. Rows of one language and caller share it. */
export class Openings {
	private made = new Map<string, string>();

	contextOf(language: Language, caller: Caller, says: OpeningSays, callContext: string): string {
		const key = JSON.stringify([language, caller.business ?? '', caller.contact ?? '', !!says.commercial, callContext]);
		let made = this.made.get(key);
		if (made === undefined) {
			made = `${openingInstruction(language, caller, says)}\n\n${callContext}`;
			this.made.set(key, made);
		}
		return made;
	}
}
