import type { INodeProperties } from 'n8n-workflow';
import * as getAll from './getAll.operation';

const operations = [getAll];

export const providerOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['provider'] } },
	default: 'getAll',
	options: operations.map((o) => o.option),
};

export const providerFields: INodeProperties[] = operations.flatMap((o) => o.description);
