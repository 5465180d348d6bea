/**
 * Consent and who calls, in n8n's engine against the local server: every path that places a call
 * (Create, Call and Wait in both modes, the approval, Follow Up) refuses a contact without the
 * consent the law of the place asks, before any request, its item naming the law and what is
 * missing; the consent travels in the task's document; every call's context opens with the
 * opening, in the language of the place; a call the law asks to name who calls is not placed
 * without the business. Runs on the test's clock (Sunday 2026-12-06 12:00 UTC).
 */
import { createExecutor } from '../../helpers/execute';
import { harnessAt, Workflows } from '../../helpers/setup';
import { agentRef, spaceRef, unpodNode } from '../../helpers/nodes';
import { rowsNode } from '../../../dev/harness/workflow-builders';
import { SEED } from '../../../dev/server/seed';
import type { IDataObject } from 'n8n-workflow';

const TASKS = `/spaces/${SEED.spaceToken}/tasks/`;
const BEFORE = '2026-05-01T09:30:00Z';
const WORDING = 'I agree that Acme may call me about its offers, also with an AI voice, at this number.';

/** A contact pasted from a sheet: its number, and the consent columns it has. */
const row = (name: string, phone: string, consent: IDataObject = {}) => ({ name, phone, ...consent });
const EXPRESS = { consent_at: BEFORE, consent_source: 'web form' };
const WRITTEN = { ...EXPRESS, consent_wording: WORDING };
const NEW_YORK_AND_MONTREAL = [row('New York', '+1 212 555 0106', WRITTEN), row('Montreal', '+1 514 555 0106', WRITTEN)];

const workflows = new Workflows();
/** Call and Wait until Unpod reports, in a workflow (its resume address is the execution's), one opening for all. */
const oneOpening = workflows.chain('consentOneOpening', [
	rowsNode('Sheet', NEW_YORK_AND_MONTREAL),
	unpodNode('task', 'Call', {
		operation: 'callAndWait',
		waitMode: 'untilReported',
		space: spaceRef(SEED.spaceToken),
		agent: agentRef(SEED.agentHandle),
		contactName: '={{ $json.name }}',
		contactNumber: '={{ $json.phone }}',
		callContext: 'Our spring offer',
		consent: 'whereLawAsks',
		options: { callsAre: 'informational', openingLanguage: 'en' },
	}),
]);

const h = harnessAt(Date.parse('2026-12-06T12:00:00Z'), workflows, { eachTestAtNow: true });

/** The Task node as a first-time user sets it: consent where the law asks, who calls named. */
const task = (parameters: IDataObject = {}, onError?: 'continueRegularOutput' | 'continueErrorOutput') =>
	createExecutor(h.server, { consent: 'whereLawAsks', callContext: 'Our spring offer', ...parameters }, onError);
const posts = () =>
	h.server.requestsTo('POST', TASKS).map((r) => r.body as { context: string; documents: IDataObject[] });
const sent = () => posts().flatMap((post) => post.documents);

