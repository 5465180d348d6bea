/**
 * A contact row, the one shape every operation that places calls sends (placeCalls/send.ts): its
 * request (one body for all), where it came from, and how its calling hours are kept; and how a
 * row is named in messages. Nothing here reads an input item or sends anything.
 */
import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import type { Callee, CallingHours } from '../../shared/callingHours/callee';
import type { StoppedBy } from './gate';

/** What a row keeps to: its callee, and what is done when the window is closed. */
export interface RowHours {
	book: CallingHours;
	callee: Callee;
	/** `schedule`: created for the next legal instant; `hold`: not created, the item says when. */
	outside: 'schedule' | 'hold';
	/** What the item says of it when it was moved (set by the send step). */
	note?: IDataObject;
}

export interface Row {
	itemIndex: number;
	/** The sheet's own row number (`row_number`, as Google Sheets and similar nodes give it). */
	rowNumber?: number;
	/** Position of the contact in its item's JSON array (JSON mode). */
	position?: number;
	/** How its items name it: `Row 3`, `Item 2, contact 4`. */
	where: string;
	/** The JSON the row came from (its input item, or one document of a JSON array): its output item repeats it. */
	inputJson: IDataObject;
	document: IDataObject;
	/** Everything that must be equal for rows to share a request. */
	group: string;
	request: { space: string; body: IDataObject };
	/** The row's own Default Country Code: its number, and Unpod's stored ones, are read with it. */
	countryCode: string;
	/** With Skip Contacts Already Called: how many hours back the row's duplicates are looked for. */
	lookbackHours?: number;
	/** With calling hours to keep: the callee's zones and window (placeCalls/whenToCall.ts). */
	hours?: RowHours;
	/** What its item says of a row with no hours to keep that was moved (a Call At already past). */
	note?: IDataObject;
	/** What every item of the row says, whatever becomes of it: its consent (mayCall/gate.ts). */
	says?: IDataObject;
	/** How its call opens: its language (a name) and whether it says the call is commercial. Rows opening otherwise share no request with it. */
	opening?: { language: string; commercial: boolean };
}

/** The request every call is created with: in a space, by an agent, when, and what for. */
export function callRequest(space: string, agent: string, schedule: IDataObject, callContext: string): Row['request'] {
	return { space, body: { pilot: agent, schedule, context: callContext } };
}

/** The group of a request: rows share a create request when their groups are equal. */
export const groupOf = (request: Row['request']) => JSON.stringify([request.space, request.body]);

/** A row of `request`; rows share a create request when their requests are equal. */
export function contactRow(row: Omit<Row, 'group'>): Row {
	return { ...row, group: groupOf(row.request) };
}

/**
 * Requests made once and shared by every row that asks the same: a call's context carries the
 * opening, so 100,000 rows would otherwise hold 100,000 copies of it.
 */
export class SharedRequests {
	private made = new Map<string, { request: Row['request']; group: string }>();

	/** The row of `request`, its request and group the same objects as every equal row's. */
	row(row: Omit<Row, 'group'>): Row {
		const group = groupOf(row.request);
		let same = this.made.get(group);
		if (!same) this.made.set(group, (same = { request: row.request, group }));
		return { ...row, request: same.request, group: same.group };
	}
}

/**
 * The Call Context of an item, which Unpod requires: it refuses a whole request over a blank
 * one, so the row stops before anything is sent. `label` names the item in the message.
 */
export function callContextOf(context: IExecuteFunctions, itemIndex: number, label: string): string {
	const callContext = String(context.getNodeParameter('callContext', itemIndex, '') ?? '').trim();
	if (!callContext) {
		throw new NodeOperationError(context.getNode(), `${label}: Call Context is empty`, {
			itemIndex,
			description:
				'Unpod requires a Call Context for every task: write the goal of the calls, or map a column that holds it.',
		});
	}
	return callContext;
}

export interface InvalidRow {
	itemIndex: number;
	rowNumber?: number;
	error: NodeOperationError;
	inputJson: IDataObject;
}

/**
 * A contact that may not be called (mayCall/gate.ts): a number not allowed (a costly kind, a
 * country not allowed), on the do-not-call list, or without the consent asked. Never sent, and
 * not an error. `reason` names the row and why.
 */
export interface RefusedRow {
	itemIndex: number;
	rowNumber?: number;
	inputJson: IDataObject;
	reason: string;
	/** The check that stopped it, the first in the gate's order. */
	by: StoppedBy;
}

/** The row number a sheet node put on the item, if any. */
export function sheetRow(json: IDataObject): number | undefined {
	const value = json.row_number;
	const n =
		typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : NaN;
	return Number.isInteger(n) && n > 0 ? n : undefined;
}

/**
 * How a row is named in messages: "Row N" when the item carries the sheet's row number
 * (line N of the sheet), else "Item N" (counting input items from 1).
 */
export function rowLabel(json: IDataObject, itemIndex: number): string {
	const row = sheetRow(json);
	return row === undefined ? `Item ${itemIndex + 1}` : `Row ${row}`;
}
