/** Provider Credential > Delete. */
import type { IExecuteSingleFunctions, INodeExecutionData, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { requestRouting } from '../../../shared/routing';
import { checkProviderCredential, CONFIGURATIONS_PATH, providerCredentialLocator } from './providerCredential.fields';

/** Unpod answers 204 with no body: say what was deleted instead. */
async function deletedCredential(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const id = this.getNodeParameter('providerCredential', undefined, { extractValue: true }) as string;
	return items.map(() => ({ json: { deleted: true, id: /^\d+$/.test(String(id)) ? Number(id) : id } }));
}

export const option: INodePropertyOptions = {
	name: 'Delete',
	value: 'delete',
	action: 'Delete a provider credential',
	// Not sent again after a lost answer: a second delete would say "not found".
	routing: requestRouting({
		method: 'DELETE',
		idempotent: false,
		check: checkProviderCredential,
		steps: [deletedCredential],
	}),
};

export const description: INodeProperties[] = [
	providerCredentialLocator(
		{ resource: ['providerCredential'], operation: ['delete'] },
		`=${CONFIGURATIONS_PATH}{{encodeURIComponent($value)}}/`,
	),
];
