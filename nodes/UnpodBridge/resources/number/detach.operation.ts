/** Number > Detach (Unpod's SDK: `telephony/numbers/detach/`). */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { requestRouting } from '../../../shared/routing';
import { numberResults, phoneNumbersField } from './number.fields';

export const option: INodePropertyOptions = {
	name: 'Detach',
	value: 'detach',
	action: 'Detach numbers from their agent',
	description: 'Take phone numbers away from the agent they are attached to: one output item per number',
	routing: requestRouting({
		method: 'POST',
		url: '/telephony/numbers/detach/',
		idempotent: false,
		steps: [numberResults],
	}),
};

export const description: INodeProperties[] = [phoneNumbersField({ resource: ['number'], operation: ['detach'] })];
