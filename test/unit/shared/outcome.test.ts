/**
 * The flat outcome (Simplify) for every post-call shape Unpod writes: the docs' task sample, the
 * source's post-call workflow, Unpod's own follow-ups and redials, nulls, and JSON text where an
 * object is expected.
 */
import type { IDataObject } from 'n8n-workflow';
import {
	callChain,
	contactColumns,
	simplifyTask,
	transcriptText,
	unpodCallsAgain,
} from '../../../nodes/shared/outcome';

/** The completed task of Unpod's docs (`api/execution/tasks.mdx`), cut to what the outcome reads. */
const DOCS_SAMPLE: IDataObject = {
	task_id: 'T9f1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e',
	run_id: 'R0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d',
	status: 'completed',
	ref_id: '6902fb5840a736e125e80c',
	input: { name: 'Bhaishab', contact_number: '+919999999999', email: '', labels: [] },
	output: {
		call_status: 'completed',
		post_call_data: {
			classification: { labels: [] },
			summary: {
				status: 'Not Connected',
				summary: 'The call began with the assistant introducing themselves.',
				callback_datetime: 'N/A',
				hours_from_now: 'N/A',
			},
			call_back: null,
			follow_up: { required: 'follow_up disabled' },
			profile_summary: { outcome: 'Connected', callback_requested: false, callback_time: null },
			structured_data: null,
		},
	},
	last_status_change: '2026-01-31T11:47:31.198984',
};

/** A call ended as the source's post-call workflow writes it, with an analysis plan and Enable Followup. */
const fromSource = (post: IDataObject, input: IDataObject = {}, output: IDataObject = {}): IDataObject => ({
	task_id: 'T2',
	run_id: 'R1',
	status: 'completed',
	input: { name: 'Ann', contact_number: '+4930111', document_id: 'crm-17', deal_stage: 'demo', ...input },
	output: { call_status: 'completed', post_call_data: post, ...output },
});

const SOURCE_POST: IDataObject = {
	classification: { labels: ['Interested'] },
	summary: { status: 'Interested', callback_datetime: '2026-12-02 10:00:00' },
	success_evaluator: 'true',
	follow_up: {
		required: true,
		time: '2026-12-02 10:00:00+00:00',
		reason: 'The person asked to be called on Wednesday',
		status: 'call_scheduled',
	},
	call_evaluation: { overall_score: 0.82 },
	profile_summary: { outcome: 'Interested', callback_requested: true, callback_time: '2026-12-02 10:00:00' },
	realtime_agent_evaluation: {},
	structured_data: { budget: 5000, currency: 'EUR', meeting_date: '2026-12-02', decision_maker: true },
};

