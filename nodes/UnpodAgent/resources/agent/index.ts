import type { INodeProperties } from 'n8n-workflow';
import * as getAll from './getAll.operation';
import * as getExecutions from './getExecutions.operation';
import * as getTasks from './getTasks.operation';

const operations = [getAll, getExecutions, getTasks];

export const agentOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	default: 'getAll',
	options: operations.map((o) => o.option),
};

export const agentFields: INodeProperties[] = operations.flatMap((o) => o.description);
