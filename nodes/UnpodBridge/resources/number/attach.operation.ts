/** Number > Attach to Agent (Unpod's SDK: `telephony/numbers/attach/`). */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { agentLocator } from '../../../shared/descriptions';
import { requestRouting } from '../../../shared/routing';
import { numberResults, phoneNumbersField } from './number.fields';

const show = { resource: ['number'], operation: ['attach'] };

export const option: INodePropertyOptions = {
	name: 'Attach to Agent',
	value: 'attach',
	action: 'Attach numbers to an agent',
	description: "Give an agent phone numbers of the organization's pool: one output item per number",
	routing: requestRouting({
		method: 'POST',
		url: '/telephony/numbers/attach/',
		idempotent: false,
		steps: [numberResults],
	}),
};

export const description: INodeProperties[] = [
	phoneNumbersField(show),
	{
		...agentLocator(show),
		routing: { send: { type: 'body', property: 'agent_id' } },
	},
];
