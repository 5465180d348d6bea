/**
 * Executions that wait for calls holding no worker (Call and Wait for Approval, Call and Wait
 * "until Unpod reports"): the waiting execution's resume address travels in each
 * call's document (`n8n_resume_url`), and the triggers of this package ring it when they see
 * the call end. A ring is only a doorbell: the waiting node reads the calls from Unpod itself.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'crypto';
import { sleep } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';
import { withoutKeys } from './secrets';
import { isFinal } from './tasks';
import { objectOf } from './values';

/** The document field holding the waiting execution's resume address. */
export const RESUME_FIELD = 'n8n_resume_url';
/** The query parameter of that address naming one wait: a nonce and its HMAC (newWaitToken). */
export const WAIT_TOKEN = 'wait';
/** Which input item of the waiting node a call belongs to, and how many calls the node placed. */
export const WAIT_ITEM = 'n8n_wait_item';
export const WAIT_CALLS = 'n8n_wait_calls';
/**
 * n8n's side of a wait: only the waiting call's own document carries these, where the triggers
 * and the waiting node read them. No item shows them and no next call copies them: the resume
 * address reaches a waiting execution of this n8n.
 */
export const WAIT_FIELDS = [RESUME_FIELD, WAIT_ITEM, WAIT_CALLS];

/** `value` (a task, a document, a list of them) without n8n's wait fields, at any depth. */
export const withoutWaitFields = <T>(value: T): T => withoutKeys(value, WAIT_FIELDS);

/** The wait token of a task's document, when it carries a resume address. */
export function waitTokenOf(document: unknown): string | undefined {
	const url = objectOf(document)[RESUME_FIELD];
	if (typeof url !== 'string') return undefined;
	try {
		return new URL(url).searchParams.get(WAIT_TOKEN) ?? undefined;
	} catch {
		return undefined;
	}
}

/**
 * The key of wait tokens, which the triggers check before they ring an address: a task whose
 * document someone outside this n8n wrote cannot name a waiting node of it. It is this n8n's
 * instance ID (the same for a main and its workers) with the credential's account (Base URL,
 * Organization Handle) and a secret of the credential. The instance ID and the account are in
 * every exported workflow (`meta.instanceId`), so the secret is what holds: the Webhook Secret,
 * which outlives the API token (a new token after a leak strands no wait open for up to 7
 * days); without one, the API token (a new token then lets the waits open at that moment run
 * to their limit).
 */
export function waitKey(instanceId: string, credentials: IDataObject): string {
	const secret = String(credentials.webhookSecret ?? '');
	const account = [
		String(credentials.baseUrl ?? '')
			.trim()
			.replace(/\/+$/, ''),
		String(credentials.orgHandle ?? '').trim(),
		secret ? `webhook secret ${secret}` : `api token ${String(credentials.apiToken ?? '')}`,
	];
	return createHmac('sha256', instanceId).update(JSON.stringify(account)).digest('hex');
}

/** The wait key of the node's credential in this n8n. */
export async function waitKeyOf(context: IExecuteFunctions | IWebhookFunctions | IPollFunctions): Promise<string> {
	return waitKey(context.getInstanceId(), await context.getCredentials('unpodApi'));
}

/** The tag of a wait token: an HMAC, keyed by the wait key, over the waiting node's address. */
function tagOf(key: string, executionId: string, nodeId: string, nonce: string): string {
	return createHmac('sha256', key).update(`${executionId}/${nodeId}/${nonce}`).digest('hex').slice(0, 32);
}

/** A new wait token for the node `nodeId` of execution `executionId`: a random nonce and its tag. */
export function newWaitToken(key: string, executionId: string, nodeId: string): string {
	const nonce = randomBytes(16).toString('hex');
	return `${nonce}.${tagOf(key, executionId, nodeId, nonce)}`;
}

/**
 * A document's resume address when this package's waiting node made it, with the same wait
 * key, in this n8n: same origin, `webhook-waiting/<execution>/<node>` under its path, and a
 * wait token whose tag holds. Nothing in Unpod (a task anyone with access to the space may
 * create) can have a trigger post elsewhere: not to another host, nor to another waiting node
 * of this n8n.
 */
export function ownResumeUrl(document: unknown, instanceBaseUrl: string, key: string): string | undefined {
	const url = objectOf(document)[RESUME_FIELD];
	if (typeof url !== 'string' || !instanceBaseUrl) return undefined;
	try {
		const target = new URL(url);
		const base = new URL(instanceBaseUrl);
		const prefix = `${base.pathname.replace(/\/+$/, '')}/webhook-waiting/`;
		if (target.origin !== base.origin || !target.pathname.startsWith(prefix)) return undefined;
		const [executionId, nodeId, ...rest] = target.pathname.slice(prefix.length).split('/');
		const [nonce, tag] = (target.searchParams.get(WAIT_TOKEN) ?? '').split('.');
		if (!executionId || !nodeId || rest.length || !nonce || !tag) return undefined;
		const expected = tagOf(key, decodeURIComponent(executionId), decodeURIComponent(nodeId), nonce);
		const holds = tag.length === expected.length && timingSafeEqual(Buffer.from(tag), Buffer.from(expected));
		return holds ? target.toString() : undefined;
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
	const waiting = tasks.filter((task) => isFinal(task.status) && objectOf(task.input)[RESUME_FIELD]);
	if (!waiting.length) return;
	const base = context.getInstanceBaseUrl();
	let key: string;
	try {
		key = await waitKeyOf(context);
	} catch (error) {
		context.logger.warn(`Unpod's credential could not be read to ring waiting executions: ${(error as Error).message}`);
		return;
	}
	for (const task of waiting) {
		const url = ownResumeUrl(task.input, base, key);
		if (!url) {
			context.logger.warn(
				`Unpod task ${String(task.task_id)} names a resume address that this package did not make in this n8n for this Unpod account: ignored`,
			);
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
				// A plain request: the address is this n8n's own, and its resume handler reads no header,
				// so Unpod's token and organization stay off it and whatever proxy stands before n8n.
				const res = (await context.helpers.httpRequest(options)) as IN8nHttpFullResponse;
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