describe('Create: the law of each place, sales calls (the default)', () => {
	const SHEET = [
		row('US none', '+1 212 555 0101'),
		row('US express', '+1 212 555 0102', EXPRESS),
		row('US written', '+1 212 555 0103', WRITTEN),
		row('US revoked', '+1 212 555 0104', { ...WRITTEN, consent_revoked_at: '2026-11-30T08:00:00Z' }),
		row('US later', '+1 212 555 0105', { ...WRITTEN, consent_at: '2026-12-07T09:00:00Z' }),
		row('FR none', '+33 1 45 67 89 01'),
		row('FR contract', '+33 1 45 67 89 02', { current_contract: 'TRUE' }),
		row('GB none', '+44 20 7946 0101'),
		row('DE express', '+49 30 1234 5601', EXPRESS),
		row('CA none', '+1 416 555 0101'),
		row('IN none', '+91 22 2345 6701'),
		row('DE written', '+49 30 1234 5602', WRITTEN),
	];

	test('each contact without what its law asks is refused, naming the law and what is missing; no request for it', async () => {
		const out = (await task({}, 'continueRegularOutput').run(SHEET)).map((item) => item.json);
		const refused = Object.fromEntries(out.filter((o) => o.unpod_refused).map((o) => [o.name, o.unpod_refused]));
		expect(refused).toEqual({
			'US none':
				'Item 1: +12125550101: no consent on record (consent_at is empty); the law of the United States asks written consent for sales or marketing calls (47 CFR 64.1200(a)(2)-(3), (f)(9)); not called',
			'US express':
				'Item 2: +12125550102: no wording of what the person agreed to (consent_wording is empty); the law of the United States asks written consent for sales or marketing calls (47 CFR 64.1200(a)(2)-(3), (f)(9)); not called',
			'US revoked':
				'Item 4: +12125550104: consent revoked on 2026-11-30T08:00:00.000Z; the law of the United States asks written consent for sales or marketing calls (47 CFR 64.1200(a)(2)-(3), (f)(9)); not called',
			'US later':
				'Item 5: +12125550105: consent dated after now (2026-12-07T09:00:00.000Z); the law of the United States asks written consent for sales or marketing calls (47 CFR 64.1200(a)(2)-(3), (f)(9)); not called',
			'FR none':
				'Item 6: +33145678901: no consent on record (consent_at is empty); the law of France asks express consent for sales or marketing calls (Code de la consommation L223-1); not called',
			'GB none':
				'Item 8: +442079460101: no consent on record (consent_at is empty); the law of the United Kingdom asks express consent for sales or marketing calls (PECR regulation 19); not called',
			'DE express':
				'Item 9: +493012345601: no wording of what the person agreed to (consent_wording is empty); the law of Germany asks express consent, documented, for sales or marketing calls (UWG 7(2), 7a); not called',
			'CA none':
				'Item 10: +14165550101: no consent on record (consent_at is empty); the law of Canada asks express consent for sales or marketing calls (CRTC Unsolicited Telecommunications Rules, Part IV); not called',
		});
		for (const o of out.filter((o) => o.unpod_refused))
			expect(o).toMatchObject({ unpod_created: false, unpod_refused_by: 'consent' });
		// Each place's calls open in its own language: a request per language.
		expect(sent().map((d) => d.name)).toEqual(['US written', 'IN none', 'FR contract', 'DE written']);
	});

	test('the consent travels in the task document, and each item says what was asked', async () => {
		const out = (await task({}, 'continueRegularOutput').run(SHEET)).map((item) => item.json);
		const usWritten = sent().find((d) => d.name === 'US written')!;
		expect(usWritten).toEqual({
			name: 'US written',
			contact_number: '+12125550103',
			consent_at: '2026-05-01T09:30:00.000Z',
			consent_source: 'web form',
			consent_wording: WORDING,
		});
		expect(sent().find((d) => d.name === 'FR contract')).toMatchObject({ current_contract: true });
		const said = Object.fromEntries(out.filter((o) => o.task_id).map((o) => [o.name, o.unpod_consent]));
		expect(said).toEqual({
			'US written':
				'on record: the law of the United States asks written consent for sales or marketing calls (47 CFR 64.1200(a)(2)-(3), (f)(9))',
			'FR contract': 'not asked: no law of the table asks consent for these calls',
			'IN none': 'not asked: no law of the table asks consent for these calls',
			'DE written':
				'on record: the law of Germany asks express consent, documented, for sales or marketing calls (UWG 7(2), 7a)',
		});
		// The task Unpod stores keeps it: Follow Up and the outcome read it back.
		const stored = h.server.store.tasks.find((t) => t.input.name === 'US written')!;
		expect(stored.input).toMatchObject({ consent_source: 'web form', consent_wording: WORDING });
	});

	test('The Calls Are Informational: every US call still asks express consent; France and the UK ask none', async () => {
		const out = (
			await task({ options: { callsAre: 'informational' } }, 'continueRegularOutput').run([
				row('US none', '+1 212 555 0101'),
				row('US express', '+1 212 555 0102', EXPRESS),
				row('FR none', '+33 1 45 67 89 01'),
				row('GB none', '+44 20 7946 0101'),
			])
		).map((item) => item.json);
		expect(out[0].unpod_refused).toBe(
			'Item 1: +12125550101: no consent on record (consent_at is empty); the law of the United States asks express consent for informational calls (47 CFR 64.1200(a)(1)(iii)); not called',
		);
		expect(sent().map((d) => d.name)).toEqual(['US express', 'GB none', 'FR none']);
	});

	test('The Calls Are from an expression that names no purpose stops the node, naming the value; nothing is called', async () => {
		await expect(
			task({ options: { callsAre: '={{ "marketing" }}' } }).run([row('US written', '+1 212 555 0103', WRITTEN)]),
		).rejects.toThrow('The Calls Are "marketing" is not one of sales, survey, informational');
		// Follow Up names the item as every other path does.
		await expect(
			task({ operation: 'followUp', callContext: 'Try again', options: { callsAre: '={{ "marketing" }}' } }).run([
				{
					task_id: 'Tpurpose0001',
					status: 'failed',
					call_status: 'no_answer',
					contact_number: '+12125550101',
					contact_fields: { name: 'Ann Lee', contact_number: '+12125550101', ...WRITTEN },
					end_time: '2026-12-06T11:00:00.000Z',
				},
			]),
		).rejects.toThrow(/^Item 1: The Calls Are "marketing" is not one of sales, survey, informational$/);
		expect(h.server.requests.filter((r) => r.method === 'POST')).toEqual([]);
	});

	test('Consent: Always asks it where no law does; Off asks none, each item says so, and a revocation still stops the call', async () => {
		const india = [row('IN none', '+91 22 2345 6701'), row('IN given', '+91 22 2345 6702', EXPRESS)];
		const always = (await task({ consent: 'always' }, 'continueRegularOutput').run(india)).map((i) => i.json);
		expect(always[0].unpod_refused).toBe(
			'Item 1: +912223456701: no consent on record (consent_at is empty); Consent: Always asks express consent; not called',
		);
		expect(always[1].unpod_consent).toBe('on record: Consent: Always asks express consent');
		h.server.resetTraffic();
		const off = (
			await task({ consent: 'off' }, 'continueRegularOutput').run([
				row('US none', '+1 212 555 0101', { consent_at: 'not a date' }),
				row('US revoked', '+1 212 555 0104', { consent_revoked_at: 'yes' }),
				row('US again', '+1 212 555 0105', { consent_revoked_at: '2026-06-01', consent_at: '2026-07-01' }),
			])
		).map((i) => i.json);
		expect(off[0]).toMatchObject({
			unpod_consent: 'off: not asked (Consent: Off); a revocation still stops a call',
			task_id: expect.any(String),
		});
		expect(off[1]).toMatchObject({ unpod_refused_by: 'consent', unpod_created: false });
		expect(off[1].unpod_refused).toBe(
			'Item 2: +12125550104: consent revoked; a person who revoked consent is not called; not called',
		);
		expect(sent()).toEqual([
			// With Consent off, the record is not sent along: nothing was checked.
			{ name: 'US none', contact_number: '+12125550101' },
			{ name: 'US again', contact_number: '+12125550105' },
		]);
	});

	test('the record mapped from other columns, as from a CRM; a date that is no date stops the node, naming it', async () => {
		const crm = {
			name: 'Ann',
			phone: '+1 212 555 0109',
			legal: { agreed: BEFORE, how: 'call recording', text: WORDING },
		};
		await task({
			consentAt: '={{ $json.legal.agreed }}',
			consentSource: '={{ $json.legal.how }}',
			consentWording: '={{ $json.legal.text }}',
		}).run([crm]);
		expect(sent()[0]).toMatchObject({ consent_at: '2026-05-01T09:30:00.000Z', consent_source: 'call recording' });
		h.server.resetTraffic();
		await expect(task().run([row('Bea', '+1 212 555 0110', { consent_at: 'last spring' })])).rejects.toThrow(
			'Item 1: consent_at "last spring" is not a date and time (use ISO 8601, e.g. 2026-05-01T09:30:00Z). Nothing was sent.',
		);
		expect(h.server.requests.filter((r) => r.method === 'POST')).toEqual([]);
	});
});