describe('the flat outcome', () => {
	test("the docs' sample: nothing extracted is null, Follow Up disabled reads as disabled, N/A as no time", () => {
		expect(simplifyTask(DOCS_SAMPLE)).toMatchObject({
			document_id: '6902fb5840a736e125e80c',
			attempt: 1,
			previous_task_id: null,
			structured_data: null,
			success_evaluation: null,
			call_evaluation: null,
			unpod_follow_up: false,
			unpod_follow_up_status: 'disabled',
			unpod_follow_up_at: null,
			unpod_redial: null,
			callback_time: null,
			contact_fields: { name: 'Bhaishab', contact_number: '+919999999999', email: '', labels: [] },
			modified: '2026-01-31T11:47:31.198Z',
		});
	});

	test("the source's post-call: the agent's own fields under one key, the verdict, the evaluation, Unpod's follow-up flat", () => {
		const flat = simplifyTask(fromSource(SOURCE_POST));
		expect(flat).toMatchObject({
			structured_data: { budget: 5000, currency: 'EUR', meeting_date: '2026-12-02', decision_maker: true },
			success_evaluation: 'true',
			call_evaluation: { overall_score: 0.82 },
			unpod_follow_up: true,
			unpod_follow_up_at: '2026-12-02T10:00:00.000Z',
			unpod_follow_up_status: 'call_scheduled',
			unpod_follow_up_reason: 'The person asked to be called on Wednesday',
			unpod_redial: null,
			contact_fields: { name: 'Ann', contact_number: '+4930111', document_id: 'crm-17', deal_stage: 'demo' },
		});
		expect(unpodCallsAgain(flat)).toBe('follow_up');
	});

	test("OpenAPI 2.0.0's flat post_call_data: summary, outcome and sentiment as text; the agent's turns named agent", () => {
		const flat = simplifyTask({
			task_id: 'T8ff2ccdffe9a11f0878d43cd8a99e069',
			status: 'completed',
			input: { name: 'John Doe', contact_number: '1234567890' },
			output: {
				transcript: [
					{ role: 'agent', content: 'Hello, this is an AI assistant. Am I speaking with John Doe?' },
					{ role: 'user', content: 'Yes, this is John.' },
				],
				post_call_data: {
					summary: 'Agent connected with John Doe and discussed project requirements.',
					outcome: 'interested',
					sentiment: 'positive',
				},
				call_status: 'completed',
			},
		});
		expect(flat).toMatchObject({
			call_summary: 'Agent connected with John Doe and discussed project requirements.',
			outcome: 'interested',
			sentiment: 'positive',
			transcript: 'Assistant: Hello, this is an AI assistant. Am I speaking with John Doe?\nContact: Yes, this is John.',
			ai_disclosed: true,
		});
		expect(unpodCallsAgain(flat)).toBeUndefined();
	});

	test("openapi 677bf31's grouped post_call_data (schema_version 2): analytics, lead, next_action, follow_up.state", () => {
		const grouped = (followUp: IDataObject, redial: IDataObject = { status: null }) =>
			simplifyTask({
				task_id: 'T5e6f7a8bfe9a11f0878d43cd8a99e069',
				status: 'completed',
				follow_up_count: 1,
				input: { contact_number: '+911234567890', name: '' },
				output: {
					call_summary: null,
					post_call_data: {
						schema_version: 2,
						analytics: { sentiment: 'negative', outcome: 'NotConnected', tone: null },
						summary: { headline: 'Nobody answered', key_points: [] },
						lead: { name: null, labels: ['Callback'] },
						structured_data: { outcome: null, payment_release_choice: 'later' },
						next_action: { label: ['call again'], callback_requested: true, scheduled_at: '2026-02-08T10:00:00Z' },
						follow_up: followUp,
						redial,
					},
				},
			});
		const skipped = grouped({ required: true, state: 'skipped_inbound_call', reason: 'not-connected retry', next_at: null });
		expect(skipped).toMatchObject({
			call_summary: 'Nobody answered',
			outcome: 'NotConnected',
			sentiment: 'negative',
			labels: ['Callback'],
			next_action: 'call again',
			callback_requested: true,
			callback_time: '2026-02-08T10:00:00Z',
			structured_data: { outcome: null, payment_release_choice: 'later' },
			unpod_follow_up: true,
			unpod_follow_up_status: 'skipped_inbound_call',
			unpod_follow_up_reason: 'not-connected retry',
			unpod_follow_up_at: null,
			attempt: 2,
		});
		expect(unpodCallsAgain(skipped)).toBeUndefined();
		// A follow-up with its time set is Unpod calling again, whatever its state is named.
		const planned = grouped({ required: true, state: 'pending', next_at: '2026-02-08T10:00:00Z' });
		expect(planned.unpod_follow_up_at).toBe('2026-02-08T10:00:00.000Z');
		expect(unpodCallsAgain(planned)).toBe('follow_up');
		expect(unpodCallsAgain(grouped({ required: true, state: 'skipped_daily_limit', next_at: '2026-02-08T10:00:00Z' }))).toBeUndefined();
		expect(unpodCallsAgain(grouped({ required: false }, { status: 'call_scheduled_for_redial' }))).toBe('redial');
	});

	test('every key is there for an open task with no output, each null or empty, never an error', () => {
		const flat = simplifyTask({ task_id: 'T3', status: 'pending', input: null, output: null });
		expect(flat).toMatchObject({
			attempt: 1,
			contact_fields: {},
			structured_data: null,
			success_evaluation: null,
			unpod_follow_up: null,
			unpod_follow_up_status: null,
			unpod_redial: null,
			ai_disclosed: null,
			disclosure_line: null,
		});
		expect(unpodCallsAgain(flat)).toBeUndefined();
	});

	test("ai_disclosed: the agent's first turns said it is an AI, quoting the line; the consent travels in contact_fields", () => {
		const task = (transcript: unknown[]) =>
			simplifyTask({
				task_id: 'T9',
				status: 'completed',
				input: { name: 'Ann', contact_number: '+4930111', consent_at: '2026-03-02T10:15:00.000Z' },
				output: { transcript },
			});
		const said = task([
			{ role: 'assistant', content: 'Guten Tag, hier spricht ein virtueller Assistent, eine künstliche Intelligenz.' },
			{ role: 'user', content: 'Ja?' },
		]);
		expect(said).toMatchObject({
			ai_disclosed: true,
			disclosure_line: 'Guten Tag, hier spricht ein virtueller Assistent, eine künstliche Intelligenz.',
			contact_fields: { consent_at: '2026-03-02T10:15:00.000Z' },
		});
		expect(task([{ role: 'assistant', content: 'Hello Ann, this is Acme.' }])).toMatchObject({
			ai_disclosed: false,
			disclosure_line: null,
		});
	});

	test("do_not_call: the agent's extracted opt-out, as JSON text too; false when nothing says so", () => {
		expect(
			simplifyTask(
				fromSource({ structured_data: { caller_requested_do_not_call: 'yes', do_not_call_reason: 'On a registry' } }),
			),
		).toMatchObject({ do_not_call: true, do_not_call_reason: 'On a registry' });
		expect(simplifyTask(fromSource({ structured_data: JSON.stringify({ do_not_call: true }) }))).toMatchObject({
			do_not_call: true,
			do_not_call_reason: null,
		});
		expect(simplifyTask(fromSource({ structured_data: null }))).toMatchObject({
			do_not_call: false,
			do_not_call_reason: null,
		});
	});

	test('strings where objects are expected: post-call data and extracted fields as JSON text, a follow-up as a word', () => {
		const asText = simplifyTask(
			fromSource(
				{} as IDataObject,
				{},
				{
					post_call_data: JSON.stringify({
						...SOURCE_POST,
						structured_data: JSON.stringify({ budget: '5,000 EUR' }),
						follow_up: 'yes',
					}),
				},
			),
		);
		expect(asText).toMatchObject({
			structured_data: { budget: '5,000 EUR' },
			success_evaluation: 'true',
			unpod_follow_up: true,
			unpod_follow_up_status: null,
		});
		// Text that is no object is kept, not lost; an empty object is nothing extracted.
		expect(simplifyTask(fromSource({ structured_data: 'budget about 5k' })).structured_data).toEqual({
			value: 'budget about 5k',
		});
		expect(simplifyTask(fromSource({ structured_data: {} })).structured_data).toBeNull();
		expect(simplifyTask(fromSource({ structured_data: '{not json' })).structured_data).toEqual({ value: '{not json' });
		expect(simplifyTask(fromSource({ follow_up: { required: 'no', status: null } }))).toMatchObject({
			unpod_follow_up: false,
			unpod_follow_up_status: null,
		});
	});

	test('a redial Unpod scheduled reads as Unpod calling again; the call it describes is still the first', () => {
		const redialled = fromSource(
			{
				summary: { status: 'Dropped' },
				follow_up: { required: false, status: null },
				redial: 'call_scheduled_for_redial',
				is_redial: true,
			},
			{ redial_count: 1, transcript: [{ role: 'user', content: 'hel-' }] },
		);
		const flat = simplifyTask(redialled);
		expect(flat).toMatchObject({ unpod_redial: 'call_scheduled_for_redial', attempt: 1 });
		expect(unpodCallsAgain(flat)).toBe('redial');
		// Unpod's additions to the document are not the contact's columns.
		expect(flat.contact_fields).toEqual({
			name: 'Ann',
			contact_number: '+4930111',
			document_id: 'crm-17',
			deal_stage: 'demo',
		});
		// Once the redial has ended (its own post-call, no redial pending), it was the second call.
		expect(callChain(fromSource({ summary: { status: 'Interested' } }, { redial_count: 1 })).attempt).toBe(2);
		expect(unpodCallsAgain(simplifyTask(fromSource({ redial: 'instant redial not enabled' })))).toBeUndefined();
	});
});

