import type { INodeProperties } from 'n8n-workflow';
import * as callAndWait from './callAndWait.operation';
import * as create from './create.operation';
import * as downloadRecording from './downloadRecording.operation';
import * as followUp from './followUp.operation';
import * as getAll from './getAll.operation';
import * as sendAndWait from './sendAndWait.operation';

export { callAndWait, create, downloadRecording, followUp, getAll, sendAndWait };

export const taskOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	default: 'create',
	options: [
		{
			name: 'Call and Wait',
			value: 'callAndWait',
			action: 'Call a contact and wait for the outcome',
			description:
				'Place one call per input item and wait until it ends (or Max Call Wait passes), then output what the person said',
		},
		{
			name: 'Call and Wait for Approval',
			value: 'sendAndWait',
			action: 'Ask for approval by phone and wait',
			description:
				"Call an approver and wait, holding no worker, until the call ends; output approved (true or false) from the call's analysis. Also n8n's human review for AI tools.",
		},
		{
			name: 'Create',
			value: 'create',
			action: 'Create call tasks',
			description: 'Create one call task per contact, sending the contacts in batches',
		},
		{
			name: 'Download Recording',
			value: 'downloadRecording',
			action: 'Download a call recording',
			description: "Download an ended call's recording as a file (binary data), keeping the item's fields",
		},
		{
			name: 'Follow Up',
			value: 'followUp',
			action: 'Schedule callbacks and retries',
			description:
				'For each ended call, schedule a callback at the time asked or another try later, within calling hours; places paid calls later',
		},
		{
			name: 'Get Many',
			value: 'getAll',
			action: 'Get many tasks',
			description: 'List the tasks of a space or of an agent, with their call outcomes',
		},
	],
};

export const taskFields: INodeProperties[] = [
	...callAndWait.description,
	...create.description,
	...getAll.description,
	...downloadRecording.description,
	...followUp.description,
	...sendAndWait.description,
];
