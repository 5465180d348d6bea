/** Waits for calls, pure parts: how an ended call reads as an approval, which resume addresses the triggers ring, when a wait resumes. */
import type { IDataObject } from 'n8n-workflow';
import { approvalItem, approvalOf, approvedValuesOf, decisionWords } from '../../../nodes/shared/approvals';
import {
	newWaitToken,
	ownResumeUrl,
	RESUME_FIELD,
	WAIT_CALLS,
	WAIT_ITEM,
	waitKey,
	waitTokenOf,
	withoutWaitFields,
} from '../../../nodes/shared/resume';
import { endedCallsAmong, parseOwnCalls } from '../../../nodes/UnpodTask/waitForCalls/ownCalls';
import { contactColumns, taskOutput } from '../../../nodes/shared/outcome';
import { toContactDocument } from '../../../nodes/shared/contacts';

const ended = (status: string, post: IDataObject = {}): IDataObject => ({
	task_id: 'T1',
	run_id: 'R1',
	status,
	input: { name: 'Ada', contact_number: '+14155550100' },
	output: {
		call_status: status === 'failed' ? 'notConnected' : 'completed',
		call_summary: 'Ada said no.',
		post_call_data: post,
	},
});
const said = (word: string) => ({ classification: { labels: [word] }, summary: { status: word } });
const DEFAULT = approvedValuesOf('');

test('approved only for a completed call whose analysis says an approved value and no refusal', () => {
	expect(approvalOf(ended('completed', said('approved')), DEFAULT)).toEqual({ approved: true, reason: 'approved' });
	expect(approvalOf(ended('completed', said('declined')), DEFAULT)).toEqual({ approved: false, reason: 'declined' });
	expect(approvalOf(ended('completed', said('unclear')), DEFAULT)).toEqual({ approved: false, reason: 'unclear' });
	expect(approvalOf(ended('completed', {}), DEFAULT)).toEqual({ approved: false, reason: 'unclear' });
	expect(approvalOf(ended('failed', said('approved')), DEFAULT)).toEqual({ approved: false, reason: 'not_answered' });
	// A call cut short is not an approval, whatever its analysis says.
	expect(approvalOf(ended('partially_completed', said('approved')), DEFAULT).approved).toBe(false);
	// Both at once is unclear, not approved.
	const both = { classification: { labels: ['approved'] }, structured_data: { decision: 'Declined' } };
	expect(approvalOf(ended('completed', both), DEFAULT)).toEqual({ approved: false, reason: 'unclear' });
	// structured_data.approved, a boolean, counts; so does the profile's outcome, in any case and spacing.
	expect(approvalOf(ended('completed', { structured_data: { approved: true } }), DEFAULT).approved).toBe(true);
	expect(approvalOf(ended('completed', { structured_data: { approved: false } }), DEFAULT).reason).toBe('declined');
	expect(approvalOf(ended('completed', { profile_summary: { outcome: 'Not Approved' } }), DEFAULT).reason).toBe(
		'declined',
	);
});

test("Approved Values are the user's words (comma-separated, any case); a refusal word never approves", () => {
	expect(approvedValuesOf(' Yes, Go Ahead ,')).toEqual(['yes', 'go_ahead']);
	expect(approvedValuesOf(undefined)).toEqual(['approved']);
	expect(approvalOf(ended('completed', said('go ahead')), approvedValuesOf('yes, go ahead')).approved).toBe(true);
	expect(approvalOf(ended('completed', said('approved')), approvedValuesOf('yes')).approved).toBe(false);
	expect(approvalOf(ended('completed', said('declined')), approvedValuesOf('declined')).approved).toBe(false);
	expect(decisionWords(ended('completed', { classification: { labels: ['A b', 'c-d'] } }))).toEqual(['a_b', 'c_d']);
});

test("the output: approved at the top, the person's answer for the model when not approved", () => {
	const no = approvalItem(ended('completed', said('declined')), DEFAULT);
	expect(no).toMatchObject({
		approved: false,
		approval: 'declined',
		chatInput: 'Not approved by phone (declined): Ada said no.',
		task_id: 'T1',
		contact_name: 'Ada',
		unpod_wait_status: 'ended',
	});
	const yes = approvalItem(ended('completed', said('approved')), DEFAULT);
	expect(yes.approved).toBe(true);
	expect(yes).not.toHaveProperty('chatInput');
	expect(approvalItem(ended('failed'), DEFAULT).chatInput).toBe('Not approved by phone (not answered): Ada said no.');
});

const ACCOUNT = {
	baseUrl: 'https://unpod.ai',
	orgHandle: 'acme',
	apiToken: 'first-token',
	webhookSecret: 'a-webhook-secret-of-24-chars',
};

