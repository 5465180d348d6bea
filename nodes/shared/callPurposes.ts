/**
 * What calls are for, in the laws' own categories: each rule of the calling hours and of consent
 * says which of these it covers, and the node's The Calls Are says which the calls are.
 */
export const PURPOSES = ['sales', 'survey', 'informational'] as const;

/**
 * `sales`: telephone solicitation, telemarketing, canvassing, direct marketing; `survey`: polls,
 * research, questionnaires; `informational`: service, reminders, appointments, a current contract.
 */
export type Purpose = (typeof PURPOSES)[number];

export const EVERY_PURPOSE: readonly Purpose[] = PURPOSES;

/** A purpose as an item or a message names it. */
export const PURPOSE_NAMES: Readonly<Record<Purpose, string>> = {
	sales: 'sales or marketing',
	survey: 'a survey or poll',
	informational: 'informational',
};

/** The node's The Calls Are, read: not set, the strictest, sales; a value that is none is an error naming it. */
export function purposeOf(value: unknown): Purpose {
	if (value === undefined || value === null || value === '') return 'sales';
	if ((PURPOSES as readonly unknown[]).includes(value)) return value as Purpose;
	throw new Error(`The Calls Are "${String(value)}" is not one of ${PURPOSES.join(', ')}`);
}
