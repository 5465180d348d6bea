/** Space > Get Many. */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { returnAllAndLimit } from '../../../shared/descriptions';
import { checkResponseAt, listRouting } from '../../../shared/routing';

export const option: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many spaces',
	description: 'List the spaces of the organization, newest first',
	routing: listRouting({ url: '/spaces/', check: checkResponseAt('/spaces/') }),
};

export const description: INodeProperties[] = returnAllAndLimit({ resource: ['space'], operation: ['getAll'] });
