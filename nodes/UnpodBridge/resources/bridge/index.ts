import type { INodeProperties } from 'n8n-workflow';
import {
	checkResponseNaming,
	listRouting,
	output,
	outputCheckedBy,
	requireBodyField,
	unwrapData,
} from '../../../shared/routing';
import { createFields } from './create';
import { deletedBridge } from './delete';
import { getAllFields } from './getAll';
import { bridgeLocator } from './locator';
import { updateFields } from './update';

/** Bridge answers that may not name the bridge (a bare 404) are completed with its slug. */
const checkBridge = checkResponseNaming('bridge', 'bridge');

export const bridgeOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['bridge'] } },
	default: 'getAll',
	options: [
		{
			name: 'Create',
			value: 'create',
			action: 'Create a bridge',
			description: 'Create a telephony bridge',
			routing: { request: { method: 'POST', url: '/telephony/bridges/' }, output: output(unwrapData) },
		},
		{
			name: 'Delete',
			value: 'delete',
			action: 'Delete a bridge',
			routing: { request: { method: 'DELETE' }, output: outputCheckedBy(checkBridge, deletedBridge) },
		},
		{
			name: 'Get',
			value: 'get',
			action: 'Get a bridge',
			description: 'Get a bridge with its numbers',
			routing: { request: { method: 'GET' }, output: outputCheckedBy(checkBridge, unwrapData) },
		},
		{
			name: 'Get Many',
			value: 'getAll',
			action: 'Get many bridges',
			routing: listRouting({ url: '/telephony/bridges/' }),
		},
		{
			name: 'Update',
			value: 'update',
			action: 'Update a bridge',
			description: 'Change the name, description or status of a bridge',
			routing: {
				request: { method: 'PATCH' },
				send: { preSend: [requireBodyField] },
				output: outputCheckedBy(checkBridge, unwrapData),
			},
		},
	],
};

export const bridgeFields: INodeProperties[] = [
	...createFields,
	...getAllFields,
	bridgeLocator('bridge', 'get'),
	bridgeLocator('bridge', 'update'),
	...updateFields,
	bridgeLocator('bridge', 'delete'),
];
