/** Task > Create: sends the rows in batches, pairs the answers, and reports what was not created. */
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { contactFields } from '../../../shared/contacts';
import { agentLocator, optionsCollection, spaceLocator } from '../../../shared/descriptions';
import { failedItem } from '../../../shared/itemLoop';
import { bounded, runOption } from '../../../shared/parameters';
import { readRows } from './create.rows';
import { rateLimitBudget, refuseInvalidRows, sendRows } from './create.send';
import {
	callContextField,
	countryCodeOption,
	lookbackOption,
	rateLimitWaitOption,
	skipExistingField,
} from './task.fields';

const show = { operation: ['create'] };

/**
 * 100 contacts a request: the largest page size the API declares, a body of tens of kB,
 * and a failed request affects at most 100 rows, while 10,000 rows take 100 requests.
 */
export const DEFAULT_BATCH_SIZE = 100;
export const MAX_BATCH_SIZE = 500;

export const description: INodeProperties[] = [
	spaceLocator(show),
	agentLocator(show),
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
		default: '',
		placeholder: 'e.g. {{ $json.documents }}',
		required: true,
		description: 'An array of contact documents: {"name": "...", "contact_number": "...", ...}',
		displayOptions: { show: { ...show, contactsSource: ['json'] } },
	},
	callContextField(show),
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
	skipExistingField(show),
	optionsCollection(show, [
		{
			displayName: 'Batch Size',
			name: 'batchSize',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_BATCH_SIZE },
			default: DEFAULT_BATCH_SIZE,
			description: 'How many contacts to send in one request',
			hint: 'One request creates one run with a task per contact',
		},
		countryCodeOption,
		lookbackOption,
		rateLimitWaitOption,
	]),
];

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const items = this.getInputData();
	const continueOnFail = this.continueOnFail();
	const { rows, invalid } = readRows(this, items);
	if (!continueOnFail) refuseInvalidRows(invalid);

	const results = await sendRows(this, rows, {
		batchSize: bounded(
			this,
			runOption(this, 'batchSize', 'Batch Size'),
			'Batch Size',
			DEFAULT_BATCH_SIZE,
			1,
			MAX_BATCH_SIZE,
		),
		budget: rateLimitBudget(this),
		continueOnFail,
	});

	// Output in input order: created rows and error items together.
	const byItem: INodeExecutionData[][] = items.map(() => []);
	for (const row of rows) {
		const result = results.get(row)!;
		byItem[row.itemIndex].push(
			result.kind === 'failed'
				? failedItem(this, row.echo, row.itemIndex, result.error, { unpod_created: result.created })
				: { json: { ...row.echo, ...result.answer }, pairedItem: { item: row.itemIndex } },
		);
	}
	for (const bad of invalid) {
		byItem[bad.itemIndex].push(failedItem(this, bad.echo, bad.itemIndex, bad.error, { unpod_created: false }));
	}
	return byItem.flat();
}
