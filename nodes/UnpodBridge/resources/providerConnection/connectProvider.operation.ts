/** Provider Connection > Connect. */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { requestRouting, unwrapData } from '../../../shared/routing';
import { bridgeLocator, checkBridge } from '../bridge/bridge.fields';
import { connectionFields, sendBothShapes } from './connection.fields';

export const option: INodePropertyOptions = {
	name: 'Connect',
	value: 'connectProvider',
	action: 'Connect a provider credential to a bridge',
	description: 'Connect a telephony provider credential to a bridge',
	routing: requestRouting({
		method: 'POST',
		idempotent: false,
		check: checkBridge,
		steps: [unwrapData],
		before: sendBothShapes,
	}),
};

export const description: INodeProperties[] = [
	bridgeLocator('providerConnection', 'connectProvider', 'connect-provider/'),
	...connectionFields('connectProvider'),
];