test('each contact names the first check that stopped it, in a fixed order: number, country, do-not-call, consent', async () => {
	const out = (
		await task(
			{ doNotCallNumbers: '+19005550123, +12125550101, +442079460101', options: { allowedCountries: 'US, CA' } },
			'continueRegularOutput',
		).run([
			// A premium-rate number, on the list, without consent: its number first.
			row('Costly', '+1 900 555 0123'),
			// A UK number on the list, without consent: its country first.
			row('Abroad', '+44 20 7946 0101'),
			// On the list and without consent: do-not-call first.
			row('Listed', '+1 212 555 0101'),
			// Without consent alone.
			row('Nobody asked', '+1 212 555 0102'),
		])
	).map((item) => item.json);
	expect(out.map((o) => o.unpod_refused_by)).toEqual(['number', 'country', 'doNotCall', 'consent']);
	expect(out.map((o) => o.do_not_call ?? null)).toEqual([null, null, true, null]);
	expect(h.server.requests.filter((r) => r.method === 'POST')).toEqual([]);
});

describe('who calls: the opening, and the business the law asks to be named', () => {
	test("each call's context opens with the words the agent says first, in the language of the place", async () => {
		await task({ consent: 'off', callingOnBehalfOf: 'Acme Ltd', businessContact: '+1 800 555 0100' }).run([
			row('New York', '+1 212 555 0101'),
			row('Paris', '+33 1 45 67 89 01'),
			row('Montreal', '+1 514 555 0101'),
			row('New York again', '+1 212 555 0102'),
		]);
		const byContext = posts().map((post) => [post.context, post.documents.map((d) => d.name)]);
		expect(byContext).toEqual([
			[
				'Opening, required by law: before anything else, say these words in English, word for word: "Hello, this is an AI assistant, an artificial intelligence, calling on behalf of Acme Ltd, which you can reach at +1 800 555 0100. This call is recorded." Then say in one sentence why you are calling, from what follows.\n\nOur spring offer',
				['New York', 'New York again'],
			],
			// Paris's is a French sales call, which France asks to say is commercial; Montreal's is not.
			[
				expect.stringContaining(
					'say these words in French, word for word: "Bonjour, je suis un assistant virtuel, une intelligence artificielle, qui appelle pour le compte de Acme Ltd, joignable au +1 800 555 0100. Il s\'agit d\'un appel commercial. Cet appel est enregistré."',
				),
				['Paris'],
			],
			[expect.stringContaining('joignable au +1 800 555 0100. Cet appel est enregistré."'), ['Montreal']],
		]);
	});

	test('a US call without Calling On Behalf Of, or without Business Contact, is not placed: the node names the field', async () => {
		await expect(task({ consent: 'off', callingOnBehalfOf: '' }).run([row('NY', '+1 212 555 0101')])).rejects.toThrow(
			'Item 1: Calling On Behalf Of is empty, and the law of the United States asks a call to say who calls (47 CFR 64.1200(b)(1)-(2)). Nothing was sent.',
		);
		await expect(task({ consent: 'off', businessContact: '' }).run([row('NY', '+1 212 555 0101')])).rejects.toThrow(
			'Item 1: Business Contact is empty, and the law of the United States asks a call to say how to reach the business (47 CFR 64.1200(b)(1)-(2)). Nothing was sent.',
		);
		expect(h.server.requests.filter((r) => r.method === 'POST')).toEqual([]);
		// Where no law asks it, the opening says only that an AI speaks, and that the call is recorded.
		await task({ consent: 'off', callingOnBehalfOf: '', businessContact: '' }).run([row('Mumbai', '+91 22 2345 6701')]);
		expect(posts()[0].context).toContain(
			'"Hello, this is an AI assistant, an artificial intelligence. This call is recorded."',
		);
	});
});

