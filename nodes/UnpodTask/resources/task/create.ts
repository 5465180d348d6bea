import type { INodeProperties } from 'n8n-workflow';
import { contactFields } from '../../../shared/contacts';
import { agentLocator, spaceLocator } from '../../../shared/descriptions';
import { DEFAULT_MAX_WAIT_SECONDS } from '../../../shared/retry';

const show = { resource: ['task'], operation: ['create'] };

/**
 * 100 contacts a request: the largest page size the API declares, a body of tens of kB,
 * and a failed request affects at most 100 rows, while 10,000 rows take 100 requests.
 */
export const DEFAULT_BATCH_SIZE = 100;
export const DEFAULT_LOOKBACK_HOURS = 24;

const SKIP_EXISTING_DESCRIPTION =
	"Whether to first look up the space's tasks created recently (see Options > Lookback) and not send a contact that already has one: matched by Document ID when the row has one, else by phone number. Skipped rows come out with the existing task's ID and unpod_skipped. Costs one request per 100 recent tasks.";
export const MAX_BATCH_SIZE = 500;

export const createFields: INodeProperties[] = [
	spaceLocator(show),
	agentLocator(show, undefined, 'pilot', 'Agent (Pilot)'),
	{
		displayName: 'Contacts From',
		name: 'contactsSource',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show },
		options: [
			{
				name: 'Input Items',
				value: 'fields',
				description: 'Each input item is one contact (a row of a sheet, a CRM record)',
			},
			{
				name: 'JSON Array',
				value: 'json',
				description: 'Each input item carries a ready array of contact documents',
			},
		],
		default: 'fields',
	},
	...contactFields({ ...show, contactsSource: ['fields'] }),
	{
		displayName: 'Contacts (JSON)',
		name: 'documents',
		type: 'json',
		default: '={{ $json.documents }}',
		required: true,
		description: 'An array of contact documents: {"name": "...", "contact_number": "...", ...}',
		displayOptions: { show: { ...show, contactsSource: ['json'] } },
	},
	{
		displayName: 'Call Context',
		name: 'context',
		type: 'string',
		typeOptions: { rows: 3 },
		required: true,
		default: '',
		placeholder: 'e.g. Follow up on the pricing enquiry and offer a demo next week',
		description: 'What the agent should know for these calls (the objective of the run). Unpod requires it.',
		hint: 'The goal of the calls and anything the agent should say or ask, in a sentence or two',
		displayOptions: { show },
	},
	{
		displayName: 'Schedule',
		name: 'schedule',
		type: 'options',
		displayOptions: { show },
		options: [
			{ name: 'Now', value: 'now', description: 'Call as soon as possible' },
			{ name: 'Auto', value: 'auto', description: "Call within the agent's calling days and hours" },
			{ name: 'Custom', value: 'custom', description: 'Call at a given date and time' },
		],
		default: 'now',
	},
	{
		displayName: 'Call At',
		name: 'callAt',
		type: 'dateTime',
		required: true,
		default: '',
		description: "Date and time of the calls, in the agent's time zone",
		displayOptions: { show: { ...show, schedule: ['custom'] } },
	},
	// On for new nodes (version 1.1): re-running an import must not call people twice. Off for
	// nodes saved before it existed, whose workflows may mean to call a contact again.
	{
		displayName: 'Skip Contacts Already Called',
		name: 'skipExisting',
		type: 'boolean',
		default: false,
		description: SKIP_EXISTING_DESCRIPTION,
		displayOptions: { show: { ...show, '@version': [1] } },
	},
	{
		displayName: 'Skip Contacts Already Called',
		name: 'skipExisting',
		type: 'boolean',
		default: true,
		description: SKIP_EXISTING_DESCRIPTION,
		displayOptions: { show: { ...show, '@version': [1.1] } },
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show },
		options: [
			{
				displayName: 'Batch Size',
				name: 'batchSize',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: MAX_BATCH_SIZE },
				default: DEFAULT_BATCH_SIZE,
				description: 'How many contacts to send in one request. One request creates one run with a task per contact.',
			},
			{
				displayName: 'Lookback (Hours)',
				name: 'lookbackHours',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: 720 },
				default: DEFAULT_LOOKBACK_HOURS,
				description: 'With Skip Contacts Already Called: how far back to look for tasks of the same contacts',
			},
			{
				displayName: 'Max Wait (Seconds)',
				name: 'maxWaitSeconds',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: DEFAULT_MAX_WAIT_SECONDS,
				description:
					'How long this node may wait in all on Unpod rate limits (429, for Retry-After) and retries of failed requests, before it stops and reports the rows not created',
			},
			{
				displayName: 'Default Country Code',
				name: 'defaultCountryCode',
				type: 'string',
				default: '',
				placeholder: 'e.g. +1',
				description:
					'Added to numbers without a country code (a leading 0 is dropped). Numbers that start with + or 00, or already with this code, are left as they are.',
			},
		],
	},
];
