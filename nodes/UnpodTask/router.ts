import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { route } from '../shared/itemLoop';
import { callAndWait, create, downloadRecording, followUp, getAll, sendAndWait } from './resources/task';

/** Create, Call and Wait, Follow Up and Call and Wait for Approval take all items at once (many contacts a request); the others run item by item. */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await route(this, {
		callAndWait: { allItems: callAndWait.execute },
		create: { allItems: create.execute },
		followUp: { allItems: followUp.execute },
		sendAndWait: { allItems: sendAndWait.execute },
		getAll: { perItem: getAll.execute },
		downloadRecording: { perItem: downloadRecording.execute },
	});
}
