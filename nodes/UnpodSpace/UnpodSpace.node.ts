import { NodeConnectionTypes } from 'n8n-workflow';
import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
import { searchSpaces } from '../shared/listSearch/searchSpaces';
import { REQUEST_DEFAULTS } from '../shared/transport';
import { organizationFields, organizationOperations } from './resources/organization';
import { personFields, personOperations } from './resources/person';
import { spaceFields, spaceOperations } from './resources/space';

export class UnpodSpace implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Unpod Space',
		name: 'unpodSpace',
		icon: { light: 'file:../../icons/unpod.svg', dark: 'file:../../icons/unpod.dark.svg' },
		group: ['input'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			"List Unpod organizations and their invoices, spaces (call lists), their call tasks and analytics, the runs of a bulk import, and a person's call profile",
		defaults: { name: 'Unpod Space' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'unpodApi', required: true }],
		requestDefaults: REQUEST_DEFAULTS,
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Organization', value: 'organization' },
					{ name: 'Person', value: 'person' },
					{ name: 'Space', value: 'space' },
				],
				default: 'space',
			},
			organizationOperations,
			...organizationFields,
			personOperations,
			...personFields,
			spaceOperations,
			...spaceFields,
		],
	};

	methods = {
		listSearch: { searchSpaces },
	};
}
