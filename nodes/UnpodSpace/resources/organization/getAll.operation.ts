/** Organization > Get Many: the organizations of the API token, with the handle the credential needs. */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { returnAllAndLimit } from '../../../shared/descriptions';
import { checkResponseAt, listRouting } from '../../../shared/routing';

export const option: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many organizations',
	description: "List the API token's organizations; domain_handle is the credential's Org Handle",
	// Unpod sends the whole list at once.
	routing: listRouting({
		url: '/organizations/',
		key: 'domain_handle',
		paged: false,
		check: checkResponseAt('/organizations/'),
	}),
};

export const description: INodeProperties[] = returnAllAndLimit({ resource: ['organization'], operation: ['getAll'] });