describe('every other path refuses before any request', () => {
	const NO_CONSENT = row('US none', '+1 212 555 0101');

	test('Call and Wait in the execution: each contact without consent comes out refused, and nothing is called', async () => {
		const out = (
			await task({ operation: 'callAndWait' }, 'continueRegularOutput').run([
				NO_CONSENT,
				row('US revoked', '+1 212 555 0104', { ...WRITTEN, consent_revoked_at: 'yes' }),
			])
		).map((i) => i.json);
		expect(out.map((o) => [o.unpod_created, o.unpod_refused_by])).toEqual([
			[false, 'consent'],
			[false, 'consent'],
		]);
		expect(out[1].unpod_refused).toMatch(/^Item 2: \+12125550104: consent revoked; /);
		expect(h.server.requests.filter((r) => r.method === 'POST')).toEqual([]);
	});

	test('Call and Wait until Unpod reports, and Call and Wait for Approval, stop the whole run', async () => {
		await expect(
			task({ operation: 'callAndWait', waitMode: 'untilReported' }).run([
				row('IN none', '+91 22 2345 6701'),
				NO_CONSENT,
			]),
		).rejects.toThrow(
			'Item 2: +12125550101: no consent on record (consent_at is empty); the law of the United States asks written consent for sales or marketing calls (47 CFR 64.1200(a)(2)-(3), (f)(9)); not called. Nothing was sent.',
		);
		await expect(
			// The approval's calls are informational whatever The Calls Are would say: express consent, not written.
			task({ operation: 'sendAndWait', message: 'May we refund 120 EUR?' }).run([NO_CONSENT]),
		).rejects.toThrow(
			'Item 1, the approver: +12125550101: no consent on record (consent_at is empty); the law of the United States asks express consent for informational calls (47 CFR 64.1200(a)(1)(iii)); not called. Nothing was sent.',
		);
		expect(h.server.requests.filter((r) => r.method === 'POST')).toEqual([]);
	});

	test('a wait whose contacts open in different languages says so, and Opening Language lets them go together in one request', async () => {
		await expect(
			task({ operation: 'callAndWait', waitMode: 'untilReported', options: { callsAre: 'informational' } }).run(
				NEW_YORK_AND_MONTREAL,
			),
		).rejects.toThrow(
			"Item 2: its call opens in French, item 1's in English; the calls of one wait go in one request, with one opening",
		);
		expect(h.server.requests.filter((r) => r.method === 'POST')).toEqual([]);
		// One language for all: one request, both calls in it, the opening in English.
		expect((await h.run(oneOpening)).exitCode).toBe(0);
		const [post] = posts();
		expect(post.documents.map((d) => d.name)).toEqual(['New York', 'Montreal']);
		expect(post.context).toMatch(/^Opening, required by law: .*Hello, this is an AI assistant/s);
	});

	test("a wait of French sales calls to France and to Quebec: France's says it is commercial, so they wait apart", async () => {
		const error = await task({ operation: 'callAndWait', waitMode: 'untilReported' })
			.run([row('Paris', '+33 1 45 67 89 02', WRITTEN), row('Montreal', '+1 514 555 0107', WRITTEN)])
			.catch((e: { message: string; description?: string }) => e);
		expect(error).toMatchObject({
			message:
				"Item 2: its call opens in French, item 1's in French, saying the call is commercial; the calls of one wait go in one request, with one opening",
			description: expect.stringContaining("France's sales calls say they are commercial"),
		});
		expect(h.server.requests.filter((r) => r.method === 'POST')).toEqual([]);
	});

	test('JSON Array mode: each document carries its own consent; the item holding the array gives none to them', async () => {
		const documents = [
			{ name: 'With', contact_number: '+12125550107', ...WRITTEN },
			{ name: 'Without', contact_number: '+12125550108' },
			{ name: 'Revoked', contact_number: '+12125550109', ...WRITTEN, consent_revoked_at: 'yes' },
		];
		const out = (
			await task({ contactsSource: 'json', documents: '={{ $json.documents }}' }, 'continueRegularOutput').run([
				// The item itself holds a consent: it is no contact's.
				{ documents, consent_at: BEFORE, consent_wording: WORDING },
			])
		).map((i) => i.json);
		expect(out.map((o) => o.unpod_refused_by ?? (typeof o.task_id === 'string' ? 'placed' : 'neither'))).toEqual([
			'placed',
			'consent',
			'consent',
		]);
		expect(sent()).toEqual([
			{
				name: 'With',
				contact_number: '+12125550107',
				consent_at: '2026-05-01T09:30:00.000Z',
				consent_source: 'web form',
				consent_wording: WORDING,
			},
		]);
	});
});

