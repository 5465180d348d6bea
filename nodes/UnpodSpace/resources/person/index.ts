import type { INodeProperties } from 'n8n-workflow';
import * as get from './get.operation';

const operations = [get];

export const personOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['person'] } },
	default: 'get',
	options: operations.map((o) => o.option),
};

export const personFields: INodeProperties[] = operations.flatMap((o) => o.description);
