/** What several bridge operations share: the bridge picker and its error check. */
import type { INodeProperties } from 'n8n-workflow';
import { locator } from '../../../shared/descriptions';
import { checkResponseNaming } from '../../../shared/routing';

/** Bridge answers that may not name the bridge (a bare 404) are completed with its slug. */
export const checkBridge = checkResponseNaming('bridge', 'bridge');

/** The bridge picker; `suffix` names the sub-resource of the URL (for example `connect-provider/`). */
export function bridgeLocator(resource: string, operation: string, suffix = ''): INodeProperties {
	return locator({
		displayName: 'Bridge',
		name: 'bridge',
		description: 'The bridge to use',
		searchListMethod: 'searchBridges',
		idMode: { name: 'slug', displayName: 'By ID', placeholder: 'Paste a bridge slug, e.g. sales-line' },
		show: { resource: [resource], operation: [operation] },
		url: `=/telephony/bridges/{{encodeURIComponent($value)}}/${suffix}`,
	});
}
