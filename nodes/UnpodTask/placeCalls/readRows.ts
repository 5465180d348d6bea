/**
 * Contact rows read from the input items as every operation that places calls takes them, each
 * asked of the gate (mayCall/gate.ts): a row to send, a bad row naming its field, or a contact
 * refused with the first reason that stopped it. Nothing here sends anything.
 */
import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { contactOfItem, toContactDocument } from '../../shared/contacts';
import { CallGate } from '../mayCall/gate';
import { LANGUAGE_NAMES } from '../../shared/disclosure/openings';
import type { Bad } from '../mayCall/gate';
import { DEFAULT_LOOKBACK_HOURS } from './fields';
import { hoursSettingsOf, ownZoneOf, rowHours } from '../mayCall/hours';
import { scheduleAt } from '../mayCall/whenToCall';
import { userTime } from '../../shared/time';
import { callContextOf, callRequest, rowLabel, SharedRequests, sheetRow } from '../mayCall/contactRow';
import type { InvalidRow, RefusedRow, Row, RowHours } from '../mayCall/contactRow';
import type { Callee, CallingHours } from '../../shared/callingHours/callee';
import type { Purpose } from '../../shared/callPurposes';

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
	/** The calls' purpose where the operation fixes it (an approval's: informational); else each item's The Calls Are. */
	purpose?: Purpose;
	outside: (itemIndex: number) => RowHours['outside'];
	/** The rows' shared RowHours, one per callee (rowHours). */
	shared?: Map<Callee, Partial<Record<RowHours['outside'], RowHours>>>;
}

/** The settings of the rows an item makes: where and how they are called, and what for. */
export interface RowSettings {
	/** The request before the gate puts the opening before its context. */
	request: Row['request'];
	/** The user's Call Context (or an approval's Message): the context after the opening. */
	callContext: string;
	countryCode: string;
	lookbackHours?: number;
}

/** Create's and Call and Wait's settings of an item: Space, Agent, Schedule, Call Context, the options. */
export function requestOf(context: IExecuteFunctions, itemIndex: number, label: string): RowSettings {
	const space = context.getNodeParameter('space', itemIndex, '', { extractValue: true }) as string;
	const agent = context.getNodeParameter('agent', itemIndex, '', { extractValue: true }) as string;
	const callContext = callContextOf(context, itemIndex, label);
	const request = callRequest(space, agent, scheduleOf(context, itemIndex), callContext);
	const options = context.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const countryCode = String(options.defaultCountryCode ?? '');
	const lookbackHours = context.getNodeParameter('skipExisting', itemIndex, true)
		? Number(options.lookbackHours) || DEFAULT_LOOKBACK_HOURS
		: undefined;
	return { request, callContext, countryCode, ...(lookbackHours === undefined ? {} : { lookbackHours }) };
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
	const settings = hoursSettingsOf(context, itemIndex, reading.purpose);
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

/** What one read of the input shares: the gate, the rows' requests, how they keep calling hours. */
interface Reading {
	gate: CallGate;
	requests: SharedRequests;
	hours?: HoursReading;
	settingsOf: (itemIndex: number, label: string) => RowSettings;
	/** How an item's contacts are named: "Row 3", "Item 2, the approver". */
	labelOf: (itemJson: IDataObject, itemIndex: number) => string;
}

/** A bad row: the item's error naming the field (or the node's parameter) to fix. */
function badRow(context: IExecuteFunctions, itemIndex: number, where: string, bad: Bad) {
	return new NodeOperationError(context.getNode(), `${where}: ${bad.message}`, {
		itemIndex,
		description:
			bad.description ?? `Field "${bad.field}" of ${where.toLowerCase()} must be fixed; this contact was not sent.`,
	});
}

/** One input item's contacts, each asked of the gate and sorted into `into`: a row, a bad row, or refused. */
function readItem(
	context: IExecuteFunctions,
	itemIndex: number,
	itemJson: IDataObject,
	into: ReadRows,
	reading: Reading,
) {
	const label = reading.labelOf(itemJson, itemIndex);
	const rowNumber = sheetRow(itemJson);
	const { request, callContext, ...settings } = reading.settingsOf(itemIndex, label);
	for (const { contact, inputJson, position } of contactsOfItem(context, itemIndex, itemJson, label)) {
		const read = toContactDocument(contact, settings.countryCode, reading.gate.plans);
		const where = `${label}${position === undefined ? '' : `, contact ${position + 1}`}`;
		const bad = (found: Bad) =>
			into.invalid.push({ itemIndex, rowNumber, inputJson, error: badRow(context, itemIndex, where, found) });
		if ('field' in read) {
			bad(read);
			continue;
		}
		// A JSON array's documents each carry their own consent; an item's fields are one contact's.
		const answer = reading.gate.check(itemIndex, read.document, position !== undefined);
		if ('bad' in answer) {
			bad(answer.bad);
			continue;
		}
		if ('stop' in answer) {
			into.refused.push({
				itemIndex,
				rowNumber,
				inputJson,
				reason: `${where}: ${answer.stop.reason}`,
				by: answer.stop.by,
			});
			continue;
		}
		const { document, says } = answer.go;
		const withOpening = reading.gate.contextOf(answer.go, callContext);
		const hours = hoursOfRow(context, itemIndex, document, reading.hours);
		if (hours && 'field' in hours) {
			bad(hours);
			continue;
		}
		into.rows.push(
			reading.requests.row({
				itemIndex,
				rowNumber,
				position,
				where,
				inputJson,
				document,
				request: { ...request, body: { ...request.body, context: withOpening } },
				...settings,
				says,
				opening: { language: LANGUAGE_NAMES[answer.go.language], commercial: answer.go.opening.commercial === true },
				...(hours ? { hours } : {}),
			}),
		);
	}
}

/**
 * Reads and checks every input item; nothing is sent until all are read. Each contact is asked of
 * the gate (its number, its country, do-not-call, consent, who calls): one it stops is refused
 * here, before any request, and counted apart from bad rows. An item whose settings cannot be read
 * (an expression that fails, a blank Call Context) is a bad row as a whole. `settingsOf` reads an
 * item's request (Create's fields by default); `labelOf` names its contacts.
 */
export function readRows(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
	hours?: HoursReading,
	how: Partial<Pick<Reading, 'settingsOf' | 'labelOf'>> = {},
): ReadRows {
	const found: ReadRows = { rows: [], invalid: [], refused: [] };
	const reading: Reading = {
		gate: new CallGate(context, Date.now(), hours?.purpose),
		requests: new SharedRequests(),
		...(hours ? { hours } : {}),
		settingsOf: how.settingsOf ?? ((itemIndex, label) => requestOf(context, itemIndex, label)),
		labelOf: how.labelOf ?? rowLabel,
	};
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		const itemJson = items[itemIndex].json;
		try {
			readItem(context, itemIndex, itemJson, found, reading);
		} catch (error) {
			const failure =
				error instanceof NodeOperationError
					? error
					: new NodeOperationError(
							context.getNode(),
							`${reading.labelOf(itemJson, itemIndex)}: ${(error as Error).message}`,
							{ itemIndex },
						);
			found.invalid.push({ itemIndex, rowNumber: sheetRow(itemJson), inputJson: itemJson, error: failure });
		}
	}
	return found;
}
