import type { IExecuteSingleFunctions, INodeExecutionData } from 'n8n-workflow';

/** The API answers an empty object; say what was deleted instead. */
export async function deletedBridge(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const slug = this.getNodeParameter('bridge', undefined, { extractValue: true }) as string;
	return items.map(() => ({ json: { deleted: true, slug } }));
}
