/**
 * The duplicate guard of Task > Create: the space's recently created tasks, looked up by
 * Document ID and by phone number, so a contact that already has a task is not called again.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { normalizePhone } from '../../../shared/contacts';
import { asNodeError } from '../../../shared/errors';
import { collectPages, toPage } from '../../../shared/pagination';
import type { WaitBudget } from '../../../shared/retry';
import { taskListPath } from '../../../shared/tasks';
import { unpodApiRequest } from '../../../shared/transport';
import type { Row } from './create.rows';

export interface ExistingTask {
	task_id: string;
	run_id: string | null;
	status: string | null;
	/** The task as the list gave it (Call and Wait puts out an ended one as it is). */
	listed: IDataObject;
}

export interface Match {
	task: ExistingTask;
	/** What matched: the row's Document ID, or its phone number. */
	by: 'document_id' | 'phone';
	value: string;
}

export class ExistingTasks {
	private byDocument = new Map<string, ExistingTask>();
	private byPhone = new Map<string, ExistingTask>();

	/** `tasks` newest first, as the list gives them: the newest task of a contact wins. */
	constructor(tasks: IDataObject[], defaultCountryCode = '') {
		for (const t of tasks) {
			const input = (t.input ?? {}) as IDataObject;
			const task: ExistingTask = {
				task_id: String(t.task_id ?? ''),
				run_id: typeof t.run_id === 'string' ? t.run_id : null,
				status: typeof t.status === 'string' ? t.status : null,
				listed: t,
			};
			if (!task.task_id) continue;
			const documentId = input.document_id ?? t.ref_id;
			if (typeof documentId === 'string' && documentId && !this.byDocument.has(documentId)) {
				this.byDocument.set(documentId, task);
			}
			const phone = normalizePhone(input.contact_number ?? input.phone, defaultCountryCode);
			if (phone && !this.byPhone.has(phone)) this.byPhone.set(phone, task);
		}
	}

	/** By Document ID when the row has one, else by its (already normalised) phone number. */
	match(document: IDataObject): Match | undefined {
		const documentId = typeof document.document_id === 'string' ? document.document_id : '';
		if (documentId) {
			const task = this.byDocument.get(documentId);
			return task && { task, by: 'document_id', value: documentId };
		}
		const phone = typeof document.contact_number === 'string' ? document.contact_number : '';
		const task = phone ? this.byPhone.get(phone) : undefined;
		return task && { task, by: 'phone', value: phone };
	}
}

/** What a skipped row says about why it was not sent. */
export function skipReason(match: Match, lookbackHours: number): string {
	const what = match.by === 'document_id' ? `Document ID "${match.value}"` : `number ${match.value}`;
	return `Not sent: task ${match.task.task_id} for ${what} was created in this space in the last ${lookbackHours} hours`;
}

/**
 * The tasks created in each space of these rows within the lookback, newest first. Its
 * requests wait and retry within the run's budget; if it cannot be read, nothing is sent.
 */
export async function recentTasks(
	context: IExecuteFunctions,
	rows: Row[],
	lookbackHours: number,
	countryCode: string,
	budget: WaitBudget,
): Promise<Map<string, ExistingTasks>> {
	const since = Math.floor((Date.now() - lookbackHours * 3600 * 1000) / 1000);
	const bySpace = new Map<string, ExistingTasks>();
	for (const space of new Set(rows.map((r) => r.request.space))) {
		try {
			const tasks = await collectPages(async (page, pageSize) =>
				toPage(
					await unpodApiRequest.call(context, {
						method: 'GET',
						path: taskListPath('space', space),
						qs: { from_ts: since, page, page_size: pageSize },
						subject: `space "${space}"`,
						budget,
					}),
				),
			);
			bySpace.set(space, new ExistingTasks(tasks, countryCode));
		} catch (error) {
			const failure = asNodeError(context.getNode(), error);
			failure.message = `Could not look up the space's recent tasks to skip contacts already called: ${failure.message}. Nothing was sent`;
			throw failure;
		}
	}
	return bySpace;
}
