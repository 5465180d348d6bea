/**
 * What a node remembers of a space's recent tasks between executions, in its static data: a
 * workflow that places calls every hour then reads only the tasks created since its last read
 * (and a margin), not the whole lookback again, so its requests stay flat as the campaign's tasks
 * pile up, and, where it counts calls, again those whose call came within the last day (a redial
 * adds a call). The duplicate guard and the limits of calls use it: they need who was called,
 * when, and how often.
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
 * How long after its call a task is read again: Unpod's post-call step schedules a redial (the
 * same task, its `redial_count` one more) minutes after a call ends, and a call may go hours after
 * its schedule in a long queue. Longer would make every run read back to a task that never ends
 * (a cancelled one, a status Unpod does not name).
 */
export const REDIALS_SETTLE_SECONDS = 24 * 3600;

/**
 * Whether a remembered task may have changed since it was read, in what the counts read: its call
 * (its schedule, else its creation) came within the last REDIALS_SETTLE_SECONDS. A call still to
 * come changes nothing before it rings.
 */
export function mayHaveChanged(task: KnownTask, now: number): boolean {
	const call = task.scheduled ?? task.created;
	return call !== undefined && call <= now && call >= now - REDIALS_SETTLE_SECONDS;
}

/**
 * Where the next read starts: from the memory's last read (less the overlap) when the memory
 * reaches back to `since`, else from `since`, the whole lookback. Where the read counts calls
 * (`now` given: limits, the cap), from the oldest remembered task that may have changed
 * (mayHaveChanged), so that it is read again with its redials; the duplicate guard needs only who
 * has a task.
 */
export function readFrom(
	known: KnownSpace | undefined,
	since: number,
	now?: number,
): { from: number; incremental: boolean } {
	if (!known || known.from > since || known.readAt - OVERLAP_SECONDS <= since)
		return { from: since, incremental: false };
	let from = known.readAt - OVERLAP_SECONDS;
	if (now !== undefined)
		for (const task of known.tasks)
			if (task.created !== undefined && task.created < from && mayHaveChanged(task, now)) from = task.created;
	return { from: Math.max(from, since), incremental: true };
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
	for (const task of known?.tasks ?? []) {
		const fresh = byId.get(task.task_id);
		// A space's list gives no schedule: the one this node sent is kept (rememberSent).
		if (fresh) {
			if (fresh.scheduled === undefined && task.scheduled !== undefined) fresh.scheduled = task.scheduled;
		} else if (incremental) byId.set(task.task_id, task);
	}
	const tasks = [...byId.values()]
		.filter((task) => task.created === undefined || task.created >= since)
		.sort((a, b) => (b.created ?? Number.MAX_SAFE_INTEGER) - (a.created ?? Number.MAX_SAFE_INTEGER));
	return { from: since, readAt, tasks };
}

/**
 * The tasks a run created, remembered with the schedule it sent them with: a space's task list
 * does not give it, and a call counts when it rings (France's limit may move one weeks ahead).
 */
export function rememberSent(known: KnownSpace | undefined, sent: KnownTask[]): KnownSpace | undefined {
	if (!known || !sent.length) return known;
	const ids = new Set(sent.map((task) => task.task_id));
	return { ...known, tasks: [...sent, ...known.tasks.filter((task) => !ids.has(task.task_id))] };
}
