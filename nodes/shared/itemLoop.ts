import { NodeOperationError } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	IExecuteSingleFunctions,
	INode,
	INodeExecutionData,
	NodeApiError,
} from 'n8n-workflow';
import { asNodeError } from './errors';

/**
 * The one shape of an item that failed under Continue On Fail, in every operation of every
 * node: the row's own fields, `error` (the message), anything `extra` adds (`unpod_created`),
 * paired with its input. On n8n's error output the item carries the error itself, which is
 * what sends it there; n8n then keeps only the message (it does so for any item with an
 * error, which is why the regular output's item does not carry it).
 */
export function failedItem(
	context: { getNode(): INode },
	row: IDataObject,
	itemIndex: number,
	error: NodeApiError | NodeOperationError,
	extra: IDataObject = {},
): INodeExecutionData {
	const pairedItem = { item: itemIndex };
	if (context.getNode().onError === 'continueErrorOutput') {
		return { json: { error: error.message, ...extra }, error, pairedItem };
	}
	return { json: { ...row, error: error.message, ...extra }, pairedItem };
}

/**
 * The item loop of the programmatic operations: `run` handles one input item; a failure
 * stops the node, or under Continue On Fail becomes the item's failed item and the loop goes on.
 */
export async function forEachItem(
	context: IExecuteFunctions,
	run: (itemIndex: number, item: INodeExecutionData) => Promise<INodeExecutionData[]>,
): Promise<INodeExecutionData[]> {
	const items = context.getInputData();
	const output: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			output.push(...(await run(itemIndex, items[itemIndex])));
		} catch (error) {
			const failure = asNodeError(context.getNode(), error, itemIndex);
			if (!context.continueOnFail()) throw failure;
			output.push(failedItem(context, items[itemIndex].json, itemIndex, failure));
		}
	}
	return output;
}

/**
 * An operation of a programmatic node: `perItem` runs inside the item loop; `allItems` takes
 * the whole input at once (Create sends many items in one request) and makes its own failed
 * items with `failedItem`.
 */
export type Operation =
	| { perItem: (this: IExecuteFunctions, itemIndex: number, item: INodeExecutionData) => Promise<INodeExecutionData[]> }
	| { allItems: (this: IExecuteFunctions) => Promise<INodeExecutionData[]> };

/** The router of a programmatic node: picks the operation and runs it in the item loop. */
export async function route(
	context: IExecuteFunctions,
	operations: Record<string, Operation>,
): Promise<INodeExecutionData[][]> {
	const name = context.getNodeParameter('operation', 0) as string;
	const operation = Object.prototype.hasOwnProperty.call(operations, name) ? operations[name] : undefined;
	if (!operation) throw new NodeOperationError(context.getNode(), `The operation "${name}" is not supported`);
	if ('allItems' in operation) return [await operation.allItems.call(context)];
	return [
		await forEachItem(context, async (itemIndex, item) => await operation.perItem.call(context, itemIndex, item)),
	];
}

/**
 * The item loop of the declarative nodes is n8n's routing engine, which would turn a failure
 * under Continue On Fail into an empty item; each operation's requests run inside this
 * instead, so its failed item is the package's.
 */
export async function asItemResult(
	context: IExecuteSingleFunctions,
	run: () => Promise<INodeExecutionData[]>,
): Promise<INodeExecutionData[]> {
	try {
		return await run();
	} catch (error) {
		const itemIndex = context.getItemIndex();
		const failure = asNodeError(context.getNode(), error, itemIndex);
		if (!context.continueOnFail()) throw failure;
		return [failedItem(context, context.getInputData()?.json ?? {}, itemIndex, failure)];
	}
}
