/** Provider Connection > Connect. */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { bridgeLocator } from '../bridge/bridge.fields';
import { connectionFields } from './connection.fields';
import { connectionRouting } from './connection.routing';

export const option: INodePropertyOptions = {
	name: 'Connect',
	value: 'connectProvider',
	action: 'Connect a provider credential to a bridge',
	description: 'Connect a telephony provider credential to a bridge',
	routing: connectionRouting(),
};

export const description: INodeProperties[] = [
	bridgeLocator('providerConnection', 'connectProvider', 'connect-provider/'),
	...connectionFields('connectProvider'),
];
