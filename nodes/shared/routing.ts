import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INodeExecutionData,
	PostReceiveAction,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { assertUnpodSuccess } from './errors';

/** First postReceive step of every declarative operation: turns failures into NodeApiErrors. */
export async function checkResponse(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	assertUnpodSuccess(this.getNode(), response);
	return items;
}

/** The error check for answers that may not name what was asked for (a bare "Agent not found"). */
export function checkResponseNaming(parameter: string, label: string) {
	return async function (
		this: IExecuteSingleFunctions,
		items: INodeExecutionData[],
		response: IN8nHttpFullResponse,
	): Promise<INodeExecutionData[]> {
		const value = this.getNodeParameter(parameter, undefined, { extractValue: true }) as string;
		assertUnpodSuccess(this.getNode(), response, `${label} "${value}"`);
		return items;
	};
}

/** Unwraps the envelope's `data`; a bare object is kept as it is. */
export async function unwrapData(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return items.map((item) => {
		const data = (item.json as IDataObject).data;
		return { json: data && typeof data === 'object' && !Array.isArray(data) ? (data as IDataObject) : item.json };
	});
}

/** The output steps of an operation: the error check first, then `steps`. */
export function output(...steps: PostReceiveAction[]) {
	return { postReceive: [checkResponse, ...steps] };
}

/** preSend: refuses an update that would change nothing. */
export async function requireBodyField(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const body = (requestOptions.body ?? {}) as IDataObject;
	if (Object.keys(body).length === 0) {
		throw new NodeOperationError(this.getNode(), 'Choose at least one field to update', {
			description: 'Add a field under "Update Fields".',
			itemIndex: this.getItemIndex(),
		});
	}
	return requestOptions;
}
