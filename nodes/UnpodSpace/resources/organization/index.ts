import type { INodeProperties } from 'n8n-workflow';
import * as getAll from './getAll.operation';

const operations = [getAll];

export const organizationOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['organization'] } },
	default: 'getAll',
	options: operations.map((o) => o.option),
};

export const organizationFields: INodeProperties[] = operations.flatMap((o) => o.description);
