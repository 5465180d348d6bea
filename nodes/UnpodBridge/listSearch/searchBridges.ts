import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';
import { collectPages, MAX_PAGE_SIZE, toPage } from '../../shared/pagination';
import { pickerBudget } from '../../shared/retry';
import { unpodApiRequest } from '../../shared/transport';

const fetchBridges =
	(context: ILoadOptionsFunctions, budget = pickerBudget()) =>
	async (page: number, pageSize: number) =>
		toPage(
			await unpodApiRequest.call(context, {
				method: 'GET',
				path: '/telephony/bridges/',
				qs: { page, page_size: pageSize },
				budget,
			}),
		);

/**
 * Without a search, one page a call (the editor asks for the next with the token).
 * The API cannot search bridges, so a search reads the whole list and filters it.
 */
export async function searchBridges(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const needle = filter?.trim().toLowerCase();
	// The slug beside the name: OpenAPI 2.0.0 lists no status, and two bridges may share a name.
	const toResult = (b: { name?: unknown; slug?: unknown }) => ({
		name: `${String(b.name)} (${String(b.slug)})`,
		value: String(b.slug),
	});
	if (needle) {
		const all = await collectPages(fetchBridges(this));
		return { results: all.filter((b) => `${b.name} ${b.slug}`.toLowerCase().includes(needle)).map(toResult) };
	}
	const page = Number(paginationToken) || 1;
	const { count, data } = await fetchBridges(this)(page, MAX_PAGE_SIZE);
	const more = data.length === MAX_PAGE_SIZE && (count === undefined || page * MAX_PAGE_SIZE < count);
	return { results: data.map(toResult), paginationToken: more ? String(page + 1) : undefined };
}
