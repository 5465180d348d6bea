/** Call Log > Get Many. */
import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecutePaginationFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import {
	CDR_PATH,
	callLogQuery,
	callStatusField,
	executionCallLogPath,
	simplifyCallLog,
} from '../../../shared/callLogs';
import { directionField, filtersCollection, returnAllAndLimit, simplifyField } from '../../../shared/descriptions';
import { asItemResult } from '../../../shared/itemLoop';
import { collectPages, requestedLimit, toPage } from '../../../shared/pagination';
import { executionBudget } from '../../../shared/retry';
import { checkResponse } from '../../../shared/routing';
import { routedRequest, sendToFirstServedPath } from '../../../shared/transport';

const show = { resource: ['callLog'], operation: ['getAll'] };

/**
 * The one paginator's pages, each through the routing engine, at `cdr/` and, where a deployment
 * does not serve it, at `call-logs/`: the path that served is asked first for the rest of the execution.
 */
async function callLogPages(
	this: IExecutePaginationFunctions,
	requestData: DeclarativeRestApiSettings.ResultOptions,
): Promise<INodeExecutionData[]> {
	return await asItemResult(this, async () => {
		const limit = requestedLimit(
			this.getNodeParameter('returnAll', false) as boolean,
			this.getNodeParameter('limit', 50),
		);
		const budget = executionBudget(this);
		const { qs } = callLogQuery(this.getNodeParameter('filters', {}) as IDataObject);
		const path = executionCallLogPath(this);
		const rows = await collectPages(
			async (page, pageSize) => {
				const { answer, path: served } = await sendToFirstServedPath(
					this.getNode(),
					path.paths(),
					async (url) =>
						await routedRequest(this, requestData, { url, qs: { ...qs, page, page_size: pageSize } }, budget, true),
					this.getItemIndex(),
				);
				path.served(served);
				return toPage((answer[0]?.json ?? {}) as IDataObject);
			},
			limit,
			'id',
		);
		const shaped = this.getNodeParameter('simplify', true) ? rows.map(simplifyCallLog) : rows;
		return shaped.map((json) => ({ json, pairedItem: { item: this.getItemIndex() } }));
	});
}

export const option: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many call logs',
	description: 'List every call, inbound and outbound, newest first',
	routing: {
		request: { method: 'GET', url: CDR_PATH },
		send: { paginate: true },
		operations: { pagination: callLogPages },
		output: { postReceive: [checkResponse] },
	},
};

export const description: INodeProperties[] = [
	...returnAllAndLimit(show),
	filtersCollection(show, [directionField(), callStatusField()]),
	simplifyField(show, 'callLog'),
];
