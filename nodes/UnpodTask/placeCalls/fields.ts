/**
 * The settings of placing calls, as the operations that call show them (Create, Call and Wait,
 * Follow Up, Call and Wait for Approval): the call's context, the duplicate guard, a number's
 * country, batches and the wait on rate limits. A bounded number is declared here once; its
 * check reads these bounds (`numberOption`).
 */
import type { INodeProperties } from 'n8n-workflow';
import { DEFAULT_RATE_LIMIT_WAIT_SECONDS } from '../../shared/retry';

type Show = Record<string, Array<string | number | boolean>>;

export const DEFAULT_LOOKBACK_HOURS = 24;

/**
 * 100 contacts a request: the largest page size the API declares, a body of tens of kB,
 * and a failed request affects at most 100 rows, while 10,000 rows take 100 requests.
 */
export const DEFAULT_BATCH_SIZE = 100;

export const batchSizeOption: INodeProperties = {
	displayName: 'Batch Size',
	name: 'batchSize',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 500 },
	default: DEFAULT_BATCH_SIZE,
	description: 'How many contacts to send in one request',
	hint: 'One request creates one run with a task per contact',
};

export function callContextField(show: Show): INodeProperties {
	return {
		displayName: 'Call Context',
		name: 'callContext',
		type: 'string',
		typeOptions: { rows: 3 },
		required: true,
		default: '',
		placeholder: 'e.g. Follow up on the pricing enquiry and offer a demo next week',
		description: 'What the agent should know for these calls (the objective of the run). Unpod requires it.',
		hint: 'The goal of the calls and anything the agent should say or ask, in a sentence or two',
		displayOptions: { show },
	};
}

export function skipExistingField(show: Show): INodeProperties {
	return {
		displayName: 'Skip Contacts Already Called',
		name: 'skipExisting',
		type: 'boolean',
		default: true,
		description: 'Whether to leave out contacts that already have a task in the space from the last Lookback hours',
		hint: 'Matched by Document ID when the row has one, else by phone number; skipped rows come out with the task found and unpod_skipped. One request per 100 recent tasks.',
		displayOptions: { show },
	};
}

export const lookbackOption: INodeProperties = {
	displayName: 'Lookback (Hours)',
	name: 'lookbackHours',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 720 },
	default: DEFAULT_LOOKBACK_HOURS,
	description: 'With Skip Contacts Already Called: how far back to look for tasks of the same contacts',
};

export const rateLimitWaitOption: INodeProperties = {
	displayName: 'Max Rate Limit Wait (Seconds)',
	name: 'maxRateLimitWaitSeconds',
	type: 'number',
	typeOptions: { minValue: 0 },
	default: DEFAULT_RATE_LIMIT_WAIT_SECONDS,
	description:
		'How long this node may wait in all, over all items, on rate limits (429) and retries of failed requests',
	hint: 'Past it the node stops and reports the rows not created',
};

export const countryCodeOption: INodeProperties = {
	displayName: 'Default Country Code',
	name: 'defaultCountryCode',
	type: 'string',
	default: '',
	placeholder: 'e.g. +1',
	description: 'Added to numbers without a country code (a leading 0 is dropped)',
	hint: 'Numbers that start with + or 00, or already with this code, are left as they are. Read for each item.',
};
