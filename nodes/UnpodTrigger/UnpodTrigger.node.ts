import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';
import type { IDataObject, INodeExecutionData, INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';
import { agentLocator, simplifyField, spaceLocator } from '../shared/descriptions';
import { searchAgents } from '../shared/listSearch/searchAgents';
import { searchSpaces } from '../shared/listSearch/searchSpaces';
import { MAX_PAGE_SIZE, toPage } from '../shared/pagination';
import { simplifyTask, taskListPath } from '../shared/tasks';
import { unpodApiRequest } from '../shared/transport';
import { FinalStatus, scanForTransitions, TriggerState } from './transitions';

/** How far a manual run ("Fetch Test Event") looks for a finished call. */
const SAMPLE_PAGES = 3;

export class UnpodTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Unpod Trigger',
		name: 'unpodTrigger',
		icon: { light: 'file:../../icons/unpod.svg', dark: 'file:../../icons/unpod.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{"calls ended in " + $parameter["watch"]}}',
		description: 'Starts the workflow when an Unpod call ends (its task turns completed or failed)',
		defaults: { name: 'Unpod Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'unpodApi', required: true }],
		properties: [
			{
				displayName: 'Watch',
				name: 'watch',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Space', value: 'space', description: 'Calls of one space (call list)' },
					{ name: 'Agent', value: 'agent', description: 'Calls made by one agent' },
				],
				default: 'space',
			},
			spaceLocator({ watch: ['space'] }),
			agentLocator({ watch: ['agent'] }),
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				options: [
					{ name: 'Call Completed', value: 'completed' },
					{ name: 'Call Failed', value: 'failed' },
				],
				default: ['completed', 'failed'],
				required: true,
				description: 'Which endings start the workflow',
			},
			simplifyField({}),
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'On Activation, Emit Calls Ended In The Last (Hours)',
						name: 'backfillHours',
						type: 'number',
						typeOptions: { minValue: 0, maxValue: 168 },
						default: 0,
						description:
							'The first poll after activation only learns what exists and emits nothing; set this to also emit the calls that ended in the last hours',
					},
				],
			},
		],
	};

	methods = {
		listSearch: { searchAgents, searchSpaces },
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const watch = this.getNodeParameter('watch') as 'space' | 'agent';
		const id = this.getNodeParameter(watch, '', { extractValue: true }) as string;
		const events = this.getNodeParameter('events', []) as FinalStatus[];
		const simplify = this.getNodeParameter('simplify', true) as boolean;
		const options = this.getNodeParameter('options', {}) as IDataObject;
		if (!events.length) throw new NodeOperationError(this.getNode(), 'Select at least one event');

		const fetchPage = async (page: number, pageSize: number) =>
			toPage(
				await unpodApiRequest.call(this, {
					method: 'GET',
					path: taskListPath(watch, id),
					qs: { page, page_size: pageSize },
					subject: `${watch} "${id}"`,
				}),
			);
		const shape = (tasks: IDataObject[]) => tasks.map((task) => ({ json: simplify ? simplifyTask(task) : task }));

		if (this.getMode() === 'manual') {
			// A sample for the editor: the newest ended call. Stored state is not touched.
			for (let page = 1; page <= SAMPLE_PAGES; page++) {
				const { data } = await fetchPage(page, MAX_PAGE_SIZE);
				const ended = data.find((t) => events.includes(t.status as FinalStatus));
				if (ended) return [shape([ended])];
				if (data.length < MAX_PAGE_SIZE) break;
			}
			throw new NodeOperationError(this.getNode(), `No call has ended yet in this ${watch}`, {
				description: `The newest ${SAMPLE_PAGES * MAX_PAGE_SIZE} tasks of ${watch} "${id}" have no ${events.join(' or ')} call. Create a task and wait for its call to end, then try again.`,
			});
		}

		const staticData = this.getWorkflowStaticData('node');
		const result = await scanForTransitions(staticData.state as TriggerState | undefined, fetchPage, {
			scope: `${watch}:${id}`,
			events,
			now: Date.now(),
			backfillMs: Number(options.backfillHours ?? 0) * 3600 * 1000,
		});
		// Stored only now that every page was read: a failed poll leaves the state as it was.
		staticData.state = result.state as unknown as IDataObject;
		return result.emitted.length ? [shape(result.emitted)] : null;
	}
}