describe("a call's chain, Unpod's follow-ups and the package's counted alike", () => {
	test("Unpod's follow-up: previous_task_id from referenced_task, attempt from followup_count", () => {
		const unpods = fromSource(
			{},
			{},
			{ referenced_task: 'T1', followup_count: 1, scheduled_time: '2026-12-02 10:00:00+00:00' },
		);
		expect(callChain(unpods)).toEqual({ attempt: 2, previous_task_id: 'T1' });
		expect(callChain(fromSource({}, {}, { referenced_task: 'T2', followup_count: '2' }))).toEqual({
			attempt: 3,
			previous_task_id: 'T2',
		});
	});

	test("the package's own chain where there is no Unpod follow-up", () => {
		expect(callChain(fromSource({}, { attempt: 2, previous_task_id: 'T1' }))).toEqual({
			attempt: 2,
			previous_task_id: 'T1',
		});
	});

	test("Unpod following up the package's follow-up: the copied document's attempt plus Unpod's count, its own previous", () => {
		// T1 (first) -> P2 (Task > Follow Up, attempt 2) -> U3 (Unpod: input copied from P2, followup_count 1).
		const u3 = fromSource({}, { attempt: 2, previous_task_id: 'T1' }, { referenced_task: 'P2', followup_count: 1 });
		expect(callChain(u3)).toEqual({ attempt: 3, previous_task_id: 'P2' });
		// U4 follows U3: the same copied document, followup_count 2; a redial of U3 between them counts too.
		const u4 = fromSource(
			{},
			{ attempt: 2, previous_task_id: 'T1', redial_count: 1 },
			{ referenced_task: 'U3', followup_count: 2 },
		);
		expect(callChain(u4)).toEqual({ attempt: 5, previous_task_id: 'U3' });
	});

	test('junk in the chain fields counts as nothing: a first call', () => {
		expect(callChain({ input: { attempt: 'x', redial_count: -1 }, output: { followup_count: null } })).toEqual({
			attempt: 1,
			previous_task_id: null,
		});
		expect(contactColumns('not a document')).toEqual({});
	});
});

