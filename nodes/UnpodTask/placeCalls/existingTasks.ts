/**
 * A space's recently created tasks, looked up by Document ID, by phone number and by the call
 * they follow: the duplicate guard (a contact that already has a task is not called again), the
 * follow-ups already scheduled, and the contact's task for a call whose ID is not known.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { normalizePhone } from '../../shared/contacts';
import { NumberPlans } from '../../shared/allowedNumbers/numberPlans';
import { asNodeError } from '../../shared/errors';
import type { WaitBudget } from '../../shared/retry';
import { callChain } from '../../shared/outcome';
import { readTaskList } from '../../shared/taskLists';
import { isFinal } from '../../shared/tasks';
import { platformTime } from '../../shared/time';
import { asListed, readFrom, remember } from './knownTasks';
import type { KnownSpace } from './knownTasks';
import type { Row } from '../mayCall/contactRow';

export interface ExistingTask {
	task_id: string;
	run_id: string | null;
	status: string | null;
	/** When Unpod created it (epoch ms), if the list says. */
	created?: number;
	/** The task as the list gave it (Call and Wait puts out an ended one as it is). */
	listed: IDataObject;
}

/** When a task calls (its schedule, else its creation), and how often: Unpod's redials of it count. */
function callsOf(t: IDataObject): { at?: number; count: number } {
	const input = (t.input ?? {}) as IDataObject;
	const stamp = t.scheduled_timestamp;
	const scheduled = typeof stamp === 'number' ? stamp * 1000 : platformTime(stamp);
	const at = scheduled ?? platformTime(t.created);
	return { at, count: 1 + (Number(input.redial_count) > 0 ? Number(input.redial_count) : 0) };
}

export interface Match {
	task: ExistingTask;
	/** What matched: the row's Document ID, or its phone number. */
	by: 'document_id' | 'phone';
	value: string;
}

/** Where a row looks for its duplicates: its own country code, its own lookback. */
export interface RowGuard {
	countryCode: string;
	/** Epoch ms: tasks created before it do not count. */
	since: number;
}

export class ExistingTasks {
	private tasks: Array<{ task: ExistingTask; number: unknown }> = [];
	private byDocument = new Map<string, ExistingTask>();
	/** Follow-ups, Unpod's and Task > Follow Up's, by the call they follow (`callChain`). */
	private byPrevious = new Map<string, IDataObject>();
	/** Unpod's stored numbers, normalised with each country code a row asked for. */
	private byPhone = new Map<string, Map<string, ExistingTask>>();
	/** The instants of the calls to each number, by the country code they were read with. */
	private callsByPhone = new Map<string, Map<string, number[]>>();
	/** One reader of numbers for every stored number: its patterns are compiled once. */
	private plans = new NumberPlans();

	/** `tasks` newest first, as the list gives them: the newest task of a contact wins. */
	constructor(tasks: IDataObject[]) {
		for (const t of tasks) {
			const input = (t.input ?? {}) as IDataObject;
			const task: ExistingTask = {
				task_id: String(t.task_id ?? ''),
				run_id: typeof t.run_id === 'string' ? t.run_id : null,
				status: typeof t.status === 'string' ? t.status : null,
				created: platformTime(t.created),
				listed: t,
			};
			if (!task.task_id) continue;
			const documentId = input.document_id ?? t.ref_id;
			if (typeof documentId === 'string' && documentId && !this.byDocument.has(documentId)) {
				this.byDocument.set(documentId, task);
			}
			this.tasks.push({ task, number: input.contact_number ?? input.phone });
			const previous = callChain(t).previous_task_id;
			if (previous && !this.byPrevious.has(previous)) this.byPrevious.set(previous, t);
		}
	}

	/**
	 * The instants of the calls to `phone` (normalised) among these tasks, one per call: a task
	 * Unpod redialled counts once more for each redial. The limit of calls in 24 hours reads them.
	 */
	callTimes(phone: string, countryCode: string): number[] {
		let index = this.callsByPhone.get(countryCode);
		if (!index) {
			// Once per country code: 100,000 rows against 100,000 tasks read each task once, not once a row.
			index = new Map();
			for (const { task, number } of this.tasks) {
				const normalised = normalizePhone(number, countryCode, this.plans);
				const { at, count } = callsOf(task.listed);
				if (!normalised || at === undefined) continue;
				const times = index.get(normalised) ?? [];
				for (let i = 0; i < count; i++) times.push(at);
				index.set(normalised, times);
			}
			this.callsByPhone.set(countryCode, index);
		}
		return index.get(phone) ?? [];
	}

	/** The instants of every call among these tasks, sorted, a redial once more each: Max Calls per Day reads them. */
	allCallTimes(): number[] {
		const times: number[] = [];
		for (const { task } of this.tasks) {
			const { at, count } = callsOf(task.listed);
			if (at !== undefined) for (let i = 0; i < count; i++) times.push(at);
		}
		return times.sort((a, b) => a - b);
	}

	/** The follow-up already scheduled for the call `taskId`, as the list gave it. */
	followUpOf(taskId: string): IDataObject | undefined {
		return this.byPrevious.get(taskId);
	}

