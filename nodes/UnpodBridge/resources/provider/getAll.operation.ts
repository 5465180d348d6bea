/** Provider > Get Many: Unpod's catalogue of telephony carriers. */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { returnAllAndLimit } from '../../../shared/descriptions';
import { listRouting } from '../../../shared/routing';

export const PROVIDERS_PATH = '/telephony/providers/';

export const option: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many providers',
	description: 'List the telephony carriers Unpod works with (the Provider of a provider credential)',
	routing: listRouting({ url: PROVIDERS_PATH, key: 'id', paged: false }),
};

export const description: INodeProperties[] = returnAllAndLimit({ resource: ['provider'], operation: ['getAll'] });
