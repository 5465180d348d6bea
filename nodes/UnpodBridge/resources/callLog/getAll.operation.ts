/** Call Log > Get Many. */
import type { IDataObject, IExecutePaginationFunctions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { CALL_LOGS_PATH, callLogQuery, simplifyCallLog } from '../../../shared/callLogs';
import {
	directionField,
	filtersCollection,
	returnAllAndLimit,
	simplifyField,
	timeRange,
} from '../../../shared/descriptions';
import { listRouting } from '../../../shared/routing';

const show = { resource: ['callLog'], operation: ['getAll'] };

export const option: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many call logs',
	description: 'List every call, inbound and outbound, newest first',
	routing: listRouting({
		url: CALL_LOGS_PATH,
		key: 'id',
		simplify: simplifyCallLog,
		query(this: IExecutePaginationFunctions) {
			return callLogQuery(this.getNodeParameter('filters', {}) as IDataObject);
		},
	}),
};

const times = timeRange('Calls that started at or after this time', 'Calls that ended at or before this time');

export const description: INodeProperties[] = [
	...returnAllAndLimit(show),
	filtersCollection(show, [
		{
			displayName: 'Bridge Name',
			name: 'bridgeName',
			type: 'string',
			default: '',
			placeholder: 'e.g. Main Line',
			description: "Calls of the bridges whose name contains this (Unpod matches the name, not the bridge's slug)",
		},
		{
			displayName: 'Call ID',
			name: 'callId',
			type: 'string',
			default: '',
			placeholder: 'e.g. 39136',
			description: 'One call log by its ID',
		},
		{
			displayName: 'Destination Number',
			name: 'destinationNumber',
			type: 'string',
			default: '',
			placeholder: 'e.g. +1415',
			description: 'Calls whose destination number starts with this',
		},
		directionField(),
		times.from,
		{
			displayName: 'Source Number',
			name: 'sourceNumber',
			type: 'string',
			default: '',
			placeholder: 'e.g. +1415',
			description: "Calls whose source number starts with this (usually the agent's number)",
		},
		{
			displayName: 'Status',
			name: 'status',
			type: 'string',
			default: '',
			placeholder: 'e.g. completed',
			description: "The call's status as Unpod logs it (completed, failed, not_connected...), any case",
		},
		times.to,
	]),
	simplifyField(show, 'callLog'),
];
