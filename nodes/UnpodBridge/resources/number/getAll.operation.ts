/** Number > Get Many. */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { returnAllAndLimit } from '../../../shared/descriptions';
import { listRouting } from '../../../shared/routing';

export const option: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many numbers',
	description:
		"List the organization's phone numbers and the free ones of Unpod's pool, each with its state; a bridge's own are in Bridge > Get",
	// Unpod sends the whole list at once, whatever page is asked for.
	routing: listRouting({ url: '/telephony/numbers/', paged: false }),
};

export const description: INodeProperties[] = returnAllAndLimit({ resource: ['number'], operation: ['getAll'] });
