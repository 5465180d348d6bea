/** Task > Create: sends the rows in batches, pairs the answers, and reports what was not created. */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { contactFields } from '../../../shared/contacts';
import { agentLocator, optionsCollection, spaceLocator } from '../../../shared/descriptions';
import { failedItem } from '../../../shared/itemLoop';
import { cancelSignalOf, DEFAULT_MAX_WAIT_SECONDS, WaitBudget } from '../../../shared/retry';
import { readRows } from './create.rows';
import { refuseInvalidRows, sendRows, skipWithinHours } from './create.send';
import { callContextField, countryCodeOption, lookbackOption, skipExistingField } from './task.fields';

const show = { resource: ['task'], operation: ['create'] };

/**
 * 100 contacts a request: the largest page size the API declares, a body of tens of kB,
 * and a failed request affects at most 100 rows, while 10,000 rows take 100 requests.
 */
export const DEFAULT_BATCH_SIZE = 100;
export const MAX_BATCH_SIZE = 500;

export const description: INodeProperties[] = [
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
	// On for new nodes (version 1.1): re-running an import must not call people twice. Off for
	// version 1, which stays declared because the editor shows a saved node whose version the
	// node no longer lists as not installed.
	skipExistingField({ ...show, '@version': [1] }, false),
	skipExistingField({ ...show, '@version': [1.1] }, true),
	optionsCollection(show, [
		{
			displayName: 'Batch Size',
			name: 'batchSize',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_BATCH_SIZE },
			default: DEFAULT_BATCH_SIZE,
			description: 'How many contacts to send in one request. One request creates one run with a task per contact.',
		},
		lookbackOption,
		{
			displayName: 'Max Wait (Seconds)',
			name: 'maxWaitSeconds',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: DEFAULT_MAX_WAIT_SECONDS,
			description:
				'How long this node may wait in all on Unpod rate limits (429, for Retry-After) and retries of failed requests, before it stops and reports the rows not created',
		},
		countryCodeOption,
	]),
];

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const items = this.getInputData();
	const continueOnFail = this.continueOnFail();
	const { rows, invalid } = readRows(this, items);
	if (!continueOnFail) refuseInvalidRows(invalid);

	const options = this.getNodeParameter('options', 0, {}) as IDataObject;
	const results = await sendRows(this, rows, {
		batchSize: Math.min(MAX_BATCH_SIZE, Math.max(1, Number(options.batchSize) || DEFAULT_BATCH_SIZE)),
		skipWithinHours: skipWithinHours(this, options, false),
		countryCode: String(options.defaultCountryCode ?? ''),
		budget: new WaitBudget(Number(options.maxWaitSeconds ?? DEFAULT_MAX_WAIT_SECONDS) * 1000, cancelSignalOf(this)),
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
