/** What several bridge operations share: the bridge picker, its error check, the description field. */
import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { locator } from '../../../shared/descriptions';
import type { WaitBudget } from '../../../shared/retry';
import { checkResponseNaming } from '../../../shared/routing';
import { unpodApiRequest } from '../../../shared/transport';
import type { UnpodContext } from '../../../shared/transport';

/** The numbers of a bridge, `{number_id, number, state...}`, read from the bridge itself. */
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

/** Bridge answers that may not name the bridge (a bare 404) are completed with its slug. */
export const checkBridge = checkResponseNaming('bridge', 'bridge');

/** A bridge's description, sent by Create and Update. */
export const bridgeDescriptionField: INodeProperties = {
	displayName: 'Description',
	name: 'description',
	type: 'string',
	default: '',
	routing: { send: { type: 'body', property: 'description' } },
};

/** The bridge picker; `suffix` names the sub-resource of the URL (for example `connect-provider/`). */
export function bridgeLocator(resource: string, operation: string, suffix = ''): INodeProperties {
	return locator({
		displayName: 'Bridge',
		name: 'bridge',
		description: 'The bridge to use',
		searchListMethod: 'searchBridges',
		idMode: { name: 'slug', displayName: 'By ID', placeholder: 'Paste a bridge slug, e.g. main-line-a1b2c3' },
		show: { resource: [resource], operation: [operation] },
		url: `=/telephony/bridges/{{encodeURIComponent($value)}}/${suffix}`,
	});
}
