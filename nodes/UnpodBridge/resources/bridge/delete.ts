import type { IExecuteSingleFunctions, INodeExecutionData } from 'n8n-workflow';

/** Unpod answers 204 with no body (the specification: an empty object); say what was deleted instead. */
export async function deletedBridge(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const slug = this.getNodeParameter('bridge', undefined, { extractValue: true }) as string;
	return items.map(() => ({ json: { deleted: true, slug } }));
}
