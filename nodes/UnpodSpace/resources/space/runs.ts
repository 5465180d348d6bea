import type { IDataObject, IExecutePaginationFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { returnAllAndLimit, simplifyField, spaceLocator, taskFilters } from '../../../shared/descriptions';
import { checkResponseNaming, listRouting, taskListRouting } from '../../../shared/routing';
import { isoTime } from '../../../shared/time';

const runsShow = { resource: ['space'], operation: ['getRuns'] };
const runTasksShow = { resource: ['space'], operation: ['getRunTasks'] };

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

function simplifyRunsIfAsked(this: IExecutePaginationFunctions, rows: IDataObject[]): IDataObject[] {
	return this.getNodeParameter('simplify', true) ? rows.map(simplifyRun) : rows;
}

/** The run's task list; a blank or malformed run ID fails here, naming the field, before any request. */
function runTasksPath(this: IExecutePaginationFunctions): string {
	const space = String(this.getNodeParameter('space', '', { extractValue: true }));
	const runId = String(this.getNodeParameter('runId', '') ?? '').trim();
	if (!runId || /[\s/]/.test(runId)) {
		throw new NodeOperationError(this.getNode(), runId ? `Run ID "${runId}" is not a run ID` : 'Run ID is empty', {
			description:
				"Set Run ID to the run_id of a run: Unpod Task > Create puts it on every row it created ({{ $json.run_id }}), and Space > Get Runs lists a space's runs.",
		});
	}
	return `/spaces/${encodeURIComponent(space)}/runs/${encodeURIComponent(runId)}/tasks/`;
}

export const getRunsRouting = listRouting({
	key: 'run_id',
	transform: simplifyRunsIfAsked,
	check: checkResponseNaming('space', 'space'),
});

export const getRunTasksRouting = taskListRouting('space', { filteredBy: 'run', path: runTasksPath });

export const runFields: INodeProperties[] = [
	spaceLocator(runsShow, '=/spaces/{{encodeURIComponent($value)}}/runs/'),
	...returnAllAndLimit(runsShow),
	{
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: true,
		displayOptions: { show: runsShow },
		description: 'Whether to return only run_id, status, size (contacts sent), run_mode, created and modified',
	},
	spaceLocator(runTasksShow),
	{
		displayName: 'Run ID',
		name: 'runId',
		type: 'string',
		required: true,
		default: '={{ $json.run_id }}',
		placeholder: 'e.g. R3f9c2d7e8a1b4c6d0e2f4a6b8c0d2e4f',
		displayOptions: { show: runTasksShow },
		description:
			'The run to list. Unpod Task > Create puts run_id on every row it created; Space > Get Runs lists them.',
	},
	...returnAllAndLimit(runTasksShow),
	taskFilters(runTasksShow),
	simplifyField(runTasksShow),
];
