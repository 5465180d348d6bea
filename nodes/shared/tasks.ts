import type { IDataObject, IExecutePaginationFunctions } from 'n8n-workflow';

type TaskScope = 'space' | 'agent';

export function taskListPath(scope: TaskScope, id: string): string {
	return scope === 'space' ? `/spaces/${encodeURIComponent(id)}/tasks/` : `/agents/${encodeURIComponent(id)}/tasks/`;
}

/** The `filters` collection as the task lists' query parameters. */
export function taskFilterQuery(filters: IDataObject): IDataObject {
	const qs: IDataObject = {};
	const seconds = (value: unknown) => Math.floor(new Date(String(value)).getTime() / 1000);
	if (filters.status) qs.status = filters.status;
	if (filters.callType) qs.call_type = filters.callType;
	if (filters.search) qs.search = filters.search;
	if (filters.createdAfter) qs.from_ts = seconds(filters.createdAfter);
	if (filters.createdBefore) qs.to_ts = seconds(filters.createdBefore);
	return qs;
}

const obj = (value: unknown): IDataObject =>
	value && typeof value === 'object' && !Array.isArray(value) ? (value as IDataObject) : {};

/** The transcript as readable lines: `Assistant: ...` / `Contact: ...`. */
export function transcriptText(transcript: unknown): string {
	if (!Array.isArray(transcript)) return '';
	return transcript
		.map((entry) => {
			const e = obj(entry);
			const who = e.role === 'assistant' ? 'Assistant' : e.role === 'user' ? 'Contact' : String(e.role ?? 'Unknown');
			return `${who}: ${String(e.content ?? '').trim()}`;
		})
		.join('\n');
}

/** The flat fields a CRM or a sheet wants from a task. */
export function simplifyTask(task: IDataObject): IDataObject {
	const input = obj(task.input);
	const output = obj(task.output);
	const post = obj(output.post_call_data);
	const profile = obj(post.profile_summary);
	const summary = obj(post.summary);
	const labels = obj(post.classification).labels ?? input.labels ?? [];
	return {
		task_id: task.task_id ?? null,
		run_id: task.run_id ?? null,
		status: task.status ?? null,
		contact_name: input.name ?? null,
		contact_number: input.contact_number ?? null,
		contact_email: input.email ?? null,
		document_id: input.document_id ?? task.ref_id ?? null,
		call_status: output.call_status ?? null,
		call_end_reason: output.call_end_reason ?? null,
		duration: output.duration ?? null,
		start_time: output.start_time ?? null,
		end_time: output.end_time ?? null,
		recording_url: output.recording_url || null,
		call_summary: output.call_summary ?? summary.summary ?? null,
		outcome: profile.outcome ?? summary.status ?? null,
		interest_level: profile.interest_level ?? null,
		next_action: profile.next_action ?? null,
		callback_requested: profile.callback_requested ?? null,
		callback_time: profile.callback_time ?? (summary.callback_datetime || null),
		labels: Array.isArray(labels) ? labels : [labels],
		transcript: transcriptText(output.transcript),
		created: task.created ?? null,
		modified: task.modified ?? task.last_status_change ?? null,
	};
}

/** For declarative task lists: the rows flat when the node's Simplify is on. */
export function simplifyIfAsked(this: IExecutePaginationFunctions, rows: IDataObject[]): IDataObject[] {
	return this.getNodeParameter('simplify', true) ? rows.map(simplifyTask) : rows;
}
