/**
 * Contact rows read from the input items as Create and Call and Wait take them, each checked:
 * a row to send, a bad row naming its field, or a contact refused (do-not-call). Nothing here
 * sends anything.
 */
import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { contactOfItem, toContactDocument } from '../../shared/contacts';
import type { DoNotCallList } from '../../shared/doNotCall';
import { doNotCallListOf, refusalOf } from './doNotCall';
import { AllowedNumbers } from './allowedNumbers';
import { DEFAULT_LOOKBACK_HOURS } from './fields';
import { hoursSettingsOf, ownZoneOf, rowHours } from './hoursSettings';
import { scheduleAt } from './whenToCall';
import { userTime } from '../../shared/time';
import { callContextOf, callRequest, contactRow, rowLabel, sheetRow } from './contactRow';
import type { InvalidRow, RefusedRow, Row, RowHours } from './contactRow';
import type { Callee, CallingHours } from '../../shared/callingHours/callee';

export function parseDocuments(value: unknown): IDataObject[] {
	const parsed = typeof value === 'string' ? JSON.parse(value) : value;
	if (Array.isArray(parsed)) return parsed as IDataObject[];
	if (parsed && typeof parsed === 'object') return [parsed as IDataObject];
	throw new Error('expected an array of contact documents');
}

function scheduleOf(context: IExecuteFunctions, itemIndex: number): IDataObject {
	const type = context.getNodeParameter('schedule', itemIndex, 'now') as string;
	if (type !== 'custom') return { type };
	const callAt = context.getNodeParameter('callAt', itemIndex, '');
	// Unpod reads a custom schedule in UTC: a value with an offset of its own is turned into UTC.
	const at =
		typeof callAt === 'string' && !/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(callAt.trim())
			? undefined
			: userTime(callAt);
	if (at === undefined) {
		throw new NodeOperationError(context.getNode(), `Call At "${String(callAt)}" is not a date and time`, {
			itemIndex,
		});
	}
	return scheduleAt(at);
}

/** How the rows of a read keep to calling hours: one book for the run, the operation's defaults. */
export interface HoursReading {
	book: CallingHours;
	outside: (itemIndex: number) => RowHours['outside'];
	/** The rows' shared RowHours, one per callee (rowHours). */
	shared?: Map<Callee, Partial<Record<RowHours['outside'], RowHours>>>;
}

/** The settings of the row an item makes: where and how it is called. */
function requestOf(context: IExecuteFunctions, itemIndex: number, label: string) {
	const space = context.getNodeParameter('space', itemIndex, '', { extractValue: true }) as string;
	const agent = context.getNodeParameter('agent', itemIndex, '', { extractValue: true }) as string;
	const callContext = callContextOf(context, itemIndex, label);
	const request = callRequest(space, agent, scheduleOf(context, itemIndex), callContext);
	const options = context.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const countryCode = String(options.defaultCountryCode ?? '');
	const lookbackHours = context.getNodeParameter('skipExisting', itemIndex, true)
		? Number(options.lookbackHours) || DEFAULT_LOOKBACK_HOURS
		: undefined;
	return { request, countryCode, lookbackHours };
}

/**
 * A row's calling hours, or undefined when it has none to keep; a contact `timezone` that
 * is no zone is a bad row naming the field.
 */
function hoursOfRow(
	context: IExecuteFunctions,
	itemIndex: number,
	document: IDataObject,
	reading: HoursReading | undefined,
): RowHours | undefined | { field: string; message: string } {
	if (!reading) return undefined;
	const settings = hoursSettingsOf(context, itemIndex);
	if (!settings) return undefined;
	const own = ownZoneOf(document);
	if (typeof own === 'object') return own;
	reading.shared ??= new Map();
	return rowHours(reading.book, settings, document, own, reading.outside(itemIndex), reading.shared);
}

interface ItemContact {
	contact: IDataObject;
	inputJson: IDataObject;
	/** Its place in the item's JSON array (Contacts From: JSON). */
	position?: number;
}

