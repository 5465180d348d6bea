/**
 * The settings of placing calls, as the operations that call show them (Create, Call and Wait,
 * Follow Up, Call and Wait for Approval): the call's context, the duplicate guard, a number's
 * country, batches, the wait on rate limits and the calling hours. A bounded number is declared
 * here once; its check reads these bounds (`numberOption`).
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
	description:
		"The country code numbers without one are read in, its trunk prefix dropped as that country writes it (the UK's 0 of 020, the US's 1). Empty: a number without + or 00 and a country code is not called, and its item says so.",
	hint: 'Numbers with + or 00 keep their own code. Read for each item.',
};

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** Keep to Calling Hours and its options (docs/calling-hours.md); callingHours.ts reads them. */
export function callingHoursField(show: Show, description?: string): INodeProperties {
	return {
		displayName: 'Keep to Calling Hours',
		name: 'callingHours',
		type: 'boolean',
		default: true,
		description:
			description ??
			"Whether to call each contact only when the law of the place where the phone rings allows, in the callee's own time zone (read from the number): its days, hours, holidays and limits of calls (08:00 to 21:00 everywhere; stricter in 12 US states, Canada, France, Australia and South Africa)",
		hint: 'Turn off only for internal or test numbers: your own Calling Days, Hours and Max Calls per 24 Hours still apply. Contacts outside their hours come out with unpod_callee_time_zones, unpod_callee_local_time and scheduled_at or unpod_held.',
		displayOptions: { show },
	};
}

export const outsideHoursOption: INodeProperties = {
	displayName: 'Outside Calling Hours',
	name: 'outsideHours',
	type: 'options',
	options: [
		{
			name: 'Schedule for the Next Legal Time',
			value: 'schedule',
			description: "Create the call for the first minute the callee's window opens",
		},
		{
			name: 'Do Not Create',
			value: 'hold',
			description: 'Leave the contact out; its item says when it may be called',
		},
	],
	default: 'schedule',
	description: 'What to do with a contact whose calling hours are closed now (or at Call At)',
};

export const maxCallsPerNumberOption: INodeProperties = {
	displayName: 'Max Calls per 24 Hours',
	name: 'maxCallsPer24Hours',
	type: 'number',
	typeOptions: { minValue: 0, maxValue: 50 },
	default: 0,
	description:
		"At most this many calls to the same number in 24 hours, Unpod's own follow-ups and redials and this run's earlier rows counted; 0: only the law's limits (3 in 24 hours in Florida, Oklahoma and Maryland, 4 in 30 days in France)",
	hint: "Reads the space's recent tasks once a run: one request per 100 tasks",
};

export const unknownZoneOption: INodeProperties = {
	displayName: 'Time Zone for Unknown Numbers',
	name: 'timeZone',
	type: 'string',
	default: '',
	placeholder: 'e.g. America/Chicago',
	description:
		"The time zone of numbers whose zone is not known (no country code, an unlisted prefix); empty: such numbers are not called (with Keep to Calling Hours off: the workflow's zone). A known zone is never replaced. A contact's own timezone field always wins.",
};

export const callsAreOption: INodeProperties = {
	displayName: 'The Calls Are',
	name: 'callsAre',
	type: 'options',
	options: [
		{
			name: 'Sales or Marketing',
			value: 'sales',
			description:
				'Telemarketing, canvassing, offers: every rule applies, the strictest consent among them (written, in the US)',
		},
		{
			name: 'Survey or Poll',
			value: 'survey',
			description: "Polls, research, questionnaires: the rules that cover them (Louisiana's, Australia's) apply",
		},
		{
			name: 'Informational',
			value: 'informational',
			description:
				'Service, reminders, appointments, a current contract: the rules that cover sales or surveys only are left out; 08:00 to 21:00 still holds',
		},
	],
	default: 'sales',
	description:
		"What the calls are for, in the laws' own categories: which rules of calling hours and consent apply (docs/calling-hours.md, docs/consent.md)",
};

/**
 * Calling Days, Hours From and Hours To: the user's own window, in the callee's zone, kept with
 * or without the law's. Their defaults are the law's floor, written literal as n8n's lint wants.
 */
export const callingWindowOptions: INodeProperties[] = [
	{
		displayName: 'Calling Days',
		name: 'callingDays',
		type: 'multiOptions',
		options: DAYS.map((name, value) => ({ name, value })),
		default: [0, 1, 2, 3, 4, 5, 6],
		description: "Days calls may be placed on, in the callee's time zone; kept with Keep to Calling Hours off too",
	},
	{
		displayName: 'Calling Hours From',
		name: 'callingFrom',
		type: 'string',
		default: '08:00',
		placeholder: 'e.g. 09:00',
		description:
			"The earliest time of day a call starts (HH:MM, in the callee's time zone); never before the law's. Kept with Keep to Calling Hours off too.",
	},
	{
		displayName: 'Calling Hours To',
		name: 'callingTo',
		type: 'string',
		default: '21:00',
		placeholder: 'e.g. 19:00',
		description:
			"The time of day by which a call has started (HH:MM, in the callee's time zone; 24:00 for midnight); never after the law's. Kept with Keep to Calling Hours off too.",
	},
];

/** The calling-hours options every operation that places calls shows, the same everywhere. */
export const hoursOptions: INodeProperties[] = [
	...callingWindowOptions,
	callsAreOption,
	maxCallsPerNumberOption,
	unknownZoneOption,
];
