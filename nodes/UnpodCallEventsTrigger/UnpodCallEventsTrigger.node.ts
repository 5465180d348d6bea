import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';
import type {
	IDataObject,
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { ringWaitingExecutions } from '../shared/resume';
import { eventsField, simplifyField } from '../shared/descriptions';
import { CALL_ENDINGS } from '../shared/tasks';
import { deliveryItem, LIVE_EVENTS, parseBody, readDelivery } from './deliveries';
import { DEFAULT_SECRET_HEADER, secretMatches, secretProblem } from './origin';
import { checkRepeat } from './repeats';

const SETUP =
	"In Unpod Studio, open the agent that makes the calls, then Integrations > Webhook: turn the webhook on, paste this node's Production URL (above), and add a custom header whose name and value are the Webhook Header Name and Webhook Secret of the Unpod credential. Unpod's API token cannot set an agent's webhook, so this node cannot do it for you; each agent needs its own entry.";

/** Setting up the secret, for the error that refuses activation without one. */
const SECRET_HOW_TO =
	"Open the Unpod credential of this node and fill in Webhook Secret with a long random value (at least 16 characters; for example the output of `openssl rand -hex 24`), keep or change Webhook Header Name, then enter the same header name and value in the agent's webhook form in Unpod Studio (Integrations > Webhook > Headers).";

interface WebhookSecret {
	headerName: string;
	secret: string;
}

async function webhookSecret(context: IHookFunctions | IWebhookFunctions): Promise<WebhookSecret | string> {
	const credentials = await context.getCredentials('unpodApi');
	const headerName = String(credentials.webhookHeaderName || DEFAULT_SECRET_HEADER).trim();
	const problem = secretProblem(headerName, credentials.webhookSecret);
	return problem ?? { headerName, secret: String(credentials.webhookSecret) };
}

/**
 * Refuses to activate without a usable secret: an unauthenticated URL that starts paid
 * follow-ups is not a default to ship.
 */
async function assertSecret(this: IHookFunctions): Promise<boolean> {
	const secret = await webhookSecret(this);
	if (typeof secret === 'string') {
		throw new NodeOperationError(
			this.getNode(),
			`${secret}: the trigger cannot tell Unpod's calls from anyone's. Set it in the Unpod credential, then the same header in the agent's webhook form in Unpod Studio.`,
			{ description: SECRET_HOW_TO },
		);
	}
	return true;
}

export class UnpodCallEventsTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Unpod Call Events Trigger',
		name: 'unpodCallEventsTrigger',
		icon: { light: 'file:../../icons/unpod.svg', dark: 'file:../../icons/unpod.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{"call events: " + $parameter["events"].join(", ")}}',
		description: 'Starts the workflow the moment Unpod pushes a call event: a call ended, or a live call event',
		defaults: { name: 'Unpod Call Events Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'unpodApi', required: true }],
		// Every answer is the node's own (a JSON body): n8n's default answer for a trigger is a
		// text that is not JSON, which Unpod takes as a failure.
		webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'unpod' }],
		properties: [
			{
				displayName: SETUP,
				name: 'setupNotice',
				type: 'notice',
				default: '',
			},
			eventsField([...CALL_ENDINGS, ...LIVE_EVENTS], {
				description: 'Which events start the workflow',
				hint: "Call Completed, Failed and Partially Completed come when the call's task ends, with the post-call analysis; the others as the call happens. Unpod sends every event: the ones not selected are answered and start nothing.",
			}),
			simplifyField({}),
		],
	};

	// Unpod's endpoint for an agent's webhook takes a user's login (JWT), not the API token: the
	// node cannot register or remove the URL there, so nothing exists to find and activation only
	// checks the node's own side, the secret.
	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return false;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return await assertSecret.call(this);
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const res = this.getResponseObject();
		// Unpod retries any answer but exactly 200, and gives up on a 200 that is not JSON.
		const answer = (status: number, body: IDataObject): IWebhookResponseData => {
			res.status(status).json(body);
			return { noWebhookResponse: true };
		};

		const secret = await webhookSecret(this);
		if (typeof secret === 'string') return answer(401, { error: `${secret}. Set it in the credential.` });
		if (!secretMatches(this.getHeaderData()[secret.headerName.toLowerCase()], secret.secret)) {
			return answer(401, { error: `Missing or wrong ${secret.headerName} header` });
		}

		const req = this.getRequestObject() as { rawBody?: Buffer };
		const parsed = parseBody(req.rawBody, this.getBodyData());
		const delivery = parsed.reason ? { kind: 'invalid' as const, reason: parsed.reason } : readDelivery(parsed.body);
		if (delivery.kind === 'invalid') return answer(400, { error: delivery.reason });
		if (delivery.kind === 'open') {
			return answer(200, { received: true, started: false, reason: `Task status ${delivery.status} is not an ending` });
		}
		// The end of a call that an execution waits for (an approval, Call and Wait until Unpod
		// reports) wakes that execution, whichever events start this workflow.
		const relay = async () => {
			if (delivery.kind === 'ended') await ringWaitingExecutions(this, [delivery.body]);
		};
		const events = this.getNodeParameter('events', []) as string[];
		if (!events.includes(delivery.selector)) {
			answer(200, { received: true, started: false, reason: `Event ${delivery.selector} is not selected` });
			await relay();
			return { noWebhookResponse: true };
		}

		const staticData = this.getWorkflowStaticData('node');
		const checked = checkRepeat(staticData.deliveries, delivery.key, Date.now());
		if (checked.repeat) {
			answer(200, { received: true, started: false, reason: 'Already received' });
			await relay();
			return { noWebhookResponse: true };
		}
		staticData.deliveries = checked.log as unknown as IDataObject;

		const simplify = this.getNodeParameter('simplify', true) as boolean;
		const item = deliveryItem(delivery, simplify);
		// Answered here: n8n then stores the repeat log at once, before it creates the execution.
		// Left to n8n's own answer, the store would come after n8n 2.41 has reset the static
		// data's "changed" mark for that execution, and the log would never be stored.
		answer(200, { received: true, started: true });
		await relay();
		return { workflowData: [this.helpers.returnJsonArray([item])], noWebhookResponse: true };
	}
}
