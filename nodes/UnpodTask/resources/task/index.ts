/**
 * The Task node's operations: each file declares its own (`option`: what the editor lists, how
 * the router runs it, how it resumes when it waits; `description`: its fields). The router and
 * the node's `webhook()` read this list; the operations that wait hand park.ts their own waits.
 */
import type { INodeProperties } from 'n8n-workflow';
import * as callAndWait from './callAndWait.operation';
import * as create from './create.operation';
import * as downloadRecording from './downloadRecording.operation';
import * as followUp from './followUp.operation';
import * as getAll from './getAll.operation';
import * as sendAndWait from './sendAndWait.operation';
import type { TaskOption } from './taskOption';

export interface TaskOperation extends TaskOption {
	fields: INodeProperties[];
}

/** In the order their fields have always been listed in the node's properties. */
export const TASK_OPERATIONS: TaskOperation[] = [
	callAndWait,
	create,
	getAll,
	downloadRecording,
	followUp,
	sendAndWait,
].map((operation) => ({ ...operation.option, fields: operation.description }));

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
