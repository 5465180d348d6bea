/** Bridge > Update. */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { requestRouting, requireBodyField, unwrapData } from '../../../shared/routing';
import { bridgeDescriptionField, bridgeLocator, checkBridge } from './bridge.fields';

export const BRIDGE_STATUSES = [
	{ name: 'Active', value: 'ACTIVE' },
	{ name: 'Draft', value: 'DRAFT' },
	{ name: 'Inactive', value: 'INACTIVE' },
];

export const option: INodePropertyOptions = {
	name: 'Update',
	value: 'update',
	action: 'Update a bridge',
	description: 'Change the name, description or status of a bridge',
	routing: requestRouting({
		method: 'PATCH',
		idempotent: true,
		before: requireBodyField,
		check: checkBridge,
		steps: [unwrapData],
	}),
};

export const description: INodeProperties[] = [
	bridgeLocator('bridge', 'update'),
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show: { resource: ['bridge'], operation: ['update'] } },
		options: [
			bridgeDescriptionField,
			{
				displayName: 'Name',
				name: 'name',
				type: 'string',
				default: '',
				routing: { send: { type: 'body', property: 'name' } },
			},
			{
				displayName: 'Status',
				name: 'status',
				type: 'options',
				options: BRIDGE_STATUSES,
				default: 'ACTIVE',
				routing: { send: { type: 'body', property: 'status' } },
			},
		],
	},
];
