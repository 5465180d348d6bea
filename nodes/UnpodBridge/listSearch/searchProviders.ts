import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';
import { searchUnpagedList } from '../../shared/listSearch/searchList';
import { PROVIDERS_PATH } from '../resources/provider/getAll.operation';

/**
 * Unpod's catalogue of telephony carriers (sent whole), each picked by its slug, which a new
 * credential names (OpenAPI 2.0.0). A catalogue without slugs (the February source) gives its ID,
 * which the docs accept in the slug's place.
 */
export async function searchProviders(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	return await searchUnpagedList(this, PROVIDERS_PATH, filter, ['name', 'slug'], (p) => ({
		name: String(p.name),
		value: String(p.slug ?? p.id),
	}));
}
