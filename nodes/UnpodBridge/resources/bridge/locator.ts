import type { INodeProperties } from 'n8n-workflow';

/**
 * The bridge picker: from the bridges list, or by slug. Its routing builds the URL,
 * `suffix` names the sub-resource (for example `connect-provider/`).
 */
export function bridgeLocator(resource: string, operation: string, suffix = ''): INodeProperties {
	return {
		displayName: 'Bridge',
		name: 'bridge',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: 'The bridge to use',
		displayOptions: { show: { resource: [resource], operation: [operation] } },
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: 'searchBridges', searchable: true },
			},
			{
				displayName: 'By Slug',
				name: 'slug',
				type: 'string',
				placeholder: 'e.g. main-line-a1b2c3',
				validation: [
					{
						type: 'regex',
						properties: { regex: '^[^/\\s]+$', errorMessage: 'A slug has no spaces or slashes' },
					},
				],
			},
		],
		routing: {
			request: { url: `=/telephony/bridges/{{encodeURIComponent($value)}}/${suffix}` },
		},
	};
}
