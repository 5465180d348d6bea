/** The fields both provider-connection operations send: the bridge's number and the provider credential. */
import type { IDataObject, IExecuteSingleFunctions, INodeProperties } from 'n8n-workflow';
import { locator } from '../../../shared/descriptions';
import { requestRouting, unwrapData } from '../../../shared/routing';
import { executionBudget } from '../../../shared/retry';
import type { UnpodContext } from '../../../shared/transport';
import { bridgeNumbers } from '../../bridgeNumbers';
import { checkBridge } from '../bridge/bridge.fields';
import { AS_INTEGER, providerCredentialLocator } from '../providerCredential/providerCredential.fields';

export const connectionFields = (operation: string): INodeProperties[] => {
	const show = { resource: ['providerConnection'], operation: [operation] };
	return [
		locator({
			displayName: 'Number',
			name: 'number',
			description: "The bridge's phone number to connect or disconnect",
			searchListMethod: 'searchBridgeNumbers',
			idMode: {
				name: 'id',
				displayName: 'By ID',
				placeholder: 'Paste a number ID or the number, e.g. 5001 or +14155550100',
				hint: "The number_id of one of the bridge's numbers, or the number itself (Unpod Bridge > Get lists them)",
			},
			show,
		}),
		providerCredentialLocator(show, undefined, {
			send: { type: 'body', property: 'provider_credential_id', value: AS_INTEGER },
		}),
	];
};

/**
 * Sends the body in both of Unpod's shapes: the source's `number_id` and `provider_credential_id`,
 * the 2026 docs' `phone_number` and `provider_config_id` (each side ignores the other's keys). The
 * number's other name is read from the bridge (one request); a number the bridge does not list
 * is sent as given, for Unpod to answer.
 */
export async function sendBothShapes(this: IExecuteSingleFunctions, request: { body?: unknown }): Promise<void> {
	const given = String(this.getNodeParameter('number', undefined, { extractValue: true }) ?? '').trim();
	const slug = String(this.getNodeParameter('bridge', undefined, { extractValue: true }) ?? '').trim();
	const numbers = await bridgeNumbers(this as unknown as UnpodContext, slug, executionBudget(this));
	const isId = /^\d+$/.test(given);
	const found = numbers.find((n) => (isId ? String(n.number_id) === given : String(n.number) === given));
	const body = (request.body ?? {}) as IDataObject;
	if (isId || found) body.number_id = isId ? Number(given) : (found!.number_id as number);
	if (!isId || found) body.phone_number = isId ? found!.number : given;
	if (body.provider_credential_id !== undefined) body.provider_config_id = body.provider_credential_id;
	request.body = body;
}

/** The routing of Connect and Disconnect: one POST, never sent again after a lost answer, in both shapes. */
export const connectionRouting = () =>
	requestRouting({
		method: 'POST',
		idempotent: false,
		check: checkBridge,
		steps: [unwrapData],
		before: sendBothShapes,
	});
