import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';
import { searchUnpagedList } from './searchList';

/** The spaces of the organization. */
export async function searchSpaces(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	return await searchUnpagedList(this, '/spaces/', filter, ['name', 'token'], (s) => ({
		name: String(s.name),
		value: String(s.token),
	}));
}
