/**
 * What the operations that place calls put out: one item per contact row, in input order, an
 * error item (saying whether Unpod created the task) where a row failed or could not be read.
 */
import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { failedItem } from '../../shared/itemLoop';
import type { InvalidRow, RefusedRow, Row } from '../mayCall/contactRow';
import type { SendResult } from './send';
import { rowList } from './batches';

export type Sent = Exclude<SendResult, { kind: 'failed' } | { kind: 'held' }>;

/**
 * A sent row's item: `json` shapes a created or skipped row; a failed row is an error item; a row
 * held for its calling hours goes on as a refused one does (heldItem).
 */
export function sentRowItem(
	context: IExecuteFunctions,
	row: Pick<Row, 'itemIndex' | 'inputJson' | 'says'>,
	result: SendResult,
	json: (sent: Sent) => IDataObject,
): INodeExecutionData {
	if (result.kind === 'failed')
		return failedItem(context, row.inputJson, row.itemIndex, result.error, { unpod_created: result.created });
	if (result.kind === 'held') return heldItem(context, row, { ...result.answer, ...row.says });
	return { json: { ...json(result), ...row.says }, pairedItem: { item: row.itemIndex } };
}

/**
 * A contact not called for its calling hours: not created, and not a failure of the node. Its
 * item says where the phone rings, the time there, why, and when it may be called
 * (`unpod_next_allowed_at`); with the error output on, it takes that output, as a refused row does.
 */
export function heldItem(
	context: IExecuteFunctions,
	row: Pick<Row, 'itemIndex' | 'inputJson'>,
	answer: IDataObject,
): INodeExecutionData {
	if (context.getNode().onError === 'continueErrorOutput') {
		const error = new NodeOperationError(context.getNode(), String(answer.unpod_held), { itemIndex: row.itemIndex });
		return failedItem(context, row.inputJson, row.itemIndex, error, answer);
	}
	return { json: { ...row.inputJson, ...answer }, pairedItem: { item: row.itemIndex } };
}

/**
 * A contact that may not be called (mayCall/gate.ts): not created, and not a failure of the
 * node. It goes on with `unpod_created: false`, `unpod_refused` (the row and why) and
 * `unpod_refused_by` (the check: number, country, doNotCall, consent), and `do_not_call: true`
 * when the list refused it; with the error output on, it takes that output, the not-created one,
 * as a row that failed would.
 */
export function refusedItem(context: IExecuteFunctions, refused: RefusedRow): INodeExecutionData {
	const flags = {
		...(refused.by === 'doNotCall' ? { do_not_call: true } : {}),
		unpod_created: false,
		unpod_refused: refused.reason,
		unpod_refused_by: refused.by,
	};
	if (context.getNode().onError === 'continueErrorOutput') {
		const error = new NodeOperationError(context.getNode(), refused.reason, { itemIndex: refused.itemIndex });
		return failedItem(context, refused.inputJson, refused.itemIndex, error, flags);
	}
	return { json: { ...refused.inputJson, ...flags }, pairedItem: { item: refused.itemIndex } };
}

/**
 * Every row's item, then every refused row's and every unreadable row's, grouped by input item
 * in input order.
 */
export function rowItems(
	context: IExecuteFunctions,
	itemCount: number,
	sent: { rows: Row[]; results: Map<Row, SendResult>; invalid: InvalidRow[]; refused: RefusedRow[] },
	json: (result: Sent, row: Row, index: number) => IDataObject,
): INodeExecutionData[] {
	const byItem: INodeExecutionData[][] = Array.from({ length: itemCount }, () => []);
	sent.rows.forEach((row, index) => {
		byItem[row.itemIndex].push(sentRowItem(context, row, sent.results.get(row)!, (result) => json(result, row, index)));
	});
	for (const refused of sent.refused) byItem[refused.itemIndex].push(refusedItem(context, refused));
	for (const bad of sent.invalid) {
		byItem[bad.itemIndex].push(failedItem(context, bad.inputJson, bad.itemIndex, bad.error, { unpod_created: false }));
	}
	return byItem.flat();
}

/**
 * Where nothing can be put out before the calls end (a wait that parks the execution), a contact
 * that may not be called (mayCall/gate.ts: a number not allowed, do-not-call, no consent) stops the whole run before
 * any request, naming the rows.
 */
export function stopOnRefusedRows(
	context: IExecuteFunctions,
	refused: Array<{ itemIndex: number; rowNumber?: number; reason: string }>,
): void {
	if (!refused.length) return;
	const [first] = refused;
	const others = refused.slice(1);
	throw new NodeOperationError(
		context.getNode(),
		`${first.reason}${others.length ? ` (also not called: ${rowList(others)})` : ''}. Nothing was sent.`,
		{
			itemIndex: first.itemIndex,
			description:
				'This operation waits for all its calls at once, so it places none while a contact may not be called. Leave those contacts out before this node (an If or Filter node).',
		},
	);
}
