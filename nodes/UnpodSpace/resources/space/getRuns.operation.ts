/** Space > Get Runs: one run per create request. */
import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { returnAllAndLimit, simplifyField, spaceLocator } from '../../../shared/descriptions';
import { checkResponseNaming, listRouting } from '../../../shared/routing';
import { isoTime } from '../../../shared/time';

const runsShow = { resource: ['space'], operation: ['getRuns'] };

/** A run as a sheet or a status message wants it: its size is the number of contacts it was sent. */
export function simplifyRun(run: IDataObject): IDataObject {
	return {
		run_id: run.run_id ?? null,
		status: run.status ?? null,
		size: run.batch_count ?? null,
		run_mode: run.run_mode ?? null,
		created: isoTime(run.created ?? null),
		modified: isoTime(run.modified ?? null),
	};
}

export const option: INodePropertyOptions = {
	name: 'Get Runs',
	value: 'getRuns',
	action: 'Get the runs of a space',
	description: 'List the runs of a space, newest first: one run per create request (a batch of a bulk import)',
	routing: listRouting({ key: 'run_id', simplify: simplifyRun, check: checkResponseNaming('space', 'space') }),
};

export const description: INodeProperties[] = [
	spaceLocator(runsShow, '=/spaces/{{encodeURIComponent($value)}}/runs/'),
	...returnAllAndLimit(runsShow),
	simplifyField(runsShow, 'run'),
];
