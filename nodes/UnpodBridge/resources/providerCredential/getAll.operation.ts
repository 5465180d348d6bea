/** Provider Credential > Get Many. */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { returnAllAndLimit } from '../../../shared/descriptions';
import { listRouting } from '../../../shared/routing';
import { checkProviderCredential, CONFIGURATIONS_PATH } from './providerCredential.fields';

export const option: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many provider credentials',
	description: "List the organization's telephony provider credentials, without their auth tokens",
	// Unpod sends the whole list at once (the February source with the carriers' keys: the check drops them).
	routing: listRouting({ url: CONFIGURATIONS_PATH, key: 'id', paged: false, check: checkProviderCredential }),
};

export const description: INodeProperties[] = returnAllAndLimit({
	resource: ['providerCredential'],
	operation: ['getAll'],
});
