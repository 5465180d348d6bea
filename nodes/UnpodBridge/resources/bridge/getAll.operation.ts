/** Bridge > Get Many. */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { returnAllAndLimit } from '../../../shared/descriptions';
import { listRouting } from '../../../shared/routing';

export const option: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many bridges',
	routing: listRouting({ url: '/telephony/bridges/' }),
};

export const description: INodeProperties[] = returnAllAndLimit({ resource: ['bridge'], operation: ['getAll'] });
