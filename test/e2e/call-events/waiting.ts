/**
 * What the trigger relays to executions that wait holding no worker: Call and Wait for Approval
 * resumes with `approved` once the trigger rings it (or the Unpod Trigger's poll, when the push
 * is lost); a forged ring approves nothing; a wait past its limit goes on without approval. What
 * runs while that limit passes has files of its own, registered from here: an AI agent's human
 * review (agent-review.ts), Call and Wait "until Unpod reports" (call-and-wait.ts).
 */
import type { N8n } from '../../../dev/harness/n8n';
import type { N8nServer } from '../../../dev/harness/n8n-server';
import type { Harness } from '../../helpers/setup';
import { type CallEventsSuite, saveAgentWebhook, sinkOf, webhookUrl } from './suite';
import axios from 'axios';
import type { IDataObject } from 'n8n-workflow';
import { waitFor } from '../../helpers/wait-for';
import { onPinnedN8n } from '../../helpers/versions';
import { graph, reportNode } from '../../../dev/harness/workflow-builders';
import { POLL_BY_REACTIVATION } from '../../../dev/harness/n8n-versions';
import { agentRef, askByPhoneNode, postedWebhook, spaceRef } from '../../helpers/nodes';
import { CREDENTIAL, credentialsFor } from '../../helpers/setup';
import { SEED } from '../../../dev/server/seed';
import type { ApprovalAnswer, Task } from '../../../dev/server/types';
import { RESUME_FIELD } from '../../../nodes/shared/resume';
import { ENDS } from './suite';
import { isTimedOut } from './suite';

let suite: CallEventsSuite;
let h: Harness<N8n>;
let n8n: N8nServer | undefined;
const urlOf = (spec: { webhookId: string }) => webhookUrl(suite, spec);
const sink = () => sinkOf(suite);
const setAgentWebhook = (url: string) => saveAgentWebhook(suite, url);

/** Ends the call as the approver answered; Unpod pushes the end. */
export function approverAnswers(harness: Harness<N8n>, task: Task, said: ApprovalAnswer | 'no answer'): void {
	if (said === 'no answer') harness.server.store.finishTask(task, 'failed');
	else {
		task.answer = said;
		harness.server.store.finishTask(task, 'completed');
	}
}

/**
 * The approval step's tests, then each of `whileTheLimitPasses` (the subjects that wait on the
 * same n8n: each registers its own tests), then the timeout step's test last: that step starts
 * first, and its minute passes while the others run.
 */
