/** Provider Connection > Disconnect. */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { requestRouting, unwrapData } from '../../../shared/routing';
import { bridgeLocator, checkBridge } from '../bridge/bridge.fields';
import { connectionFields, sendBothShapes } from './connection.fields';

export const option: INodePropertyOptions = {
	name: 'Disconnect',
	value: 'disconnectProvider',
	action: 'Disconnect a provider credential from a bridge',
	routing: requestRouting({
		method: 'POST',
		idempotent: false,
		check: checkBridge,
		steps: [unwrapData],
		before: sendBothShapes,
	}),
};

export const description: INodeProperties[] = [
	bridgeLocator('providerConnection', 'disconnectProvider', 'disconnect-provider/'),
	...connectionFields('disconnectProvider'),
];
