/** Reading settings that hold for a whole run of a node, not for one item. */
import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

/**
 * A setting that one run of the node uses for all its items (a batch size, a wait limit), read
 * for every item: an expression that gives another value for some item is an error naming that
 * item, not a value quietly taken from the first.
 */
export function sameForEveryItem<T>(context: IExecuteFunctions, label: string, read: (itemIndex: number) => T): T {
	const items = context.getInputData().length;
	const first = read(0);
	for (let itemIndex = 1; itemIndex < items; itemIndex++) {
		const value = read(itemIndex);
		if (JSON.stringify(value) !== JSON.stringify(first)) {
			throw new NodeOperationError(
				context.getNode(),
				`${label} must be the same for every item: item ${itemIndex + 1} gives ${JSON.stringify(value)}, item 1 ${JSON.stringify(first)}`,
				{ itemIndex, description: `${label} holds for the whole run of this node. Set one value for all items.` },
			);
		}
	}
	return first;
}

/** An option of the Options collection, the same for every item. */
function runOption(context: IExecuteFunctions, name: string, label: string): unknown {
	return sameForEveryItem(context, label, (i) => (context.getNodeParameter('options', i, {}) as IDataObject)[name]);
}

/** A number within its bounds; a value out of them is an error that names the setting. */
function bounded(
	context: IExecuteFunctions,
	value: unknown,
	label: string,
	fallback: number,
	min: number,
	max = Infinity,
): number {
	const n = value === undefined || value === '' ? fallback : Number(value);
	if (!Number.isFinite(n) || n < min || n > max) {
		throw new NodeOperationError(
			context.getNode(),
			`${label} must be ${max === Infinity ? `at least ${min}` : `between ${min} and ${max}`}, not ${String(value)}`,
		);
	}
	return n;
}

/**
 * A number of the Options collection, the same for every item, within the bounds its field
 * declares (`typeOptions.minValue`, `maxValue`), its default when unset: the field is the one
 * place its label, default and bounds are written.
 */
export function numberOption(context: IExecuteFunctions, field: INodeProperties): number {
	const label = field.displayName;
	return bounded(
		context,
		runOption(context, field.name, label),
		label,
		Number(field.default),
		field.typeOptions?.minValue ?? -Infinity,
		field.typeOptions?.maxValue ?? Infinity,
	);
}

/** Whether a parameter's value, as the node holds it, has an expression anywhere in it. */
const hasExpression = (value: unknown): boolean =>
	typeof value === 'string'
		? value.startsWith('=')
		: value !== null && typeof value === 'object' && Object.values(value).some(hasExpression);

/**
 * Parameters read for each item, each read once for the whole run where the node holds it as a
 * plain value (no expression anywhere in it): 100,000 items then read it once, not 100,000 times.
 * The value is shared by every item: read it, never change it.
 */
export class ItemParameters {
	private plain = new Map<string, unknown>();

	constructor(private context: IExecuteFunctions) {}

	get<T>(name: string, itemIndex: number, fallback: T): T {
		if (this.plain.has(name)) return this.plain.get(name) as T;
		const value = this.context.getNodeParameter(name, itemIndex, fallback as never) as T;
		if (!hasExpression(this.context.getNode().parameters[name])) this.plain.set(name, value);
		return value;
	}
}