test('with a Webhook Secret, the wait key outlives a new API token; another n8n, account or secret has another', () => {
	const key = waitKey('instance-1', ACCOUNT);
	expect(key).toMatch(/^[0-9a-f]{64}$/);
	// A new token after a leak keeps every waiting execution's address good, and the key is not made from it.
	expect(waitKey('instance-1', { ...ACCOUNT, apiToken: 'rotated-token' })).toBe(key);
	expect(waitKey('instance-1', { ...ACCOUNT, baseUrl: 'https://unpod.ai/ ' })).toBe(key);
	for (const other of [
		waitKey('instance-2', ACCOUNT),
		waitKey('instance-1', { ...ACCOUNT, orgHandle: 'other-org' }),
		waitKey('instance-1', { ...ACCOUNT, baseUrl: 'https://eu.unpod.ai' }),
		waitKey('instance-1', { ...ACCOUNT, webhookSecret: 'another-secret-of-24-chars' }),
		waitKey('instance-1', { ...ACCOUNT, webhookSecret: '' }),
	])
		expect(other).not.toBe(key);
});

test('without a Webhook Secret, the wait key is not made from what an exported workflow carries alone', () => {
	const bare = { ...ACCOUNT, webhookSecret: '' };
	const key = waitKey('instance-1', bare);
	// An exported workflow carries the instance ID (meta.instanceId), and the Base URL and handle are
	// no secret: without the API token, none of these gives the key.
	for (const guess of [
		waitKey('instance-1', { ...bare, apiToken: '' }),
		waitKey('instance-1', { baseUrl: bare.baseUrl, orgHandle: bare.orgHandle }),
		waitKey('instance-1', { ...bare, apiToken: 'a-guess' }),
	])
		expect(guess).not.toBe(key);
	// The API token is the secret then: a new one gives a new key.
	expect(waitKey('instance-1', { ...bare, apiToken: 'rotated-token' })).not.toBe(key);
	expect(waitKey('instance-1', { ...bare })).toBe(key);
});

test("only this n8n's waiting addresses that this package made with the same wait key are rung", () => {
	const base = 'http://127.0.0.1:5678/';
	const key = waitKey('instance-1', ACCOUNT);
	const doc = (url: unknown) => ({ [RESUME_FIELD]: url });
	const token = newWaitToken(key, '42', 'node-1');
	expect(token).toMatch(/^[0-9a-f]{32}\.[0-9a-f]{32}$/);
	expect(newWaitToken(key, '42', 'node-1')).not.toBe(token);
	const mine = `http://127.0.0.1:5678/webhook-waiting/42/node-1?wait=${token}&space=S1&signature=s`;
	expect(ownResumeUrl(doc(mine), base, key)).toBe(mine);
	expect(waitTokenOf(doc(mine))).toBe(token);
	const [nonce] = token.split('.');
	for (const other of [
		// Elsewhere.
		`http://evil.example/webhook-waiting/42/node-1?wait=${token}`,
		`http://127.0.0.1:5679/webhook-waiting/42/node-1?wait=${token}`,
		`https://127.0.0.1:5678/webhook-waiting/42/node-1?wait=${token}`,
		`http://127.0.0.1:5678/webhook/42/node-1?wait=${token}`,
		`http://127.0.0.1:5678/rest/workflows?wait=${token}`,
		// Another waiting node of this n8n (a Wait node, with or without a suffix), or another execution.
		'http://127.0.0.1:5678/webhook-waiting/42',
		`http://127.0.0.1:5678/webhook-waiting/42?wait=${token}`,
		`http://127.0.0.1:5678/webhook-waiting/43/node-1?wait=${token}`,
		`http://127.0.0.1:5678/webhook-waiting/42/suffix?wait=${token}`,
		`http://127.0.0.1:5678/webhook-waiting/42/node-1/more?wait=${token}`,
		// A token made with another key (the API token, another n8n), or none.
		`http://127.0.0.1:5678/webhook-waiting/42/node-1?wait=${newWaitToken(ACCOUNT.apiToken, '42', 'node-1')}`,
		`http://127.0.0.1:5678/webhook-waiting/42/node-1?wait=${newWaitToken(waitKey('instance-2', ACCOUNT), '42', 'node-1')}`,
		`http://127.0.0.1:5678/webhook-waiting/42/node-1?wait=${nonce}.${'0'.repeat(32)}`,
		`http://127.0.0.1:5678/webhook-waiting/42/node-1?wait=${nonce}`,
		'http://127.0.0.1:5678/webhook-waiting/42/node-1',
		'not a url',
		42,
	]) {
		expect([other, ownResumeUrl(doc(other), base, key)]).toEqual([other, undefined]);
	}
	// Under a path prefix (n8n behind a proxy at /n8n/), the prefix is part of the address.
	const proxied = `https://x.io/n8n/webhook-waiting/1/n?wait=${newWaitToken(key, '1', 'n')}`;
	expect(ownResumeUrl(doc(proxied), 'https://x.io/n8n/', key)).toBe(proxied);
	expect(ownResumeUrl(doc(proxied.replace('/n8n/', '/')), 'https://x.io/n8n/', key)).toBeUndefined();
	expect(waitTokenOf(doc('http://127.0.0.1:5678/webhook-waiting/42/node-1'))).toBeUndefined();
	expect(waitTokenOf({})).toBeUndefined();
});

