/** Provider Connection > Disconnect. */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { bridgeLocator } from '../bridge/bridge.fields';
import { connectionFields } from './connection.fields';
import { connectionRouting } from './connection.routing';

export const option: INodePropertyOptions = {
	name: 'Disconnect',
	value: 'disconnectProvider',
	action: 'Disconnect a provider credential from a bridge',
	routing: connectionRouting(),
};

export const description: INodeProperties[] = [
	bridgeLocator('providerConnection', 'disconnectProvider', 'disconnect-provider/'),
	...connectionFields('disconnectProvider'),
];
