/** How both provider-connection operations send their request: one POST, in both of Unpod's body shapes. */
import type { IDataObject, IExecuteSingleFunctions } from 'n8n-workflow';
import { requestRouting, unwrapData } from '../../../shared/routing';
import { executionBudget } from '../../../shared/retry';
import type { UnpodContext } from '../../../shared/transport';
import { bridgeNumbers } from '../../bridgeNumbers';
import { checkBridge } from '../bridge/bridge.fields';

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
