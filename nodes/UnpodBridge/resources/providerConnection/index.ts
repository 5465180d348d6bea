import type { INodeProperties } from 'n8n-workflow';
import * as connectProvider from './connectProvider.operation';
import * as disconnectProvider from './disconnectProvider.operation';

const operations = [connectProvider, disconnectProvider];

export const providerConnectionOperations: INodeProperties = {
	displayName: 'Operation',
	name: 'operation',
	type: 'options',
	noDataExpression: true,
	displayOptions: { show: { resource: ['providerConnection'] } },
	default: 'connectProvider',
	options: operations.map((o) => o.option),
};

export const providerConnectionFields: INodeProperties[] = operations.flatMap((o) => o.description);
