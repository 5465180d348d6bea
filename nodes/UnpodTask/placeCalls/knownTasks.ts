/**
 * What a node remembers of a space's recent tasks between executions, in its static data: a
 * workflow that places calls every hour then reads only the tasks created since its last read
 * (and a margin), not the whole lookback again, so its requests stay flat as the campaign's tasks
 * pile up. The duplicate guard and the limits of calls use it: a task's status here may be old,
 * and they need only who was called, and when.
 */
import type { IDataObject } from 'n8n-workflow';
import { callChain } from '../../shared/outcome';
import { platformTime } from '../../shared/time';

/**
 * How far back each read goes before the last one ended: a task Unpod lists late, or a clock
 * between n8n and Unpod a few minutes apart, is still read.
 */
export const OVERLAP_SECONDS = 10 * 60;

/** A task as the guard needs it: the keys it is matched by, and what a skipped row says. */
export interface KnownTask {
	task_id: string;
	run_id: string | null;
	status: string | null;
	/** Unix seconds, when the list says. */
	created?: number;
	document_id?: string;
	contact_number?: string;
	previous_task_id?: string;
	/** Unix seconds of its schedule, and Unpod's redials of it: the limit of calls in 24 hours counts them. */
	scheduled?: number;
	redials?: number;
}

/** One space's memory: tasks created since `from` (unix seconds), read up to `readAt`. */
export interface KnownSpace {
	from: number;
	readAt: number;
	tasks: KnownTask[];
}

export function knownTask(task: IDataObject): KnownTask | undefined {
	if (!task.task_id) return undefined;
	const input = (task.input ?? {}) as IDataObject;
	const created = platformTime(task.created);
	const documentId = input.document_id ?? task.ref_id;
	const number = input.contact_number ?? input.phone;
	const previous = callChain(task).previous_task_id;
	const stamp = task.scheduled_timestamp;
	const scheduled = typeof stamp === 'number' ? stamp * 1000 : platformTime(stamp);
	return {
		task_id: String(task.task_id),
		run_id: typeof task.run_id === 'string' ? task.run_id : null,
		status: typeof task.status === 'string' ? task.status : null,
		...(created === undefined ? {} : { created: Math.floor(created / 1000) }),
		...(typeof documentId === 'string' && documentId ? { document_id: documentId } : {}),
		...(number === undefined || number === null || number === '' ? {} : { contact_number: String(number) }),
		...(previous ? { previous_task_id: previous } : {}),
		...(scheduled === undefined ? {} : { scheduled: Math.floor(scheduled / 1000) }),
		...(Number(input.redial_count) > 0 ? { redials: Number(input.redial_count) } : {}),
	};
}

/** A known task in the list's own shape, as the guard reads tasks (ExistingTasks). */
export function asListed(task: KnownTask): IDataObject {
	const input: IDataObject = {};
	if (task.document_id) input.document_id = task.document_id;
	if (task.contact_number) input.contact_number = task.contact_number;
	if (task.previous_task_id) input.previous_task_id = task.previous_task_id;
	if (task.redials) input.redial_count = task.redials;
	return {
		task_id: task.task_id,
		run_id: task.run_id,
		status: task.status,
		...(task.created === undefined ? {} : { created: new Date(task.created * 1000).toISOString() }),
		...(task.scheduled === undefined ? {} : { scheduled_timestamp: task.scheduled }),
		input,
	};
}

/**
 * Where the next read starts: from the memory's last read (less the overlap) when the memory
 * reaches back to `since`, else from `since`, the whole lookback.
 */
export function readFrom(known: KnownSpace | undefined, since: number): { from: number; incremental: boolean } {
	if (!known || known.from > since || known.readAt - OVERLAP_SECONDS <= since)
		return { from: since, incremental: false };
	return { from: known.readAt - OVERLAP_SECONDS, incremental: true };
}

/**
 * The memory after a read: the tasks read (newest first) and, from an incremental read, the ones
 * remembered before them, each once, none created before `since`; newest first.
 */
export function remember(
	known: KnownSpace | undefined,
	read: IDataObject[],
	incremental: boolean,
	since: number,
	readAt: number,
): KnownSpace {
	const byId = new Map<string, KnownTask>();
	for (const task of read.map(knownTask)) if (task && !byId.has(task.task_id)) byId.set(task.task_id, task);
	if (incremental && known) for (const task of known.tasks) if (!byId.has(task.task_id)) byId.set(task.task_id, task);
	const tasks = [...byId.values()]
		.filter((task) => task.created === undefined || task.created >= since)
		.sort((a, b) => (b.created ?? Number.MAX_SAFE_INTEGER) - (a.created ?? Number.MAX_SAFE_INTEGER));
	return { from: since, readAt, tasks };
}