	/** The contact's newest task, by Document ID else by phone, if it has not ended. */
	openTaskOf(document: IDataObject): IDataObject | undefined {
		const found = this.match(document, { countryCode: '', since: 0 })?.task;
		return found && !isFinal(found.status) ? found.listed : undefined;
	}

	private phonesIn(countryCode: string): Map<string, ExistingTask> {
		let phones = this.byPhone.get(countryCode);
		if (!phones) {
			phones = new Map();
			for (const { task, number } of this.tasks) {
				const phone = normalizePhone(number, countryCode, this.plans);
				if (phone && !phones.has(phone)) phones.set(phone, task);
			}
			this.byPhone.set(countryCode, phones);
		}
		return phones;
	}

	/**
	 * By Document ID when the row has one, else by its (already normalised) phone number, which
	 * Unpod's stored numbers are compared with after reading them in the row's own country code.
	 * A task created before the row's lookback does not count.
	 */
	match(document: IDataObject, guard: RowGuard): Match | undefined {
		const recent = (task?: ExistingTask) =>
			task && (task.created === undefined || task.created >= guard.since) ? task : undefined;
		const documentId = typeof document.document_id === 'string' ? document.document_id : '';
		if (documentId) {
			const task = recent(this.byDocument.get(documentId));
			return task && { task, by: 'document_id', value: documentId };
		}
		const phone = typeof document.contact_number === 'string' ? document.contact_number : '';
		const task = phone ? recent(this.phonesIn(guard.countryCode).get(phone)) : undefined;
		return task && { task, by: 'phone', value: phone };
	}
}

/** What a skipped row says about why it was not sent. */
export function skipReason(match: Match, lookbackHours: number): string {
	const what = match.by === 'document_id' ? `Document ID "${match.value}"` : `number ${match.value}`;
	return `Not sent: task ${match.task.task_id} for ${what} was created in this space in the last ${lookbackHours} hours`;
}

/**
 * The tasks created in each space of these rows within the longest lookback of its rows, newest
 * first. With `memory` (the node's static data), only what was created since the last read is
 * read, and the rest remembered (knownTasks.ts). Its requests wait and retry within the run's
 * budget; if it cannot be read, nothing is sent.
 */
export async function recentTasks(
	context: IExecuteFunctions,
	/** `counts`: the read counts calls (limits, the cap), and reads again the tasks that may have changed. */
	rows: Array<Pick<Row, 'lookbackHours'> & { request: { space: string }; counts?: boolean }>,
	budget: WaitBudget,
	memory?: IDataObject,
): Promise<Map<string, ExistingTasks>> {
	const hoursBySpace = new Map<string, number>();
	for (const row of rows) {
		const hours = row.lookbackHours ?? 0;
		hoursBySpace.set(row.request.space, Math.max(hours, hoursBySpace.get(row.request.space) ?? 0));
	}
	const bySpace = new Map<string, ExistingTasks>();
	const known = (memory?.knownTasks ?? {}) as Record<string, KnownSpace>;
	for (const [space, hours] of hoursBySpace) {
		const readAt = Math.floor(Date.now() / 1000);
		const since = Math.floor((Date.now() - hours * 3600 * 1000) / 1000);
		const counting = rows.some((row) => row.request.space === space && row.counts);
		const { from, incremental } = memory
			? readFrom(known[space], since, counting ? readAt : undefined)
			: { from: since, incremental: false };
		try {
			const tasks = await readTaskList(context, { scope: 'space', id: space }, { qs: { from_ts: from }, budget });
			if (!memory) {
				bySpace.set(space, new ExistingTasks(tasks));
				continue;
			}
			known[space] = remember(known[space], tasks, incremental, since, readAt);
			bySpace.set(space, new ExistingTasks(known[space].tasks.map(asListed)));
		} catch (error) {
			const failure = asNodeError(context.getNode(), error);
			failure.message = `Could not look up the space's recent tasks (to skip contacts already called, or to count calls in 24 hours): ${failure.message}. Nothing was sent`;
			throw failure;
		}
	}
	if (memory) memory.knownTasks = known;
	return bySpace;
}

/** A row the guard did not send: the contact's existing task, as the row's answer says it. */
export interface SkippedRow {
	existing: ExistingTask;
	answer: IDataObject;
}

/**
 * Skip Contacts Already Called: the rows (those with a lookback) that already have a task in
 * their space, each looked for with its own lookback and country code among `existing`.
 */
export function calledContacts(rows: Row[], existing: Map<string, ExistingTasks>): Map<Row, SkippedRow> {
	const skipped = new Map<Row, SkippedRow>();
	for (const row of rows) {
		if (row.lookbackHours === undefined) continue;
		const hours = row.lookbackHours;
		const since = Date.now() - hours * 3600 * 1000;
		const match = existing.get(row.request.space)?.match(row.document, { countryCode: row.countryCode, since });
		if (!match) continue;
		const { task } = match;
		skipped.set(row, {
			existing: task,
			answer: {
				task_id: task.task_id,
				run_id: task.run_id,
				task_status: task.status,
				unpod_skipped: skipReason(match, hours),
			},
		});
	}
	return skipped;
}
