import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';
import { searchUnpagedList } from './searchList';

/** The published agents. */
export async function searchAgents(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	return await searchUnpagedList(this, '/agents/', filter, ['name', 'handle'], (a) => ({
		name: `${String(a.name)} (${String(a.handle)})`,
		value: String(a.handle),
	}));
}
