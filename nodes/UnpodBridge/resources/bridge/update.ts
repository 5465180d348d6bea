import type { INodeProperties } from 'n8n-workflow';

export const BRIDGE_STATUSES = [
	{ name: 'Active', value: 'ACTIVE' },
	{ name: 'Draft', value: 'DRAFT' },
	{ name: 'Inactive', value: 'INACTIVE' },
];

export const updateFields: INodeProperties[] = [
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show: { resource: ['bridge'], operation: ['update'] } },
		options: [
			{
				displayName: 'Description',
				name: 'description',
				type: 'string',
				default: '',
				routing: { send: { type: 'body', property: 'description' } },
			},
			{
				displayName: 'Name',
				name: 'name',
				type: 'string',
				default: '',
				routing: { send: { type: 'body', property: 'name' } },
			},
			{
				displayName: 'Status',
				name: 'status',
				type: 'options',
				options: BRIDGE_STATUSES,
				default: 'ACTIVE',
				routing: { send: { type: 'body', property: 'status' } },
			},
		],
	},
];
