import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { route } from '../shared/itemLoop';
import { create, downloadRecording, getAll } from './resources/task';

/** Create takes all items at once (many contacts a request); the others run item by item. */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await route(this, {
		create: { allItems: create.execute },
		getAll: { perItem: getAll.execute },
		downloadRecording: { perItem: downloadRecording.execute },
	});
}
