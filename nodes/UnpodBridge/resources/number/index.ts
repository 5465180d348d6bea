import type { INodeProperties } from 'n8n-workflow';
import * as attach from './attach.operation';
import * as detach from './detach.operation';
import * as getAll from './getAll.operation';
import * as getStatus from './getStatus.operation';

const operations = [attach, detach, getAll, getStatus];

export const numberOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['number'] } },
	default: 'getAll',
	options: operations.map((o) => o.option),
};

export const numberFields: INodeProperties[] = operations.flatMap((o) => o.description);
