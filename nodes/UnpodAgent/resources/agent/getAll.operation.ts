/** Agent > Get Many. */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { returnAllAndLimit } from '../../../shared/descriptions';
import { listRouting } from '../../../shared/routing';

export const option: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many agents',
	description: 'List the published agents of the organization',
	// Unpod sends the whole list (OpenAPI 2.0.0 has no paging here; the backend's list_agents pages nothing).
	routing: listRouting({ url: '/agents/', paged: false }),
};

export const description: INodeProperties[] = returnAllAndLimit({ operation: ['getAll'] });
