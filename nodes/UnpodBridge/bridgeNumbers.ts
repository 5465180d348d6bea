/** A bridge's numbers, read from the bridge itself: the number picker and Connect/Disconnect Provider read them. */
import type { IDataObject } from 'n8n-workflow';
import type { WaitBudget } from '../shared/retry';
import { unpodApiRequest } from '../shared/transport';
import type { UnpodContext } from '../shared/transport';

/** The numbers of a bridge, `{number_id, number, state...}`. */
export async function bridgeNumbers(context: UnpodContext, slug: string, budget: WaitBudget): Promise<IDataObject[]> {
	const body = await unpodApiRequest.call(context, {
		method: 'GET',
		path: `/telephony/bridges/${encodeURIComponent(slug)}/`,
		subject: `bridge "${slug}"`,
		budget,
	});
	const bridge = (body.data ?? body) as IDataObject;
	return Array.isArray(bridge.numbers) ? (bridge.numbers as IDataObject[]) : [];
}
