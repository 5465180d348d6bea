/** Bridge > Get. */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { requestRouting, unwrapData } from '../../../shared/routing';
import { bridgeLocator, checkBridge } from './bridge.fields';

export const option: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	action: 'Get a bridge',
	description: 'Get a bridge with its numbers',
	routing: requestRouting({ method: 'GET', idempotent: true, check: checkBridge, steps: [unwrapData] }),
};

export const description: INodeProperties[] = [bridgeLocator('bridge', 'get')];
