import type { INodeProperties } from 'n8n-workflow';
import * as getAll from './getAll.operation';
import * as getBilling from './getBilling.operation';

const operations = [getAll, getBilling];

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
