/**
 * The calls a waiting execution placed, kept with the execution and read back when a ring comes:
 * it resumes only with those tasks, found in Unpod by their run and task IDs. Anyone who can
 * read the space's tasks and create one can copy a waiting call's document (its resume address
 * and wait token included) into another run and end it as they like; that copy is not one of the
 * IDs kept here, so it resumes nothing.
 */
import type { IContextObject, IDataObject, IExecuteFunctions, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { WAIT_CALLS, WAIT_ITEM, WAIT_TOKEN, waitTokenOf } from '../../shared/resume';
import { readTaskList } from '../../shared/taskLists';
import { isFinal } from '../../shared/tasks';

/**
 * Where n8n keeps a node's data while its execution waits: the node context, saved with the
 * execution and given back to the node's resume webhook (as `$node[name].context`).
 */
const KEY = 'unpodWaitCalls';

export interface OwnCalls {
	/** The wait token in the calls' resume address. */
	token: string;
	space: string;
	run: string;
	/** The created tasks' IDs, in input order; empty when Unpod's answer did not list them. */
	tasks: string[];
}

/** Keeps the run and tasks a wait created, in its node context, before the execution is put to wait. */
export function keepOwnCalls(context: IExecuteFunctions, calls: OwnCalls): void {
	if (!calls.run) {
		throw new NodeOperationError(
			context.getNode(),
			'Unpod created the calls but its answer named no run, so this execution could not tell its calls from a copy and does not wait for them',
			{ description: 'Look the calls up with Unpod Task > Get Many.' },
		);
	}
	(context.getContext('node') as IContextObject)[KEY] = JSON.stringify(calls);
}

/** A stored value as OwnCalls, or undefined when it is not one. */
export function parseOwnCalls(value: unknown): OwnCalls | undefined {
	if (typeof value !== 'string') return undefined;
	try {
		const calls = JSON.parse(value) as Partial<OwnCalls>;
		const text = (v: unknown) => typeof v === 'string' && v.length > 0;
		if (!text(calls.token) || !text(calls.space) || !text(calls.run) || !Array.isArray(calls.tasks)) return undefined;
		if (!calls.tasks.every(text)) return undefined;
		return calls as OwnCalls;
	} catch {
		return undefined;
	}
}

/**
 * The calls this waiting node kept. A webhook's functions have no node context of their own:
 * n8n's expression resolver reads it from the waiting execution's data.
 */
function ownCallsOf(context: IWebhookFunctions): OwnCalls | undefined {
	const name = JSON.stringify(context.getNode().name);
	try {
		return parseOwnCalls(context.evaluateExpression(`{{ $node[${name}].context[${JSON.stringify(KEY)}] }}`));
	} catch {
		return undefined;
	}
}

/** The input item a call of a wait was placed for. */
export const waitItemOf = (task: IDataObject) => Number((task.input as IDataObject)?.[WAIT_ITEM]) || 0;

/**
 * What a ring at the resume address finds: this execution's own calls, read from Unpod by the
 * run and task IDs it kept, once every one has ended, in input order; otherwise why the
 * execution keeps waiting. The ring's query names the wait; its body is never read.
 */
export async function endedCallsOf(context: IWebhookFunctions): Promise<IDataObject[] | string> {
	const query = (context.getRequestObject().query ?? {}) as IDataObject;
	const own = ownCallsOf(context);
	if (!own) return 'This execution keeps no calls to wait for';
	if (String(query[WAIT_TOKEN] ?? '') !== own.token) return 'The ring names another wait';
	let tasks: IDataObject[];
	try {
		tasks = await readTaskList(context, { scope: 'run', space: own.space, runId: own.run });
	} catch (error) {
		context.logger.warn(`Unpod Task could not read run ${own.run} to resume: ${(error as Error).message}`);
		return 'The run could not be read from Unpod';
	}
	return endedCallsAmong(tasks, own);
}

/**
 * The calls of the wait `own` among its run's tasks, in input order, when every one is listed
 * and ended; otherwise why the execution keeps waiting. A task of the run that is not one of
 * the kept IDs is not one of these calls, whatever its document says.
 */
export function endedCallsAmong(tasks: IDataObject[], own: OwnCalls): IDataObject[] | string {
	const ids = new Set(own.tasks);
	const calls = tasks.filter(
		(task) =>
			(ids.size === 0 || ids.has(String(task.task_id))) &&
			waitTokenOf(task.input) === own.token &&
			(task.run_id === undefined || task.run_id === own.run),
	);
	if (!calls.length) return 'No call of this wait in its run';
	const expected = ids.size || Number((calls[0].input as IDataObject)[WAIT_CALLS]) || calls.length;
	if (calls.length < expected || calls.some((task) => !isFinal(task.status)))
		return 'A call of this wait is still open';
	return calls.sort((a, b) => waitItemOf(a) - waitItemOf(b));
}
