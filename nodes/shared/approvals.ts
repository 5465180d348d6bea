/**
 * Approval calls (Task > Call and Wait for Approval): how an ended call's outcome reads as an
 * approval. How the waiting execution learns that the call ended is in `resume.ts`.
 */
import type { IDataObject } from 'n8n-workflow';
import { simplifyTask } from './outcome';
import { objectOf } from './values';

export const DEFAULT_APPROVED_VALUES = 'approved';
/** Answers that refuse, whatever Approved Values says. */
const REFUSALS = ['declined', 'refused', 'rejected', 'denied', 'not_approved', 'disapproved'];

export type ApprovalReason = 'approved' | 'declined' | 'unclear' | 'not_answered';

const norm = (value: unknown) =>
	String(value ?? '')
		.trim()
		.toLowerCase()
		.replace(/[\s-]+/g, '_');

/** Approved Values as the user typed them: comma-separated, any case. */
export function approvedValuesOf(text: unknown): string[] {
	const values = String(text ?? '')
		.split(',')
		.map(norm)
		.filter(Boolean);
	return values.length ? values : [DEFAULT_APPROVED_VALUES];
}

/**
 * What the post-call analysis says of the decision: `structured_data.approved` (a boolean) and
 * `.decision`, the classification labels, the summary's status and the profile's outcome.
 */
export function decisionWords(task: IDataObject): string[] {
	const post = objectOf(objectOf(task.output).post_call_data);
	const structured = objectOf(post.structured_data);
	const words: unknown[] = [structured.decision, objectOf(post.summary).status, objectOf(post.profile_summary).outcome];
	if (structured.approved === true) words.push('approved');
	if (structured.approved === false) words.push('not_approved');
	const labels = objectOf(post.classification).labels;
	if (Array.isArray(labels)) words.push(...labels);
	return words.map(norm).filter(Boolean);
}

/**
 * Approved only when the call was completed and its analysis says an approved value and no
 * refusal; a call not answered, an answer that says both or neither, is not approved.
 */
export function approvalOf(task: IDataObject, approvedValues: string[]): { approved: boolean; reason: ApprovalReason } {
	if (task.status === 'failed') return { approved: false, reason: 'not_answered' };
	const words = decisionWords(task);
	const refused = words.some((w) => REFUSALS.includes(w));
	const agreed = words.some((w) => approvedValues.includes(w) && !REFUSALS.includes(w));
	if (task.status === 'completed' && agreed && !refused) return { approved: true, reason: 'approved' };
	if (refused && !agreed) return { approved: false, reason: 'declined' };
	return { approved: false, reason: 'unclear' };
}

/**
 * The waiting node's output for one ended call: `approved` at the top level (n8n's review reads
 * it there) and, when not approved, `chatInput`, which n8n passes to the AI agent's model as
 * the person's answer.
 */
export function approvalItem(task: IDataObject, approvedValues: string[]): IDataObject {
	const { approved, reason } = approvalOf(task, approvedValues);
	const call = simplifyTask(task);
	const said = call.call_summary ? `: ${String(call.call_summary)}` : '';
	return {
		approved,
		approval: reason,
		...(approved ? {} : { chatInput: `Not approved by phone (${reason.replace('_', ' ')})${said}` }),
		task_id: call.task_id,
		status: call.status,
		contact_name: call.contact_name,
		contact_number: call.contact_number,
		call_status: call.call_status,
		outcome: call.outcome,
		call_summary: call.call_summary,
		transcript: call.transcript,
		unpod_wait_status: 'ended',
	};
}
