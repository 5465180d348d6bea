import { NodeOperationError } from 'n8n-workflow';
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { executeCreate } from './resources/task/create.operation';
import { executeDownloadRecording } from './resources/task/downloadRecording.operation';
import { executeGetAll } from './resources/task/getAll';

/** Each operation owns its item loop: Create sends many items in one request. */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const operation = this.getNodeParameter('operation', 0) as string;
	switch (operation) {
		case 'create':
			return [await executeCreate.call(this)];
		case 'getAll':
			return [await executeGetAll.call(this)];
		case 'downloadRecording':
			return [await executeDownloadRecording.call(this)];
	}
	throw new NodeOperationError(this.getNode(), `The operation "${operation}" is not supported`);
}
