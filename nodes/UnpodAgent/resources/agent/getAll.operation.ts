/** Agent > Get Many. */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { returnAllAndLimit } from '../../../shared/descriptions';
import { listRouting } from '../../../shared/routing';

export const option: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many agents',
	description: 'List the published agents of the organization',
	routing: listRouting({ url: '/agents/' }),
};

export const description: INodeProperties[] = returnAllAndLimit({ operation: ['getAll'] });