export function relayedWaits(
	callEvents: CallEventsSuite,
	whileTheLimitPasses: ReadonlyArray<(callEvents: CallEventsSuite) => void> = [],
): void {
	suite = callEvents;
	const { workflows, timedOut } = callEvents;
	const ENDINGS = ['completed', 'failed', 'partially_completed'];
	/** A workflow step that asks for approval by phone and reports what it resumed with. */
	const STEP = workflows.add(
		graph(
			'approvalStep',
			[postedWebhook('approval-request'), askByPhoneNode(), reportNode('Report', '={{ $env.UNPOD_SINK }}')],
			[
				['Request', 'Ask by phone'],
				['Ask by phone', 'Report'],
			],
		),
	);
	/**
	 * The same step with the shortest limit, in the second space (the tests here end the first
	 * space's open calls): started first, it times out while the other tests run.
	 */
	const TIMEOUT_STEP = workflows.add(
		graph(
			'approvalTimeout',
			[
				postedWebhook('approval-timeout'),
				askByPhoneNode({
					space: spaceRef(SEED.secondSpaceToken),
					agent: agentRef(SEED.secondAgentHandle),
					options: { limitWaitMinutes: 1 },
				}),
				reportNode('Report', '={{ $env.UNPOD_SINK }}', '={{ JSON.stringify({ timed_out_step: $json }) }}'),
			],
			[
				['Request', 'Ask by phone'],
				['Ask by phone', 'Report'],
			],
		),
	);
	const TIMEOUT_PHONE = '+12125400020';
	/** The Unpod Trigger polling the space: the relay's safety net. */
	const POLL = workflows.add(
		graph(
			'approvalPoll',
			[
				{
					name: 'Safety net',
					type: 'n8n-nodes-unpod.unpodTrigger',
					parameters: {
						pollTimes: { item: [{ mode: 'everyMinute' }] },
						callsOf: 'space',
						space: spaceRef(SEED.spaceToken),
						events: ENDINGS,
						simplify: true,
						options: {},
					},
					credentials: CREDENTIAL,
				},
				{ name: 'Done', type: 'n8n-nodes-base.noOp', typeVersion: 1 },
			],
			[['Safety net', 'Done']],
		),
	);
	const polls = () => h.server.requestsTo('GET', `/spaces/${SEED.spaceToken}/tasks/`).length;

	beforeAll(async () => {
		({ h, n8n } = callEvents);
		await n8n!.setActive(STEP, true);
		await n8n!.setActive(TIMEOUT_STEP, true);
		await n8n!.setActive(POLL, true, polls);
		// The approver never answers; n8n's wait tracker ends the wait once the minute has passed.
		h.server.calls.callScripts = [{ number: TIMEOUT_PHONE, end: 'never', afterMs: 400 }];
		const started = await n8n!.postWebhook('approval-timeout', {
			name: 'Tim Out',
			phone: TIMEOUT_PHONE,
			message: 'Approve?',
		});
		expect(started.status).toBe(200);
		await waitFor('the timeout step to wait', async () => (await n8n!.executionCount(TIMEOUT_STEP, ['waiting'])) === 1);
	});

	/** What the approval step resumed with (the ENDS workflow reports every ending to the same sink). */
	const results = () => sink().filter((r) => 'approval' in r);

	/** Asks `phone` for approval through the workflow (`waiting` steps then); the call stays open until the test ends it. */
	async function ask(phone: string, waiting = 1): Promise<Task> {
		// The Call Events Trigger of ENDS receives the agent's pushes, and relays.
		await setAgentWebhook(urlOf(ENDS));
		h.server.calls.callScripts = [{ number: phone, end: 'never', afterMs: 400 }];
		const res = await n8n!.postWebhook('approval-request', {
			name: 'Rita Approver',
			phone,
			message: 'The assistant wants to refund 120 EUR on order 1234. Do you approve?',
		});
		expect(res.status).toBe(200);
		let task: Task | undefined;
		await waitFor(
			'the approval call',
			() => !!(task = h.server.store.tasks.find((t) => t.input.contact_number === phone)),
		);
		// Saved as waiting: no execution of the step is running while the call is open.
		await waitFor('the step to wait', async () => (await n8n!.executionCount(STEP, ['waiting'])) === waiting);
		expect(await n8n!.executionCount(STEP, ['running', 'new'])).toBe(0);
		return task!;
	}

	const answer = (task: Task, said: ApprovalAnswer | 'no answer') => approverAnswers(h, task, said);

	const resultOf = async (task: Task) => {
		await waitFor(
			`the step to resume for ${task.task_id}`,
			() => results().some((r) => r.task_id === task.task_id),
			60_000,
		);
		await n8n!.executionsFinished(STEP);
		return results().find((r) => r.task_id === task.task_id)!;
	};

	type Said = 'approved' | 'declined' | 'unclear' | 'no answer';
	const approverSays = async (said: Said, approved: boolean, phone: string) => {
		const task = await ask(phone);
		expect(task.input).toMatchObject({ name: 'Rita Approver', contact_number: phone });
		expect(String(task.input[RESUME_FIELD])).toMatch(
			/^http:\/\/127\.0\.0\.1:\d+\/webhook-waiting\/\d+\/.+wait=[0-9a-f]{32}/,
		);
		// The opening first (an AI calls, for whom, recorded), then the Message.
		expect(task.task.objective).toMatch(
			/^Opening, required by law: .*\n\nThe assistant wants to refund 120 EUR on order 1234\. Do you approve\?$/s,
		);
		answer(task, said);
		const result = (await resultOf(task)) as IDataObject;
		expect(result).toMatchObject({
			approved,
			approval: said === 'no answer' ? 'not_answered' : said,
			task_id: task.task_id,
			contact_number: phone,
			unpod_wait_status: 'ended',
		});
		if (approved) expect(result).not.toHaveProperty('chatInput');
		else expect(result.chatInput).toMatch(/^Not approved by phone/);
		expect(await n8n!.executionCount(STEP, ['waiting'])).toBe(0);
	};
	const RESUMES = 'the approver says %s: the step resumes with approved %s once the push is relayed';
	// A yes and a no resume the step on every n8n; how the other answers read is the package's own.
	test.each([
		['approved', true, '+12125400001'],
		['declined', false, '+12125400002'],
	] as const)(RESUMES, approverSays);
	onPinnedN8n.each([
		['unclear', false, '+12125400003'],
		['no answer', false, '+12125400004'],
	] as const)(RESUMES, approverSays);

	onPinnedN8n(
		'a forged ring (the right address, a body saying approved) resumes nothing while the call is open, nor approves after',
		async () => {
			const task = await ask('+12125400005');
			const url = String(task.input[RESUME_FIELD]);
			const forged = { task_id: task.task_id, run_id: task.run_id, status: 'completed', approved: true };
			const ring = await axios.post(url, forged, { validateStatus: () => true });
			expect([ring.status, ring.data]).toEqual([200, { resumed: false, reason: 'A call of this wait is still open' }]);
			// Another run named in the body: not this approval's calls.
			const elsewhere = await axios.post(url, { ...forged, run_id: 'Rnot-this-one' }, { validateStatus: () => true });
			expect(elsewhere.status).toBe(200);
			expect(elsewhere.data.resumed).toBe(false);
			// The address with another token: n8n's signature check refuses it.
			const otherToken = await axios.post(url.replace(/wait=[0-9a-f]+/, `wait=${'0'.repeat(32)}`), forged, {
				validateStatus: () => true,
			});
			expect(otherToken.status).toBe(401);
			expect(await n8n!.executionCount(STEP, ['waiting'])).toBe(1);
			expect(results().some((r) => r.task_id === task.task_id)).toBe(false);

			// The approver declines; a forged ring after the push changes nothing.
			answer(task, 'declined');
			expect(await resultOf(task)).toMatchObject({ approved: false, approval: 'declined' });
			await axios.post(url, forged, { validateStatus: () => true });
			expect(results().filter((r) => r.task_id === task.task_id)).toHaveLength(1);
		},
	);

	onPinnedN8n(
		'a copy of the call in another run, ended as approving and pushed, resumes nothing: only the call it placed does',
		async () => {
			const task = await ask('+12125400009');
			// Someone with access to the space copies the waiting call's document into a run of their own.
			const copy = h.server.calls.copyTask(task);
			expect(copy.run_id).not.toBe(task.run_id);
			expect(copy.input[RESUME_FIELD]).toBe(task.input[RESUME_FIELD]);
			answer(copy, 'approved');
			await h.server.webhooks.settled();
			await waitFor('the copy to reach the workflow', () => sink().some((r) => r.task_id === copy.task_id));
			await n8n!.executionsFinished(ENDS.id);
			// Its ring, and one naming the copy's run, resume nothing.
			const url = String(task.input[RESUME_FIELD]);
			const ring = await axios.post(
				url,
				{ task_id: copy.task_id, run_id: copy.run_id },
				{ validateStatus: () => true },
			);
			expect([ring.status, ring.data]).toEqual([200, { resumed: false, reason: 'A call of this wait is still open' }]);
			expect(await n8n!.executionCount(STEP, ['waiting'])).toBe(1);
			expect(results().some((r) => r.task_id === copy.task_id)).toBe(false);

			// The approver's own call declines: that is what the step resumes with.
			answer(task, 'declined');
			expect(await resultOf(task)).toMatchObject({ approved: false, approval: 'declined', task_id: task.task_id });
			expect(results().filter((r) => r.task_id === task.task_id || r.task_id === copy.task_id)).toHaveLength(1);
		},
	);

	onPinnedN8n(
		'a task naming a resume address on another host is not rung, nor does it disturb a waiting step',
		async () => {
			const task = await ask('+12125400007');
			const token = new URL(String(task.input[RESUME_FIELD])).searchParams.get('wait');
			const before = h.server.requests.length;
			const [away] = h.server.calls.addTasks([
				{
					name: 'Away',
					contact_number: '+12125400071',
					[RESUME_FIELD]: `${h.server.url}/webhook-waiting/1/n?wait=${token}`,
				},
			]);
			h.server.store.finishTask(away, 'completed');
			await h.server.webhooks.settled();
			await waitFor('the ending to reach the workflow', () => sink().some((r) => r.task_id === away.task_id));
			await n8n!.executionsFinished(ENDS.id);
			// Nothing was sent to the other host's address, and the step did not read any run.
			expect(
				h.server.requests.slice(before).filter((r) => r.path.includes('webhook-waiting') || r.path.includes('/runs/')),
			).toEqual([]);
			expect(await n8n!.executionCount(STEP, ['waiting'])).toBe(1);

			answer(task, 'approved');
			expect(await resultOf(task)).toMatchObject({ approved: true, task_id: task.task_id });
		},
	);

	(POLL_BY_REACTIVATION ? test : test.skip)(
		"the push is lost: the Unpod Trigger's poll rings, and the step resumes",
		async () => {
			const task = await ask('+12125400006');
			h.server.webhooks.faults = { dropRate: 1, repeatRate: 0 };
			answer(task, 'approved');
			await h.server.webhooks.settled();
			expect(await n8n!.executionCount(STEP, ['waiting'])).toBe(1);
			await n8n!.pollNow(POLL, polls);
			expect(await resultOf(task)).toMatchObject({ approved: true, task_id: task.task_id });
		},
	);

	test('the API token is rotated while two approvals wait: the push resumes one, the poll (n8n 2.x) the other, each with its answer', async () => {
		const pushed = await ask('+12125400081');
		const polled = await ask('+12125400082', 2);
		// After a leak: a new token in Unpod, the old one revoked, the credential saved with the new one.
		const rotated = h.server.rotateToken(SEED.token);
		const data = (apiToken: string) => ({ ...credentialsFor(h.server)[0].data, apiToken });
		await n8n!.updateCredential(CREDENTIAL.unpodApi, 'unpodApi', data(rotated));
		try {
			answer(pushed, 'approved');
			expect(await resultOf(pushed)).toMatchObject({ approved: true, task_id: pushed.task_id });
			expect(await n8n!.executionCount(STEP, ['waiting'])).toBe(1);
			if (POLL_BY_REACTIVATION) {
				h.server.webhooks.faults = { dropRate: 1, repeatRate: 0 };
				answer(polled, 'declined');
				await h.server.webhooks.settled();
				await n8n!.pollNow(POLL, polls);
				expect(await resultOf(polled)).toMatchObject({ approved: false, task_id: polled.task_id });
			}
			// Unpod was read with the new token only, once it was saved.
			const reads = h.server.requests.filter((r) => r.path.includes(`/runs/${pushed.run_id}/`));
			expect(new Set(reads.map((r) => r.headers.authorization))).toEqual(new Set([`Token ${rotated}`]));
		} finally {
			h.server.webhooks.faults = { dropRate: 0, repeatRate: 0 };
			if (!POLL_BY_REACTIVATION) answer(polled, 'declined');
			h.server.rotateToken(rotated, SEED.token);
			await n8n!.updateCredential(CREDENTIAL.unpodApi, 'unpodApi', data(SEED.token));
		}
	});

	for (const subject of whileTheLimitPasses) subject(callEvents);

	test('the limit passes with the call open: the step goes on with its input items, without approved', async () => {
		await waitFor(
			'the timeout step to end its wait',
			async () => (await n8n!.executionCount(TIMEOUT_STEP, ['success'])) === 1,
			150_000,
		);
		await waitFor(
			'its report',
			() => timedOut.length + (h.server.sink as IDataObject[]).filter(isTimedOut).length === 1,
		);
		const [entry] = [...timedOut, ...(h.server.sink as IDataObject[]).filter(isTimedOut)];
		const item = entry.timed_out_step as IDataObject;
		expect(item).not.toHaveProperty('approved');
		expect(item.body).toMatchObject({ phone: TIMEOUT_PHONE });
		const call = h.server.store.tasks.find((t) => t.input.contact_number === TIMEOUT_PHONE)!;
		expect(call.status).not.toMatch(/completed|failed/);
		expect(await n8n!.executionCount(TIMEOUT_STEP, ['waiting'])).toBe(0);
	}, 180_000);
}
