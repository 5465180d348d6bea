/**
 * The Salesforce example in a real n8n, the Salesforce node's requests led by HTTPS_PROXY to a
 * twin of Salesforce's REST API: open leads become calls; each ending is one completed call
 * Task (`TaskSubtype` Call, `CallDisposition`, `CallDurationInSeconds`, `Description`) on the
 * Lead, found by id or phone, or created; a copy of an ending finds its Task by `CallObject`.
 */
import type { IDataObject } from 'n8n-workflow';
import type { N8n } from '../../../dev/harness/n8n';
import { waitFor } from '../../helpers/wait-for';
import type { N8nServer } from '../../../dev/harness/n8n-server';
import type { Harness } from '../../helpers/setup';
import {
	activateOutcomes,
	claimCounts,
	deliverAgain,
	expectListedOnce,
	optOut,
	outcomeOf,
	startWithListed,
	waitForLanding,
	type TwinSuite,
} from '../../helpers/twins';
import { Connection } from 'jsforce';
import { SalesforceTwin } from '../../../dev/twins/salesforce';
import { SEED } from '../../../dev/server/seed';
import { testNote } from '../../helpers/notes';

const TOKEN = '00D8d000000twin!AQ0AQtwin.access.token';
const salesforce = new SalesforceTwin(TOKEN);
const CREDENTIALS = [
	{
		id: 'salesforceTwin',
		name: 'Salesforce (twin)',
		type: 'salesforceOAuth2Api',
		data: {
			environment: 'production',
			clientId: 'twin-connected-app',
			clientSecret: 'twin-secret',
			oauthTokenData: {
				access_token: TOKEN,
				instance_url: salesforce.instanceUrl,
				token_type: 'Bearer',
				scope: 'api refresh_token',
			},
		},
	},
];

