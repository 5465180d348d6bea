/** Number > Get Status: the organization's numbers as `telephony/overview/` (OpenAPI 2.0.0) lists them. */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { returnAllAndLimit } from '../../../shared/descriptions';
import { listRouting } from '../../../shared/routing';

export const option: INodePropertyOptions = {
	name: 'Get Status',
	value: 'getStatus',
	action: "Get the status of the organization's numbers",
	description:
		"Each number of the organization: its bridge, whether it is linked and to which agent, and whether Unpod's systems agree on it (sync state)",
	// Unpod sends the whole list at once.
	routing: listRouting({ url: '/telephony/overview/', paged: false }),
};

export const description: INodeProperties[] = returnAllAndLimit({ resource: ['number'], operation: ['getStatus'] });
