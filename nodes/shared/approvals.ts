/**
 * Approval calls (Task > Call and Wait for Approval): how an ended call's outcome reads as an
 * approval, and the relay by which the triggers wake the execution that waits for it. The
 * waiting execution's signed resume address travels in the call's document (`n8n_resume_url`);
 * a ring is only a doorbell: the waiting node reads the outcome from Unpod itself.
 */
import { sleep } from 'n8n-workflow';
import type {
	IDataObject,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';
import { isFinal, simplifyTask } from './tasks';

/** The document field holding the waiting execution's resume address. */
export const RESUME_FIELD = 'n8n_resume_url';
/** The query parameter of that address naming one approval (a random token, signed with the address). */
export const APPROVAL_TOKEN = 'approval';
/** Which item of the waiting node a call belongs to, and how many calls the node placed. */
export const APPROVAL_ITEM = 'n8n_approval_item';
export const APPROVAL_CALLS = 'n8n_approval_calls';

export const DEFAULT_APPROVED_VALUES = 'approved';
/** Answers that refuse, whatever Approved Values says. */
const REFUSALS = ['declined', 'refused', 'rejected', 'denied', 'not_approved', 'disapproved'];

export type ApprovalReason = 'approved' | 'declined' | 'unclear' | 'not_answered';

const obj = (value: unknown): IDataObject =>
	value && typeof value === 'object' && !Array.isArray(value) ? (value as IDataObject) : {};
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
	const post = obj(obj(task.output).post_call_data);
	const structured = obj(post.structured_data);
	const words: unknown[] = [structured.decision, obj(post.summary).status, obj(post.profile_summary).outcome];
	if (structured.approved === true) words.push('approved');
	if (structured.approved === false) words.push('not_approved');
	const labels = obj(post.classification).labels;
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

/** The approval token of a task's document, when it carries a resume address. */
export function approvalTokenOf(document: unknown): string | undefined {
	const url = obj(document)[RESUME_FIELD];
	if (typeof url !== 'string') return undefined;
	try {
		return new URL(url).searchParams.get(APPROVAL_TOKEN) ?? undefined;
	} catch {
		return undefined;
	}
}

/**
 * A document's resume address when it leads to this n8n's waiting executions (same origin,
 * under its `webhook-waiting/` path): nothing in Unpod can make n8n send a request elsewhere.
 */
export function ownResumeUrl(document: unknown, instanceBaseUrl: string): string | undefined {
	const url = obj(document)[RESUME_FIELD];
	if (typeof url !== 'string' || !instanceBaseUrl) return undefined;
	try {
		const target = new URL(url);
		const base = new URL(instanceBaseUrl);
		const prefix = `${base.pathname.replace(/\/+$/, '')}/webhook-waiting/`;
		return target.origin === base.origin && target.pathname.startsWith(prefix) ? target.toString() : undefined;
	} catch {
		return undefined;
	}
}

/** How long a ring is tried again while n8n answers 409 "is running already" (not yet saved as waiting). */
const RING_TRIES = 6;
const RING_PAUSE_MS = 1000;

/**
 * Rings the resume address of each ended approval call among `tasks`, as the triggers see
 * them; a task whose address leads elsewhere is ignored and logged. Never fails the trigger:
 * a ring that does not go through leaves the execution waiting for the next one, or its limit.
 */
export async function ringWaitingApprovals(
	context: IWebhookFunctions | IPollFunctions,
	tasks: IDataObject[],
): Promise<void> {
	const base = context.getInstanceBaseUrl();
	for (const task of tasks) {
		if (!isFinal(task.status) || !obj(task.input)[RESUME_FIELD]) continue;
		const url = ownResumeUrl(task.input, base);
		if (!url) {
			context.logger.warn(`Unpod task ${String(task.task_id)} names a resume address outside this n8n: ignored`);
			continue;
		}
		const options: IHttpRequestOptions = {
			method: 'POST',
			url,
			body: { task_id: task.task_id, run_id: task.run_id },
			json: true,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			timeout: 10_000,
		};
		for (let attempt = 1; attempt <= RING_TRIES; attempt++) {
			try {
				const res = (await context.helpers.httpRequestWithAuthentication.call(
					context,
					'unpodApi',
					options,
				)) as IN8nHttpFullResponse;
				const stillRunning = res.statusCode === 409 && /running/i.test(JSON.stringify(res.body ?? ''));
				if (!stillRunning || attempt === RING_TRIES) break;
			} catch (error) {
				context.logger.warn(`Ringing the approval of task ${String(task.task_id)} failed: ${(error as Error).message}`);
				break;
			}
			await sleep(RING_PAUSE_MS);
		}
	}
}
