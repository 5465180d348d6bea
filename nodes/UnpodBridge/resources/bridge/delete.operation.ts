/** Bridge > Delete. */
import type { IExecuteSingleFunctions, INodeExecutionData, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { requestRouting } from '../../../shared/routing';
import { bridgeLocator, checkBridge } from './bridge.fields';

/** Unpod answers 204 with no body (the specification: an empty object); say what was deleted instead. */
async function deletedBridge(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const slug = this.getNodeParameter('bridge', undefined, { extractValue: true }) as string;
	return items.map(() => ({ json: { deleted: true, slug } }));
}

export const option: INodePropertyOptions = {
	name: 'Delete',
	value: 'delete',
	action: 'Delete a bridge',
	// Not sent again after a lost answer: a second delete of a deleted bridge would say "not found".
	routing: requestRouting({ method: 'DELETE', idempotent: false, check: checkBridge, steps: [deletedBridge] }),
};

export const description: INodeProperties[] = [bridgeLocator('bridge', 'delete')];