describe('times', () => {
	test('simplified tasks carry ISO times', () => {
		const t = simplifyTask({
			task_id: 'T1',
			created: '2026-02-16T14:55:49.123456',
			last_status_change: '2026-02-16 15:00:00',
			output: { start_time: '2026-02-16 14:56:00.000001', end_time: '2026-02-16 14:57:00.5' },
		});
		expect(t).toMatchObject({
			created: '2026-02-16T14:55:49.123Z',
			modified: '2026-02-16T15:00:00.000Z',
			start_time: '2026-02-16T14:56:00.000Z',
			end_time: '2026-02-16T14:57:00.500Z',
		});
	});
});

describe('simplifyTask', () => {
	test('flattens a finished task for a CRM', () => {
		const flat = simplifyTask({
			task_id: 'T1',
			run_id: 'R1',
			status: 'completed',
			input: { name: 'Ann', contact_number: '+1415', email: 'a@x.io', company_name: 'Acme', labels: ['vip'] },
			output: {
				call_status: 'completed',
				call_end_reason: 'customer-ended-call',
				duration: 61,
				start_time: '2026-11-22 10:00:00.000000',
				end_time: '2026-11-22 10:01:01.000000',
				recording_url: 'https://r/1.mp3',
				call_summary: 'Interested.',
				transcript: [
					{ role: 'assistant', content: 'Hello Ann' },
					{ role: 'user', content: 'Hi' },
				],
				post_call_data: {
					classification: { labels: ['hot'] },
					profile_summary: {
						outcome: 'interested',
						interest_level: 'high',
						next_action: 'Demo',
						callback_requested: true,
						callback_time: '2026-11-29 10:00:00',
					},
				},
			},
		});
		expect(flat).toMatchObject({
			task_id: 'T1',
			run_id: 'R1',
			status: 'completed',
			contact_name: 'Ann',
			contact_email: 'a@x.io',
			contact_company: 'Acme',
			call_status: 'completed',
			duration: 61,
			call_summary: 'Interested.',
			outcome: 'interested',
			interest_level: 'high',
			next_action: 'Demo',
			callback_requested: true,
			callback_time: '2026-11-29 10:00:00',
			labels: ['hot'],
			transcript: 'Assistant: Hello Ann\nContact: Hi',
		});
	});
	test('a pending task has empty outcome fields, not errors', () => {
		expect(simplifyTask({ task_id: 'T2', status: 'pending', input: { name: 'B' }, output: {} })).toMatchObject({
			status: 'pending',
			call_status: null,
			transcript: '',
			labels: [],
		});
		expect(transcriptText(undefined)).toBe('');
	});
});