/** The contacts an item holds: itself (Contacts From: fields), or each document of its JSON array. */
function contactsOfItem(context: IExecuteFunctions, itemIndex: number, itemJson: IDataObject, label: string) {
	if (context.getNodeParameter('contactsSource', itemIndex, 'fields') !== 'json') {
		return [{ inputJson: itemJson, contact: contactOfItem(context, itemIndex) }];
	}
	const refuse = (message: string) => new NodeOperationError(context.getNode(), `${label}: ${message}`, { itemIndex });
	let documents: IDataObject[];
	try {
		documents = parseDocuments(context.getNodeParameter('documents', itemIndex));
	} catch (error) {
		throw refuse(`Contacts (JSON) is not valid: ${(error as Error).message}`);
	}
	if (documents.length === 0) throw refuse('Contacts (JSON) is empty; give at least one contact');
	return documents.map((doc, position): ItemContact => ({ contact: doc, inputJson: doc, position }));
}

interface ReadRows {
	rows: Row[];
	invalid: InvalidRow[];
	refused: RefusedRow[];
}

/** One input item's contacts, each checked and sorted into `into`: a row, a bad row, or refused. */
function readItem(
	context: IExecuteFunctions,
	itemIndex: number,
	itemJson: IDataObject,
	checks: { doNotCall: DoNotCallList; allowed: AllowedNumbers },
	into: ReadRows,
	reading: HoursReading | undefined,
) {
	const label = rowLabel(itemJson, itemIndex);
	const rowNumber = sheetRow(itemJson);
	const settings = requestOf(context, itemIndex, label);
	const rules = checks.allowed.rulesOf(itemIndex);
	for (const { contact, inputJson, position } of contactsOfItem(context, itemIndex, itemJson, label)) {
		const read = toContactDocument(contact, settings.countryCode);
		const where = `${label}${position === undefined ? '' : `, contact ${position + 1}`}`;
		const timed = 'field' in read ? undefined : hoursOfRow(context, itemIndex, read.document, reading);
		const result = timed && 'field' in timed ? timed : read;
		const hours = timed && !('field' in timed) ? timed : undefined;
		if ('field' in result) {
			const error = new NodeOperationError(context.getNode(), `${where}: ${result.message}`, {
				itemIndex,
				description: `Field "${result.field}" of ${where.toLowerCase()} must be fixed; this contact was not sent.`,
			});
			into.invalid.push({ itemIndex, rowNumber, inputJson, error });
			continue;
		}
		const refusal = refusalOf(context, itemIndex, result.document, checks.doNotCall, where);
		const notAllowed = refusal ? undefined : checks.allowed.refusal(String(result.document.contact_number), rules);
		if (refusal) into.refused.push({ itemIndex, rowNumber, inputJson, reason: refusal, by: 'doNotCall' });
		else if (notAllowed)
			into.refused.push({ itemIndex, rowNumber, inputJson, reason: `${where}: ${notAllowed}`, by: 'number' });
		else
			into.rows.push(
				contactRow({
					itemIndex,
					rowNumber,
					position,
					inputJson,
					document: result.document,
					...settings,
					...(hours ? { hours } : {}),
				}),
			);
	}
}

/**
 * Reads and checks every input item; nothing is sent until all are read. A contact on the
 * do-not-call list, or whose number is not allowed, is refused here, before any request, and
 * counted apart from bad rows. An
 * item whose settings cannot be read (an expression that fails, a blank Call Context) is a bad
 * row as a whole.
 */
export function readRows(context: IExecuteFunctions, items: INodeExecutionData[], reading?: HoursReading): ReadRows {
	const found: ReadRows = { rows: [], invalid: [], refused: [] };
	const checks = { doNotCall: doNotCallListOf(context), allowed: new AllowedNumbers(context) };
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		const itemJson = items[itemIndex].json;
		try {
			readItem(context, itemIndex, itemJson, checks, found, reading);
		} catch (error) {
			const failure =
				error instanceof NodeOperationError
					? error
					: new NodeOperationError(context.getNode(), `${rowLabel(itemJson, itemIndex)}: ${(error as Error).message}`, {
							itemIndex,
						});
			found.invalid.push({ itemIndex, rowNumber: sheetRow(itemJson), inputJson: itemJson, error: failure });
		}
	}
	return found;
}
