import type { INodeProperties } from 'n8n-workflow';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as getAnalytics from './getAnalytics.operation';
import * as getRuns from './getRuns.operation';
import * as getRunTasks from './getRunTasks.operation';
import * as getTasks from './getTasks.operation';

const operations = [get, getAll, getAnalytics, getTasks, getRunTasks, getRuns];

export const spaceOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['space'] } },
	default: 'getAll',
	options: operations.map((o) => o.option),
};

export const spaceFields: INodeProperties[] = operations.flatMap((o) => o.description);
