/**
 * The calling hours an item asks for (the fields are in fields.ts): Keep to Calling Hours (the
 * law's rules), The Calls Are, the user's own Calling Days, Hours and Max Calls per 24 Hours
 * (which hold whether or not the law's rules are kept), the zone of unknown numbers; and each
 * row's callee read with them. The law and the zones: shared/callingHours/.
 */
import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { EVERY_DAY, isTimeZone } from '../../shared/callingHours/callee';
import type { Callee, CallingHours, HoursSettings, UserWindow } from '../../shared/callingHours/callee';
import { minutesOf } from '../../shared/callingHours/week';
import { purposeOf } from '../../shared/callPurposes';
import type { Purpose } from '../../shared/callPurposes';
import type { RowHours } from './contactRow';

/** The options that make the user's own window; any of them set narrows every call. */
const WINDOW_OPTIONS = ['callingDays', 'callingFrom', 'callingTo'];

/**
 * An item's Calling Days and Hours (undefined when it sets none) and Time Zone for Unknown
 * Numbers, checked; a bad one names the option.
 */
export function userWindowOf(
	context: IExecuteFunctions,
	itemIndex: number,
	options = context.getNodeParameter('options', itemIndex, {}) as IDataObject,
): { user?: UserWindow; timeZone: string } {
	const bad = (what: string) =>
		new NodeOperationError(context.getNode(), `Item ${itemIndex + 1}: ${what}`, { itemIndex });
	const timeZone = String(options.timeZone ?? '').trim();
	if (timeZone && !isTimeZone(timeZone))
		throw bad(`Time Zone "${timeZone}" is not a time zone (use an IANA name such as America/Chicago)`);
	if (!WINDOW_OPTIONS.some((name) => options[name] !== undefined)) return { timeZone };
	const days = Array.isArray(options.callingDays) ? options.callingDays.map(Number) : EVERY_DAY;
	const start = String(options.callingFrom ?? '00:00');
	const end = String(options.callingTo ?? '24:00');
	if (!days.length) throw bad('Calling Days has no day');
	for (const hhmm of [start, end])
		if (!/^(([01]\d|2[0-3]):[0-5]\d|24:00)$/.test(hhmm)) throw bad(`"${hhmm}" is not a time of day (HH:MM)`);
	if (start >= end) throw bad(`Calling Hours From (${start}) must come before To (${end})`);
	return { user: { days, start: minutesOf(start), end: minutesOf(end) }, timeZone };
}

/**
 * The hours settings of an item: the law's rules with Keep to Calling Hours on; the user's own
 * window and limit always. Undefined when there is nothing to keep: the option off and no window
 * or limit of the user's. With the law's rules off, a number whose zone is not known is read in
 * Time Zone for Unknown Numbers, else the workflow's zone.
 */
export function hoursSettingsOf(
	context: IExecuteFunctions,
	itemIndex: number,
	/** The calls' purpose where the operation fixes it (an approval's: informational); else The Calls Are. */
	purpose?: Purpose,
): HoursSettings | undefined {
	const law = context.getNodeParameter('callingHours', itemIndex, true) as boolean;
	const options = context.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const { user, timeZone } = userWindowOf(context, itemIndex, options);
	const max = Number(options.maxCallsPer24Hours ?? 0);
	if (!Number.isInteger(max) || max < 0)
		throw new NodeOperationError(context.getNode(), `Item ${itemIndex + 1}: Max Calls per 24 Hours must be 0 or more`, {
			itemIndex,
		});
	if (!law && !user && !max) return undefined;
	const fallbackZone = timeZone || (law ? '' : context.getTimezone());
	return {
		law,
		purpose: purpose ?? purposeOf(options.callsAre),
		...(user ? { user } : {}),
		...(fallbackZone ? { fallbackZone } : {}),
		...(max ? { maxCallsPer24Hours: max } : {}),
	};
}

/** A contact's own `timezone`, if it has one; a value that is no zone is an error naming the field. */
export function ownZoneOf(document: IDataObject): string | undefined | { field: string; message: string } {
	const value = document.timezone;
	if (value === undefined || value === null || String(value).trim() === '') return undefined;
	const zone = String(value).trim();
	return isTimeZone(zone)
		? zone
		: {
				field: 'timezone',
				message: `timezone "${zone}" is not a time zone (use an IANA name such as America/Chicago)`,
			};
}

/** Each row's callee, read with one book for the run; undefined when there are no hours to keep. */
export function rowHours(
	book: CallingHours,
	settings: HoursSettings | undefined,
	document: IDataObject,
	ownZone: string | undefined,
	outside: RowHours['outside'],
	/** Rows of one callee share one RowHours: 100,000 rows, a few hundred objects. */
	shared?: Map<Callee, Partial<Record<RowHours['outside'], RowHours>>>,
): RowHours | undefined {
	if (!settings) return undefined;
	const callee = book.calleeOf(String(document.contact_number), ownZone, settings);
	const byOutside = shared?.get(callee) ?? {};
	const hours = byOutside[outside] ?? { book, callee, outside };
	byOutside[outside] = hours;
	shared?.set(callee, byOutside);
	return hours;
}
