/** Space > Get Run Tasks. */
import type { IExecutePaginationFunctions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { returnAllAndLimit, simplifyField, spaceLocator, taskFilters } from '../../../shared/descriptions';
import { taskListRouting } from '../../../shared/routing';
import { taskListPath } from '../../../shared/taskLists';

const runTasksShow = { resource: ['space'], operation: ['getRunTasks'] };

/** The run's task list; a blank or malformed run ID fails here, naming the field, before any request. */
function runTasksPathOf(this: IExecutePaginationFunctions): string {
	const space = String(this.getNodeParameter('space', '', { extractValue: true }));
	const runId = String(this.getNodeParameter('runId', '') ?? '').trim();
	if (!runId || /[\s/]/.test(runId)) {
		throw new NodeOperationError(this.getNode(), runId ? `Run ID "${runId}" is not a run ID` : 'Run ID is empty', {
			description:
				"Set Run ID to the run_id of a run: Unpod Task > Create puts it on every row it created ({{ $json.run_id }}), and Space > Get Runs lists a space's runs.",
		});
	}
	return taskListPath({ scope: 'run', space, runId });
}

export const option: INodePropertyOptions = {
	name: 'Get Run Tasks',
	value: 'getRunTasks',
	action: 'Get the tasks of a run',
	description: 'List the call tasks of one run, with their outcomes',
	routing: taskListRouting('space', { filteredBy: 'run', path: runTasksPathOf }),
};

export const description: INodeProperties[] = [
	spaceLocator(runTasksShow),
	{
		displayName: 'Run ID',
		name: 'runId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. {{ $json.run_id }}',
		displayOptions: { show: runTasksShow },
		description: 'The run to list',
		hint: 'Unpod Task > Create puts run_id on every row it created; Space > Get Runs lists them',
	},
	...returnAllAndLimit(runTasksShow),
	taskFilters(runTasksShow),
	simplifyField(runTasksShow),
];
