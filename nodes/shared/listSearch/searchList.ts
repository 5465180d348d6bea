import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';
import { toPage } from '../pagination';
import { pickerBudget } from '../retry';
import { unpodApiRequest } from '../transport';

/** A picker over a list the API does not paginate: one request, searched here on `fields`. */
export async function searchUnpagedList(
	context: ILoadOptionsFunctions,
	path: string,
	filter: string | undefined,
	fields: string[],
	toResult: (row: IDataObject) => { name: string; value: string },
): Promise<INodeListSearchResult> {
	const { data } = toPage(await unpodApiRequest.call(context, { method: 'GET', path, budget: pickerBudget() }));
	const needle = filter?.trim().toLowerCase();
	return {
		results: data
			.filter(
				(row) =>
					!needle ||
					fields
						.map((f) => String(row[f] ?? ''))
						.join(' ')
						.toLowerCase()
						.includes(needle),
			)
			.map(toResult),
	};
}
