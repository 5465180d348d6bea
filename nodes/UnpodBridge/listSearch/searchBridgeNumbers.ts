import { NodeOperationError } from 'n8n-workflow';
import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';
import { pickerBudget } from '../../shared/retry';
import { bridgeNumbers } from '../bridgeNumbers';

/** The numbers of the bridge picked in the node, read from the bridge itself. */
export async function searchBridgeNumbers(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const slug = String(this.getCurrentNodeParameter('bridge', { extractValue: true }) ?? '').trim();
	if (!slug) throw new NodeOperationError(this.getNode(), 'Pick a bridge first: the numbers listed are its own');
	const numbers = await bridgeNumbers(this, slug, pickerBudget());
	const needle = filter?.trim().toLowerCase();
	return {
		results: numbers
			.filter((n) => !needle || `${n.number} ${n.number_id}`.toLowerCase().includes(needle))
			.map((n) => ({
				name: `${String(n.number)}${n.state ? ` (${String(n.state)})` : ''}`,
				value: String(n.number_id),
			})),
	};
}
