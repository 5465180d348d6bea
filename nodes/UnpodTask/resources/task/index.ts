/**
 * The Task node's operations, each declared once: what the editor lists, its fields, how the
 * router runs it and, for those that put the execution to wait, how it resumes. The router and
 * the node's `webhook()` read this table; the operations that wait hand park.ts their own waits.
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import type { Operation } from '../../../shared/itemLoop';
import type { Waiting } from '../../waitForCalls/park';
import * as callAndWait from './callAndWait.operation';
import * as create from './create.operation';
import * as downloadRecording from './downloadRecording.operation';
import * as followUp from './followUp.operation';
import * as getAll from './getAll.operation';
import * as sendAndWait from './sendAndWait.operation';

export interface TaskOperation extends INodePropertyOptions {
	value: string;
	action: string;
	description: string;
	fields: INodeProperties[];
	/** Create, Call and Wait, Follow Up and the approval take all items at once (many contacts a request). */
	run: Operation;
	/** How an operation that puts the execution to wait is resumed. */
	waits?: Waiting;
}

/** In the order their fields have always been listed in the node's properties. */
export const TASK_OPERATIONS: TaskOperation[] = [
	{
		name: 'Call and Wait',
		value: 'callAndWait',
		action: 'Call a contact and wait for the outcome',
		description:
			'Place one call per input item and wait until it ends (or Max Call Wait passes), then output what the person said',
		fields: callAndWait.description,
		run: { allItems: callAndWait.execute },
		waits: callAndWait.waits,
	},
	{
		name: 'Create',
		value: 'create',
		action: 'Create call tasks',
		description: 'Create one call task per contact, sending the contacts in batches',
		fields: create.description,
		run: { allItems: create.execute },
	},
	{
		name: 'Get Many',
		value: 'getAll',
		action: 'Get many tasks',
		description: 'List the tasks of a space or of an agent, with their call outcomes',
		fields: getAll.description,
		run: { perItem: getAll.execute },
	},
	{
		name: 'Download Recording',
		value: 'downloadRecording',
		action: 'Download a call recording',
		description: "Download an ended call's recording as a file (binary data), keeping the item's fields",
		fields: downloadRecording.description,
		run: { perItem: downloadRecording.execute },
	},
	{
		name: 'Follow Up',
		value: 'followUp',
		action: 'Schedule callbacks and retries',
		description:
			'For each ended call, schedule a callback at the time asked or another try later, within calling hours; places paid calls later',
		fields: followUp.description,
		run: { allItems: followUp.execute },
	},
	{
		name: 'Call and Wait for Approval',
		value: 'sendAndWait',
		action: 'Ask for approval by phone and wait',
		description:
			"Call an approver and wait, holding no worker, until the call ends; output approved (true or false) from the call's analysis. Also n8n's human review for AI tools.",
		fields: sendAndWait.description,
		run: { allItems: sendAndWait.execute },
		waits: sendAndWait.waits,
	},
];

/** The operation named `value`, if the node has one. */
export function taskOperation(value: string): TaskOperation | undefined {
	return TASK_OPERATIONS.find((operation) => operation.value === value);
}

export const taskOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	default: 'create',
	// The editor lists them by name.
	options: TASK_OPERATIONS.map(({ name, value, action, description }) => ({ name, value, action, description })).sort(
		(a, b) => a.name.localeCompare(b.name),
	),
};

export const taskFields: INodeProperties[] = TASK_OPERATIONS.flatMap((operation) => operation.fields);
