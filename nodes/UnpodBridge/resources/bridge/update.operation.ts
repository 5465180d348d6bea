/** Bridge > Update. */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { requestRouting, unwrapData } from '../../../shared/routing';
import { bridgeLocator, checkBridge } from './bridge.fields';

export const option: INodePropertyOptions = {
	name: 'Update',
	value: 'update',
	action: 'Update a bridge',
	// OpenAPI 2.0.0's PATCH takes the name only; the slug, the bridge's ID, stays.
	description: 'Rename a bridge',
	routing: requestRouting({ method: 'PATCH', idempotent: true, check: checkBridge, steps: [unwrapData] }),
};

export const description: INodeProperties[] = [
	bridgeLocator('bridge', 'update'),
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Sales Line (EU)',
		description: 'The new name. The slug stays as it is.',
		displayOptions: { show: { resource: ['bridge'], operation: ['update'] } },
		routing: { send: { type: 'body', property: 'name' } },
	},
];
