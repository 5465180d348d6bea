/** Call Log > Get Many. */
import type { IDataObject, IExecutePaginationFunctions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import {
	CDR_PATH,
	callLogQuery,
	callStatusField,
	executionCallLogPath,
	simplifyCallLog,
} from '../../../shared/callLogs';
import { directionField, filtersCollection, returnAllAndLimit, simplifyField } from '../../../shared/descriptions';
import { listRouting } from '../../../shared/routing';

const show = { resource: ['callLog'], operation: ['getAll'] };

export const option: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many call logs',
	description: 'List every call, inbound and outbound, newest first',
	// `cdr/` and, where a deployment does not serve it, `call-logs/`: the path that served is asked
	// first for the rest of the execution.
	routing: listRouting({
		url: CDR_PATH,
		key: 'id',
		simplify: simplifyCallLog,
		query(this: IExecutePaginationFunctions) {
			return callLogQuery(this.getNodeParameter('filters', {}) as IDataObject);
		},
		servedPaths(this: IExecutePaginationFunctions) {
			return executionCallLogPath(this);
		},
	}),
};

export const description: INodeProperties[] = [
	...returnAllAndLimit(show),
	filtersCollection(show, [directionField(), callStatusField()]),
	simplifyField(show, 'callLog'),
];
