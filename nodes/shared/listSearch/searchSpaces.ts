import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';
import { toPage } from '../pagination';
import { pickerBudget } from '../retry';
import { unpodApiRequest } from '../transport';

/** The spaces list is not paginated: one request, filtered here. */
export async function searchSpaces(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const { data } = toPage(
		await unpodApiRequest.call(this, { method: 'GET', path: '/spaces/', budget: pickerBudget() }),
	);
	const needle = filter?.trim().toLowerCase();
	return {
		results: data
			.filter((s) => !needle || `${s.name} ${s.token}`.toLowerCase().includes(needle))
			.map((s) => ({ name: String(s.name), value: String(s.token) })),
	};
}
