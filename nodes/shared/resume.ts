/**
 * Executions that wait for calls holding no worker (Call and Wait for Approval, Call and Wait
 * "until Unpod reports"): the waiting execution's signed resume address travels in each
 * call's document (`n8n_resume_url`), and the triggers of this package ring it when they see
 * the call end. A ring is only a doorbell: the waiting node reads the calls from Unpod itself.
 */
import { sleep } from 'n8n-workflow';
import type {
	IDataObject,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';
import { isFinal } from './tasks';

/** The document field holding the waiting execution's resume address. */
export const RESUME_FIELD = 'n8n_resume_url';
/** The query parameter of that address naming one wait (a random token, signed with the address). */
export const WAIT_TOKEN = 'wait';
/**
 * The query parameter naming the space the calls were placed in: the resume runs with no input
 * item, so a Space given by an expression could not be read again there.
 */
export const WAIT_SPACE = 'space';
/** Which input item of the waiting node a call belongs to, and how many calls the node placed. */
export const WAIT_ITEM = 'n8n_wait_item';
export const WAIT_CALLS = 'n8n_wait_calls';

const obj = (value: unknown): IDataObject =>
	value && typeof value === 'object' && !Array.isArray(value) ? (value as IDataObject) : {};

/** The wait token of a task's document, when it carries a resume address. */
export function waitTokenOf(document: unknown): string | undefined {
	const url = obj(document)[RESUME_FIELD];
	if (typeof url !== 'string') return undefined;
	try {
		return new URL(url).searchParams.get(WAIT_TOKEN) ?? undefined;
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
 * Rings the resume address of each ended call among `tasks`, as the triggers see
 * them; a task whose address leads elsewhere is ignored and logged. Never fails the trigger:
 * a ring that does not go through leaves the execution waiting for the next one, or its limit.
 */
export async function ringWaitingExecutions(
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
				context.logger.warn(
					`Ringing the waiting execution of task ${String(task.task_id)} failed: ${(error as Error).message}`,
				);
				break;
			}
			await sleep(RING_PAUSE_MS);
		}
	}
}
