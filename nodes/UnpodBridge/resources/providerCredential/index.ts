import type { INodeProperties } from 'n8n-workflow';
import * as create from './create.operation';
import * as del from './delete.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as update from './update.operation';

const operations = [create, del, get, getAll, update];

export const providerCredentialOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['providerCredential'] } },
	default: 'getAll',
	options: operations.map((o) => o.option),
};

export const providerCredentialFields: INodeProperties[] = operations.flatMap((o) => o.description);
