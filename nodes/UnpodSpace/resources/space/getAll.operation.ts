/** Space > Get Many. */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { returnAllAndLimit } from '../../../shared/descriptions';
import { checkResponseAt, listRouting } from '../../../shared/routing';

export const option: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many spaces',
	description: 'List the spaces of the organization, newest first',
	// Unpod sends the whole list (OpenAPI 2.0.0 has no paging here, nor has the backend's SpaceV2ViewSet.list).
	routing: listRouting({ url: '/spaces/', check: checkResponseAt('/spaces/'), paged: false }),
};

export const description: INodeProperties[] = returnAllAndLimit({ resource: ['space'], operation: ['getAll'] });
