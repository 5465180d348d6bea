import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';
import { searchUnpagedList } from '../../shared/listSearch/searchList';
import { PROVIDERS_PATH } from '../resources/provider/getAll.operation';

/** Unpod's catalogue of telephony carriers (sent whole). */
export async function searchProviders(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	return await searchUnpagedList(this, PROVIDERS_PATH, filter, ['name', 'id'], (p) => ({
		name: String(p.name),
		value: String(p.id),
	}));
}
