/** Space > Get. */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { spaceLocator } from '../../../shared/descriptions';
import { checkResponseAt, requestRouting, unwrapData } from '../../../shared/routing';

export const option: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	action: 'Get a space',
	routing: requestRouting({
		method: 'GET',
		idempotent: true,
		check: checkResponseAt('/spaces/{token}/'),
		steps: [unwrapData],
	}),
};

export const description: INodeProperties[] = [
	spaceLocator({ resource: ['space'], operation: ['get'] }, '=/spaces/{{encodeURIComponent($value)}}/'),
];
