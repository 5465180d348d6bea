import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { route } from '../shared/itemLoop';
import { TASK_OPERATIONS } from './resources/task';

/** Runs the operation the node is set to, as its declaration says (all items at once, or item by item). */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await route(this, Object.fromEntries(TASK_OPERATIONS.map((operation) => [operation.value, operation.run])));
}
