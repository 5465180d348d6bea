import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';
import { toPage } from '../pagination';
import { pickerBudget } from '../retry';
import { unpodApiRequest } from '../transport';

/** The agents list (published agents) is not paginated: one request, filtered here. */
export async function searchAgents(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const { data } = toPage(
		await unpodApiRequest.call(this, { method: 'GET', path: '/agents/', budget: pickerBudget() }),
	);
	const needle = filter?.trim().toLowerCase();
	return {
		results: data
			.filter((a) => !needle || `${a.name} ${a.handle}`.toLowerCase().includes(needle))
			.map((a) => ({ name: `${String(a.name)} (${String(a.handle)})`, value: String(a.handle) })),
	};
}