test('a wait resumes only with the calls it kept, once every one is listed and ended, in input order', () => {
	const address = (token: string) => `http://127.0.0.1:5678/webhook-waiting/42/node-1?wait=${token}&signature=s`;
	const call = (item: number, status: string, token = 'abc', calls = 2, id = `T${item}`): IDataObject => ({
		task_id: id,
		run_id: 'R1',
		status,
		input: { [RESUME_FIELD]: address(token), [WAIT_ITEM]: item, [WAIT_CALLS]: calls },
	});
	const own = { token: 'abc', space: 'S1', run: 'R1', tasks: ['T0', 'T1'] };
	const other = call(0, 'completed', 'zzz', 1, 'T9');
	expect(endedCallsAmong([other], own)).toBe('No call of this wait in its run');
	expect(endedCallsAmong([call(1, 'completed'), other], own)).toBe('A call of this wait is still open');
	expect(endedCallsAmong([call(1, 'completed'), call(0, 'in_progress')], own)).toBe(
		'A call of this wait is still open',
	);
	const ended = endedCallsAmong([call(1, 'failed'), other, call(0, 'completed')], own) as IDataObject[];
	expect(ended.map((t) => t.task_id)).toEqual(['T0', 'T1']);
	// A copy of a call's document (its token and item), under an ID this wait did not create, counts for nothing.
	const copy = call(0, 'completed', 'abc', 2, 'T-copy');
	expect(endedCallsAmong([copy, call(1, 'completed'), call(0, 'in_progress')], own)).toBe(
		'A call of this wait is still open',
	);
	expect(endedCallsAmong([copy, { ...copy, run_id: 'R2' }], own)).toBe('No call of this wait in its run');
	// Unpod's answer listed no task IDs: the calls of the kept run that carry the token.
	const unlisted = { ...own, tasks: [] };
	expect(endedCallsAmong([call(0, 'completed', 'abc', 1)], unlisted)).toHaveLength(1);
	expect(endedCallsAmong([{ ...call(0, 'completed', 'abc', 1), run_id: 'R2' }], unlisted)).toBe(
		'No call of this wait in its run',
	);
});

test('the kept calls are read back only whole', () => {
	const own = { token: 'abc', space: 'S1', run: 'R1', tasks: ['T0'] };
	expect(parseOwnCalls(JSON.stringify(own))).toEqual(own);
	for (const bad of [undefined, '', '{', JSON.stringify({ ...own, run: '' }), JSON.stringify({ ...own, tasks: [1] })])
		expect(parseOwnCalls(bad)).toBeUndefined();
});

test("n8n's wait fields stay in the waiting call's document: no output shape and no next document carries them", () => {
	const resumeUrl = 'http://127.0.0.1:5678/webhook-waiting/42/node-1?wait=n.t&space=S1&signature=s';
	const task = {
		task_id: 'T1',
		run_id: 'R1',
		status: 'completed',
		input: {
			name: 'Ada',
			contact_number: '+4930555000',
			plan: 'gold',
			[RESUME_FIELD]: resumeUrl,
			[WAIT_ITEM]: 0,
			[WAIT_CALLS]: 2,
		},
		output: { call_status: 'completed' },
	};
	const flat = taskOutput(task, true);
	expect(flat.contact_fields).toEqual({ name: 'Ada', contact_number: '+4930555000', plan: 'gold' });
	const raw = taskOutput(task, false);
	expect(raw.input).toEqual({ name: 'Ada', contact_number: '+4930555000', plan: 'gold' });
	for (const shape of [flat, raw, withoutWaitFields([task])]) {
		const text = JSON.stringify(shape);
		for (const field of [RESUME_FIELD, WAIT_ITEM, WAIT_CALLS, 'webhook-waiting']) expect(text).not.toContain(field);
	}
	// The task itself is left as it was: the triggers and the waiting node read the address from it.
	expect(task.input[RESUME_FIELD]).toBe(resumeUrl);
	expect(contactColumns(task.input)).toEqual({ name: 'Ada', contact_number: '+4930555000', plan: 'gold' });
	// A contact that comes with them (a sheet row copied from an old item) is sent without them.
	expect(toContactDocument({ ...task.input })).toEqual({
		document: { name: 'Ada', contact_number: '+4930555000', plan: 'gold' },
	});
});
