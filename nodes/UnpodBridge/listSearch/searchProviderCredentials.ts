import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';
import { searchUnpagedList } from '../../shared/listSearch/searchList';
import { CONFIGURATIONS_PATH } from '../resources/providerCredential/providerCredential.fields';

/**
 * The organization's telephony provider credentials (Unpod lists them whole, with their keys:
 * only the name, provider and state are shown here).
 */
export async function searchProviderCredentials(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	return await searchUnpagedList(this, CONFIGURATIONS_PATH, filter, ['name', 'id'], (c) => {
		const provider = (c.provider_details as IDataObject | null)?.name;
		const details = [provider, c.active === false ? 'inactive' : undefined].filter(Boolean).join(', ');
		return { name: details ? `${String(c.name)} (${String(details)})` : String(c.name), value: String(c.id) };
	});
}
