/** Task > Create: sends the rows in batches, pairs the answers, and reports what was not created. */
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { contactFields } from '../../../shared/contacts';
import { agentLocator, optionsCollection, spaceLocator } from '../../../shared/descriptions';
import { numberOption } from '../../../shared/parameters';
import {
	batchSizeOption,
	callContextField,
	callingHoursField,
	countryCodeOption,
	hoursOptions,
	lookbackOption,
	outsideHoursOption,
	rateLimitWaitOption,
	skipExistingField,
} from '../../placeCalls/fields';
import { CallingHours } from '../../../shared/callingHours/callee';
import { doNotCallFields } from '../../mayCall/doNotCall';
import { callerFields, openingLanguageOption } from '../../mayCall/caller';
import { consentFields } from '../../mayCall/consent';
import { allowedNumbersOptions } from '../../mayCall/numbers';
import { maxCallsPerDayOption } from '../../mayCall/dailyCap';
import { rowItems } from '../../placeCalls/output';
import { readRows } from '../../placeCalls/readRows';
import { rateLimitBudget, refuseInvalidRows, sendRows } from '../../placeCalls/send';
import type { TaskOption } from './taskOption';

const show = { operation: ['create'] };

export const option: TaskOption = {
	name: 'Create',
	value: 'create',
	action: 'Create call tasks',
	description: 'Create one call task per contact, sending the contacts in batches',
	run: { allItems: execute },
};

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
	...callerFields(show),
	{
		displayName: 'Schedule',
		name: 'schedule',
		type: 'options',
		displayOptions: { show },
		options: [
			{
				name: 'Now',
				value: 'now',
				description: 'Call as soon as possible (with Keep to Calling Hours: each contact once its hours open)',
			},
			{
				name: 'Auto',
				value: 'auto',
				description:
					"Call within the agent's calling days and hours (with Keep to Calling Hours: sent as Now, or for the callee's next legal time)",
			},
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
		description:
			'Date and time of the calls, in UTC unless the value carries its own offset. With Keep to Calling Hours, a contact whose hours are closed then is called at its next legal time.',
		displayOptions: { show: { ...show, schedule: ['custom'] } },
	},
	skipExistingField(show),
	...doNotCallFields(show),
	...consentFields(show),
	callingHoursField(show),
	optionsCollection(show, [
		batchSizeOption,
		countryCodeOption,
		lookbackOption,
		rateLimitWaitOption,
		outsideHoursOption,
		...hoursOptions,
		...allowedNumbersOptions,
		openingLanguageOption,
		maxCallsPerDayOption,
	]),
];

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const items = this.getInputData();
	const continueOnFail = this.continueOnFail();
	const { rows, invalid, refused } = readRows(this, items, {
		book: new CallingHours(),
		outside: (itemIndex) =>
			(this.getNodeParameter('options', itemIndex, {}) as { outsideHours?: 'schedule' | 'hold' }).outsideHours ??
			'schedule',
	});
	if (!continueOnFail) refuseInvalidRows(invalid);

	const results = await sendRows(this, rows, {
		batchSize: numberOption(this, batchSizeOption),
		budget: rateLimitBudget(this),
		continueOnFail,
		skipCalledContacts: true,
		rememberTasks: true,
		maxCallsPerDay: numberOption(this, maxCallsPerDayOption),
	});
	return rowItems(this, items.length, { rows, results, invalid, refused }, (result, row) => ({
		...row.inputJson,
		...result.answer,
	}));
}
