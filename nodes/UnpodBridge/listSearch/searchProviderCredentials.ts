import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';
import { searchUnpagedList } from '../../shared/listSearch/searchList';
import { CONFIGURATIONS_PATH } from '../resources/providerCredential/providerCredential.fields';

/**
 * The organization's telephony provider credentials, labelled by carrier and Account SID, e.g.
 * `twilio · AC0123...` (OpenAPI 2.0.0 lists `{id, provider, account_sid, created_at}`). A
 * February-source list (`{name, provider_details, active, ...keys}`) shows its name, carrier and
 * state; its keys are dropped before the list is read.
 */
export async function searchProviderCredentials(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	return await searchUnpagedList(this, CONFIGURATIONS_PATH, filter, ['provider', 'account_sid', 'name', 'id'], (c) => {
		const carrier = (c.provider_details as IDataObject | null)?.name ?? c.provider;
		// The whole SID: it is no secret (Unpod lists it), and two accounts may share a prefix.
		const account = typeof c.account_sid === 'string' && c.account_sid.trim() ? c.account_sid.trim() : undefined;
		const named = typeof c.name === 'string' && c.name.trim() ? c.name.trim() : undefined;
		const label = [named ?? String(carrier ?? 'provider'), account].filter(Boolean).join(' · ');
		const details = [named && carrier ? String(carrier) : undefined, c.active === false ? 'inactive' : undefined]
			.filter(Boolean)
			.join(', ');
		return { name: details ? `${label} (${details})` : label, value: String(c.id) };
	});
}