describe('Follow Up: the next call asks the gate as the first did', () => {
	/** An ended call as the triggers put it out, its contact's consent in its document (contact_fields). */
	const endedCall = (taskId: string, consent: IDataObject, extra: IDataObject = {}) => ({
		task_id: taskId,
		run_id: 'Rnotknown',
		status: 'failed',
		call_status: 'no_answer',
		contact_name: 'Ann Lee',
		contact_number: '+12125550101',
		contact_fields: { name: 'Ann Lee', contact_number: '+12125550101', ...consent },
		end_time: '2026-12-06T11:00:00.000Z',
		...extra,
	});
	const followUp = (onError?: 'continueRegularOutput') =>
		task({ operation: 'followUp', callContext: 'Try again' }, onError);

	test('a retry keeps the consent of the first call in its document, and its context opens with the opening', async () => {
		const [out] = (await followUp().run([endedCall('Tretry000001', WRITTEN)])).map((i) => i.json);
		expect(out).toMatchObject({ follow_up: 'retry', unpod_consent: expect.stringMatching(/^on record: /) });
		const [post] = posts();
		expect(post.documents[0]).toMatchObject({
			consent_at: '2026-05-01T09:30:00.000Z',
			consent_wording: WORDING,
			attempt: 2,
		});
		expect(post.context).toMatch(/^Opening, required by law: .*\n\nTry again$/s);
	});

	test('a contact whose consent was revoked after the first call is never called back; Unpod calling again is named', async () => {
		const revokedSince = { consent_revoked_at: '2026-12-06T10:30:00Z' };
		// Numbers of their own: no other task of the space is theirs.
		const other = (taskId: string, extra: IDataObject = {}) => ({
			...endedCall(taskId, WRITTEN, extra),
			contact_number: '+12125550177',
			contact_fields: { name: 'Ann Lee', contact_number: '+12125550177', ...WRITTEN },
		});
		const [retry, unpods, premium] = (
			await followUp().run([
				// The revocation comes from where the user keeps it (a row merged in): later than the consent.
				{ ...other('Trevoked0001'), ...revokedSince },
				{
					...other('Trevoked0002', { status: 'completed', call_status: 'completed' }),
					unpod_follow_up_status: 'call_scheduled',
					unpod_follow_up_at: '2026-12-07T15:00:00.000Z',
					...revokedSince,
				},
				// A number the gate refuses first (premium rate): the revocation still names the ending.
				{
					...endedCall('Trevoked0003', WRITTEN),
					contact_number: '+19005550123',
					contact_fields: { name: 'Ann Lee', contact_number: '+19005550123', ...WRITTEN },
					...revokedSince,
				},
			])
		).map((i) => i.json);
		expect(retry).toMatchObject({
			follow_up: 'none',
			follow_up_reason: 'consent_revoked',
			follow_up_at: null,
			consent_revoked: true,
			do_not_call: false,
		});
		expect(unpods).toMatchObject({ follow_up: 'none', follow_up_reason: 'consent_revoked', consent_revoked: true });
		expect(premium).toMatchObject({ follow_up: 'none', follow_up_reason: 'consent_revoked', consent_revoked: true });
		expect(unpods.unpod_warning).toBe(
			"Unpod itself calls this contact again at 2026-12-07T15:00:00.000Z, and Unpod cannot cancel a task: see the package's docs (Follow Up, consent) for what to do",
		);
		expect(h.server.requests.filter((r) => r.method === 'POST')).toEqual([]);
	});

	test("the first call's consent is read from the task Unpod stored; a value to fix fails an item only where a call is due", async () => {
		const created = (await task().run([row('Stored', '+1 212 555 0111', WRITTEN)])).map((i) => i.json);
		const stored = h.server.store.tasksById.get(String(created[0].task_id))!;
		h.server.store.finishTask(stored, 'failed');
		h.server.resetTraffic();
		// As a trigger puts it out with Simplify on, its contact fields left out: read back from its run.
		const flat = {
			task_id: stored.task_id,
			run_id: stored.run_id,
			status: 'failed',
			call_status: 'no_answer',
			contact_name: 'Stored',
			contact_number: '+12125550111',
			end_time: '2026-12-06T11:00:00.000Z',
		};
		await followUp().run([flat]);
		expect(sent()[0]).toMatchObject({ consent_at: '2026-05-01T09:30:00.000Z', consent_wording: WORDING, attempt: 2 });
		h.server.resetTraffic();
		// Who calls left empty: a call that reached the person needs no next call, so nothing fails.
		const reached = {
			...endedCall('Treached0001', WRITTEN),
			status: 'completed',
			call_status: 'completed',
			transcript: 'Assistant: Hi\nContact: Hello',
		};
		const [fine] = (
			await task({ operation: 'followUp', callContext: 'Try again', callingOnBehalfOf: '' }).run([reached])
		).map((i) => i.json);
		expect(fine).toMatchObject({ follow_up: 'none', follow_up_reason: 'reached' });
		await expect(
			task({ operation: 'followUp', callContext: 'Try again', callingOnBehalfOf: '' }).run([
				endedCall('Tdue00000001', WRITTEN),
			]),
		).rejects.toThrow('Item 1: Calling On Behalf Of is empty');
		expect(h.server.requests.filter((r) => r.method === 'POST')).toEqual([]);
	});

	test('a first call placed with Consent off gets no next call without the consent the law asks', async () => {
		const [out] = (await followUp().run([endedCall('Tnoconsent01', {})])).map((i) => i.json);
		expect(out).toMatchObject({ follow_up: 'none', follow_up_at: null });
		expect(out.follow_up_reason).toBe(
			'consent: +12125550101: no consent on record (consent_at is empty); the law of the United States asks written consent for sales or marketing calls (47 CFR 64.1200(a)(2)-(3), (f)(9)); not called',
		);
		expect(h.server.requests.filter((r) => r.method === 'POST')).toEqual([]);
	});
});