export function salesforceExamples(suite: TwinSuite): void {
	// Each person's Individual, and its phone consent records (Data Protection and Privacy).
	const individual = (lastName: string) => salesforce.add('Individual', { LastName: lastName }).Id;
	const phoneConsent = (partyId: string, status: 'OptIn' | 'OptOut', fields: Record<string, unknown> = {}) =>
		salesforce.add('ContactPointTypeConsent', {
			PartyId: partyId,
			ContactPointType: 'Phone',
			PrivacyConsentStatus: status,
			CaptureDate: '2026-04-02T10:00:00.000+0000',
			CaptureSource: 'Web form',
			...fields,
		});
	/** A lead's Individual with a phone consent, as a lead consented to calls carries it. */
	const consented = (lastName: string) => {
		const person = individual(lastName);
		phoneConsent(person, 'OptIn', { Consent_Wording__c: 'Acme may call me about its offers, also with an AI voice.' });
		return { IndividualId: person };
	};
	// Consent on, as the example ships: its leads' consent records are Salesforce's own.
	const [SALESFORCE] = suite.add(salesforce, CREDENTIALS, ['salesforce-calls.json'], {});
	let h: Harness<N8n>;
	let n8n: N8nServer;
	beforeAll(() => {
		h = suite.h;
		n8n = suite.n8n;
	});

	describe('Salesforce', () => {
		test('open leads with a phone become calls, each with its Lead Id as the document id and its phone consent; run again, nobody is called twice', async () => {
			const mia = salesforce.add('Lead', {
				FirstName: 'Mia',
				LastName: 'Chen',
				Phone: '+12125700101',
				Email: 'mia@example.com',
				Company: 'Northwind',
				Status: 'Open - Not Contacted',
				...consented('Chen'),
			});
			// Opted out of calls in Salesforce, and a lead with no consent record: neither is called.
			const olaPerson = individual('Out');
			phoneConsent(olaPerson, 'OptOut', { EffectiveFrom: '2026-05-01T08:00:00.000+0000' });
			salesforce.add('Lead', {
				FirstName: 'Ola',
				LastName: 'Out',
				Phone: '+12125700102',
				Company: 'Z',
				Status: 'Open - Not Contacted',
				IndividualId: olaPerson,
			});
			salesforce.add('Lead', {
				FirstName: 'Nat',
				LastName: 'None',
				Phone: '+12125700103',
				Company: 'W',
				Status: 'Open - Not Contacted',
			});
			// Consented in the spring (once on a record with no capture date, which Salesforce sorts
			// first unless told otherwise), opted out in May: the newest record holds, and she is not called.
			const olgaPerson = individual('Later');
			phoneConsent(olgaPerson, 'OptIn', {
				CaptureDate: null,
				EffectiveFrom: '2026-03-01T08:00:00.000+0000',
				Consent_Wording__c: 'Acme may call me about its offers, also with an AI voice.',
			});
			phoneConsent(olgaPerson, 'OptIn', { Consent_Wording__c: 'Acme may call me about its offers.' });
			phoneConsent(olgaPerson, 'OptOut', { CaptureDate: '2026-05-02T08:00:00.000+0000' });
			salesforce.add('Lead', {
				FirstName: 'Olga',
				LastName: 'Later',
				Phone: '+12125700104',
				Company: 'V',
				Status: 'Open - Not Contacted',
				IndividualId: olgaPerson,
			});
			salesforce.add('Lead', { FirstName: 'No', LastName: 'Phone', Company: 'X', Status: 'Open - Not Contacted' });
			salesforce.add('Lead', {
				FirstName: 'Worked',
				LastName: 'Lead',
				Phone: '+12125700109',
				Company: 'Y',
				Status: 'Working - Contacted',
			});

			expect(await n8n.runManually(SALESFORCE.id, 'Start the calls')).toEqual({ status: 'success' });
			const [create] = h.server.requestsTo('POST', `/spaces/${SEED.spaceToken}/tasks/`);
			expect((create.body as { documents: unknown[] }).documents).toEqual([
				{
					name: 'Mia Chen',
					contact_number: '+12125700101',
					document_id: mia.Id,
					email: 'mia@example.com',
					company_name: 'Northwind',
					consent_at: '2026-04-02T10:00:00.000Z',
					consent_source: 'Salesforce consent: Web form',
					consent_wording: 'Acme may call me about its offers, also with an AI voice.',
				},
			]);
			expect(await n8n.runManually(SALESFORCE.id, 'Start the calls')).toEqual({ status: 'success' });
			expect(h.server.requestsTo('POST', `/spaces/${SEED.spaceToken}/tasks/`)).toHaveLength(1);
		});

		test('each ending is one call Task on its Lead (by id, by phone, or created); a refused request retried; copies change nothing', async () => {
			const outcomes = await activateOutcomes(h, n8n, SALESFORCE);
			try {
				const ada = salesforce.add('Lead', {
					FirstName: 'Ada',
					LastName: 'Stone',
					Phone: '+12125700201',
					Company: 'Stone & Co',
				});
				const ben = salesforce.add('Lead', {
					FirstName: 'Ben',
					LastName: 'Ortiz',
					Phone: '+12125700202',
					Company: 'Ortiz Ltd',
				});
				const leads = salesforce.records.Lead.length;
				const [adaCall, benCall, cleoCall] = h.server.calls.addTasks([
					{ name: 'Ada Stone', contact_number: '+12125700201', document_id: ada.Id },
					{ name: 'Ben Ortiz', contact_number: '+12125700202' },
					{ name: 'Cleo Nguyen', contact_number: '+12125700203', email: 'cleo@example.com' },
				]);
				salesforce.rateLimit('POST', /\/sobjects\/task$/);
				const from = salesforce.requests.length;
				h.server.store.finishTask(adaCall, 'failed');
				h.server.store.finishTask(benCall, 'completed');
				h.server.store.finishTask(cleoCall, 'completed');
				await waitForLanding(
					h,
					n8n,
					SALESFORCE,
					salesforce,
					'three call Tasks in Salesforce',
					() => salesforce.records.Task.length === 3,
					from,
				);

				expect(salesforce.records.Lead.length).toBe(leads + 1);
				const cleo = salesforce.records.Lead.find((l) => l.LastName === 'Nguyen')!;
				expect(cleo).toMatchObject({
					FirstName: 'Cleo',
					Phone: '+12125700203',
					Email: 'cleo@example.com',
					Company: 'Cleo Nguyen',
				});
				for (const [lead, task] of [
					[ada, adaCall],
					[ben, benCall],
					[cleo, cleoCall],
				] as const) {
					const flat = outcomeOf(h, task);
					const logged = salesforce.records.Task.filter((r) => r.WhoId === lead.Id);
					expect(logged).toHaveLength(1);
					expect(logged[0]).toMatchObject({
						Status: 'Completed',
						TaskSubtype: 'Call',
						CallType: 'Outbound',
						CallObject: task.task_id,
						CallDurationInSeconds: Math.round(Number(flat.duration ?? 0)),
						ActivityDate: String(flat.end_time ?? flat.modified).slice(0, 10),
					});
					expect(String(logged[0].Description)).toContain(`Unpod task ${task.task_id}`);
					if (task === adaCall) expect(logged[0].CallDisposition).toMatch(/^(No answer|Busy|Failed)$/);
					else {
						expect(String(logged[0].Description)).toContain(String(flat.call_summary));
						for (const [key, value] of Object.entries(flat.structured_data as IDataObject))
							expect(String(logged[0].Description)).toContain(`${key} = ${value}`);
					}
				}
				const sent = salesforce.requests.slice(from);
				expect(
					sent
						.filter((r) => /sobjects\/task$/.test(r.path))
						.map((r) => r.status)
						.sort(),
				).toEqual([201, 201, 201, 403]);
				testNote(
					`Salesforce: ${sent.filter((r) => r.status !== 403).length} requests for three endings (by id 2, by phone 3, created 4), one refusal retried besides`,
				);

				// Every copy stops at its claim, before Salesforce is asked anything.
				const again = await deliverAgain(
					h,
					n8n,
					SALESFORCE,
					salesforce,
					[adaCall, benCall, cleoCall],
					outcomes.polls,
					suite.claims,
				);
				expect(again).toEqual([]);
				expect(salesforce.records.Task).toHaveLength(3);
			} finally {
				await outcomes.deactivate();
			}
		});

		test('do-not-call both ways: Do Not Call leads and listed numbers are not called; an opt-out checks Do Not Call once (read back by jsforce) and joins the shared list', async () => {
			const dnc = salesforce.add('Lead', {
				FirstName: 'Dee',
				LastName: 'Never',
				Phone: '+12125700501',
				Company: 'Never Inc',
				Status: 'Open - Not Contacted',
				DoNotCall: true,
			});
			// Both consented to calls: the list alone keeps Lou from being called.
			const listed = salesforce.add('Lead', {
				FirstName: 'Lou',
				LastName: 'Listed',
				Phone: '+12125700502',
				Company: 'Listed Ltd',
				Status: 'Open - Not Contacted',
				...consented('Listed'),
			});
			const noor = salesforce.add('Lead', {
				FirstName: 'Noor',
				LastName: 'Open',
				Phone: '+12125700503',
				Company: 'Open Co',
				Status: 'Open - Not Contacted',
				...consented('Open'),
			});
			const sent = await startWithListed(suite, SALESFORCE, '(212) 570-0502');
			expect(sent).toContain(noor.Id);
			expect(sent).not.toContain(dnc.Id);
			expect(sent).not.toContain(listed.Id);

			const outcomes = await activateOutcomes(h, n8n, SALESFORCE);
			try {
				const ola = salesforce.add('Lead', {
					FirstName: 'Ola',
					LastName: 'Optout',
					Phone: '+12125700504',
					Company: 'Ola AS',
				});
				const from = salesforce.requests.length;
				const call = optOut(h, { name: 'Ola Optout', contact_number: '+12125700504', document_id: ola.Id });
				await waitForLanding(h, n8n, SALESFORCE, salesforce, "Ola's Do Not Call", () => ola.DoNotCall === true, from);
				const conn = new Connection({
					instanceUrl: suite.t.twins.urls.salesforce,
					accessToken: TOKEN,
					version: '59.0',
				});
				expect(await conn.sobject('Lead').retrieve(ola.Id)).toMatchObject({ Id: ola.Id, DoNotCall: true });
				const patches = salesforce.requests.slice(from).filter((r) => r.method === 'PATCH');
				expect(patches.map((r) => [r.path.replace(/^.*sobjects\//, ''), r.body])).toEqual([
					[`lead/${ola.Id}`, { DoNotCall: true }],
				]);
				const sentForIt = salesforce.requests.length - from;
				// Copies stop at the claim: Salesforce asked nothing, the list not written again.
				await expectListedOnce(suite, SALESFORCE, salesforce, call, outcomes.polls);
				testNote(
					`Salesforce opt-out: ${sentForIt} requests (the call logged, its Task read, Do Not Call set); copies: 0`,
				);
			} finally {
				await outcomes.deactivate();
			}
		});

		test('an ending another execution claimed first is left to it, Salesforce asked nothing; a claim of another workflow does not count', async () => {
			const outcomes = await activateOutcomes(h, n8n, SALESFORCE);
			try {
				const [taken, eve] = h.server.calls.addTasks([
					{ name: 'Dan Ruiz', contact_number: '+12125700301' },
					{ name: 'Eve Park', contact_number: '+12125700302' },
				]);
				// What a copy of Dan's ending handled a moment earlier leaves (as the push and the poll's copy
				// did, both looking Salesforce up before either wrote), and a claim of another workflow.
				await n8n.dataTables.insert(suite.claims, [
					{ task_id: taken.task_id, workflow: SALESFORCE.id },
					{ task_id: eve.task_id, workflow: 'anotherWorkflow' },
				]);
				const from = salesforce.requests.length;
				h.server.store.finishTask(taken, 'completed');
				h.server.store.finishTask(eve, 'completed');
				await waitForLanding(
					h,
					n8n,
					SALESFORCE,
					salesforce,
					"Eve's call Task",
					() => salesforce.records.Task.some((t) => t.CallObject === eve.task_id),
					from,
				);
				expect(salesforce.records.Task.filter((t) => t.CallObject === taken.task_id)).toEqual([]);
				const sent = salesforce.requests.slice(from);
				const about = (r: (typeof sent)[number]) => `${r.query.get('q') ?? ''} ${JSON.stringify(r.body ?? '')}`;
				expect(sent.filter((r) => about(r).includes(taken.task_id) || /Ruiz|0700301/.test(about(r)))).toEqual([]);
				// Eve's: looked up, her Lead looked for by phone and created, the call logged.
				expect(sent).toHaveLength(4);
				expect(await claimCounts(n8n, suite.claims, SALESFORCE, [taken, eve])).toEqual([2, 1]);
			} finally {
				await outcomes.deactivate();
			}
		});
	});
}
