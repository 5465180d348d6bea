import type { INodeProperties } from 'n8n-workflow';
import * as create from './create.operation';
import * as deleteBridge from './delete.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as update from './update.operation';

const operations = [create, deleteBridge, get, getAll, update];

export const bridgeOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['bridge'] } },
	default: 'getAll',
	options: operations.map((o) => o.option),
};

export const bridgeFields: INodeProperties[] = operations.flatMap((o) => o.description);
