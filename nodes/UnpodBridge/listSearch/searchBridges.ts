import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';
import { MAX_PAGE_SIZE, toPage } from '../../shared/pagination';
import { unpodApiRequest } from '../../shared/transport';

/** One page of bridges a call; the editor asks for the next with the token. */
export async function searchBridges(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const page = Number(paginationToken) || 1;
	const body = await unpodApiRequest.call(this, {
		method: 'GET',
		path: '/telephony/bridges/',
		qs: { page, page_size: MAX_PAGE_SIZE },
	});
	const { count, data } = toPage(body);
	const needle = filter?.trim().toLowerCase();
	const results = data
		.filter((b) => !needle || `${b.name} ${b.slug}`.toLowerCase().includes(needle))
		.map((b) => ({ name: `${b.name} (${b.status})`, value: String(b.slug) }));
	const more = data.length === MAX_PAGE_SIZE && (count === undefined || page * MAX_PAGE_SIZE < count);
	return { results, paginationToken: more ? String(page + 1) : undefined };
}
