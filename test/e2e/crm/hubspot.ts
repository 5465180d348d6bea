/**
 * The examples for where users keep their contacts, each in a real n8n with n8n's own node for
 * the service, its requests led by HTTPS_PROXY to a local twin of the service's API (nothing
 * leaves the machine): contacts become calls, each ending lands once in the right record,
 * a redelivery or the safety net's copy changes nothing, a 429 is retried without a second
 * record; and the SuperDialog tool answers a lookup mid-call.
 */
import axios from 'axios';
import type { IDataObject } from 'n8n-workflow';
import type { N8n } from '../../../dev/harness/n8n';
import { waitFor } from '../../helpers/wait-for';
import type { N8nServer } from '../../../dev/harness/n8n-server';
import { POLL_BY_REACTIVATION } from '../../../dev/harness/n8n-versions';
import type { Harness } from '../../helpers/setup';
import {
	activateOutcomes,
	deliverAgain,
	expectListedOnce,
	optOut,
	outcomeOf,
	startWithListed,
	waitForLanding,
	type TwinSuite,
} from '../../helpers/twins';
import { HubSpotTwin } from '../../../dev/twins/hubspot';
import { SEED } from '../../../dev/server/seed';
import { testNote } from '../../helpers/notes';

const HUBSPOT_TOKEN = 'pat-na1-11111111-2222-4333-8444-555555555555';
const TOOL_TOKEN = 'agent-tool-token-3f7a9c2e51d8b604';
const hubspot = new HubSpotTwin(HUBSPOT_TOKEN);
const CREDENTIALS = [
	{ id: 'hubspotTwin', name: 'HubSpot (twin)', type: 'hubspotAppToken', data: { appToken: HUBSPOT_TOKEN } },
	{
		id: 'agentToolToken',
		name: 'Agent tool token',
		type: 'httpHeaderAuth',
		data: { name: 'Authorization', value: `Bearer ${TOOL_TOKEN}` },
	},
];

/** A contact's consent to be called, where the HubSpot example reads it. */
const CONSENTED = {
	hs_legal_basis: 'Freely given consent from contact',
	unpod_consent_at: '2026-04-02T10:00:00.000Z',
	unpod_consent_wording: 'Acme may call me about its offers, also with an AI voice.',
};

/** The number that says no on its call in the HubSpot test: the sheet campaign must not call it. */
export const HUBSPOT_OPT_OUT = '+12125400504';

export function hubspotExamples(suite: TwinSuite): void {
	// Consent on, as the example ships: its leads carry their consent where the example reads it.
	const [HUBSPOT, LOOKUP] = suite.add(
		hubspot,
		CREDENTIALS,
		['hubspot-calls.json', 'superdialog-caller-lookup.json'],
		{},
	);
	let h: Harness<N8n>;
	let n8n: N8nServer;
	beforeAll(() => {
		h = suite.h;
		n8n = suite.n8n;
	});

	describe('HubSpot', () => {
		test('leads become calls, each with its HubSpot id as the document id and its consent; run again, nobody is called twice', async () => {
			const consent = CONSENTED;
			const leads = [
				hubspot.addContact({
					firstname: 'Mia',
					lastname: 'Chen',
					phone: '+12125400101',
					email: 'mia.chen@example.com',
					company: 'Northwind',
					hs_lead_status: 'NEW',
					...consent,
				}),
				hubspot.addContact({
					firstname: 'Leo',
					lastname: 'Park',
					phone: '+12125400102',
					email: 'leo.park@example.com',
					hs_lead_status: 'NEW',
					...consent,
				}),
			];
			// A new lead whose consent HubSpot does not hold: not called.
			hubspot.addContact({ firstname: 'Nia', lastname: 'Nolan', phone: '+12125400103', hs_lead_status: 'NEW' });
			hubspot.addContact({ firstname: 'No', lastname: 'Phone', email: 'no.phone@example.com', hs_lead_status: 'NEW' });
			hubspot.addContact({ firstname: 'Already', lastname: 'Open', phone: '+12125400109', hs_lead_status: 'OPEN' });

			expect(await n8n.runManually(HUBSPOT.id, 'Start the calls')).toEqual({ status: 'success' });
			const creates = h.server.requestsTo('POST', `/spaces/${SEED.spaceToken}/tasks/`);
			expect(creates).toHaveLength(1);
			const carried = {
				consent_at: consent.unpod_consent_at,
				consent_source: 'HubSpot legal basis: Freely given consent from contact',
				consent_wording: consent.unpod_consent_wording,
			};
			expect((creates[0].body as { documents: unknown[] }).documents).toEqual([
				{
					name: 'Mia Chen',
					contact_number: '+12125400101',
					document_id: leads[0].id,
					email: 'mia.chen@example.com',
					company_name: 'Northwind',
					...carried,
				},
				{
					name: 'Leo Park',
					contact_number: '+12125400102',
					document_id: leads[1].id,
					email: 'leo.park@example.com',
					...carried,
				},
			]);
			// The search asked HubSpot for new leads with a phone, once.
			expect(hubspot.sent('POST', /contacts\/search$/)).toHaveLength(1);

			expect(await n8n.runManually(HUBSPOT.id, 'Start the calls')).toEqual({ status: 'success' });
			expect(h.server.requestsTo('POST', `/spaces/${SEED.spaceToken}/tasks/`)).toHaveLength(1);
		});

		test('each ending lands once on its contact: found by id, by phone, or created; a 429 retried; a redelivery and the safety net change nothing', async () => {
			const outcomes = await activateOutcomes(h, n8n, HUBSPOT);
			try {
				const byId = hubspot.addContact({
					firstname: 'Ada',
					lastname: 'Stone',
					phone: '+1 212 540 0201',
					email: 'ada.stone@example.com',
					budget: '900',
				});
				const byPhone = hubspot.addContact({
					firstname: 'Ben',
					lastname: 'Ortiz',
					phone: '+12125400202',
					email: 'ben.ortiz@example.com',
				});
				const contacts = hubspot.contacts.size;
				const [ada, ben, cleo] = h.server.calls.addTasks([
					{ name: 'Ada Stone', contact_number: '+12125400201', document_id: byId.id, email: 'ada.stone@example.com' },
					{ name: 'Ben Ortiz', contact_number: '+12125400202', email: 'ben.ortiz@example.com' },
					{ name: 'Cleo Nguyen', contact_number: '+12125400203', email: 'cleo.nguyen@example.com' },
				]);
				hubspot.rateLimit('POST', /^\/engagements\/v1\/engagements$/);
				const sentBefore = hubspot.requests.length;
				h.server.store.finishTask(ada, 'failed');
				h.server.store.finishTask(ben, 'completed');
				h.server.store.finishTask(cleo, 'completed');
				await waitForLanding(
					h,
					n8n,
					HUBSPOT,
					hubspot,
					'three calls logged in HubSpot',
					() => hubspot.engagements.length === 3,
					sentBefore,
				);

				// Cleo was not in HubSpot: created from what Unpod has.
				expect(hubspot.contacts.size).toBe(contacts + 1);
				const created = [...hubspot.contacts.values()].find((c) => c.properties.email === 'cleo.nguyen@example.com')!;
				expect(created.properties).toMatchObject({ firstname: 'Cleo', lastname: 'Nguyen', phone: '+12125400203' });
				for (const [contactId, task] of [
					[byId.id, ada],
					[byPhone.id, ben],
					[created.id, cleo],
				] as const) {
					const flat = outcomeOf(h, task);
					const [call] = hubspot.callsOf(contactId);
					expect(hubspot.callsOf(contactId)).toHaveLength(1);
					expect(call.engagement.type).toBe('CALL');
					expect(call.metadata).toMatchObject({
						toNumber: task.input.contact_number,
						status: task.status === 'failed' ? expect.stringMatching(/^(NO_ANSWER|BUSY|FAILED)$/) : 'COMPLETED',
					});
					expect(String(call.metadata.body)).toContain(`Unpod task ${task.task_id}`);
					if (task.status === 'completed') {
						expect(call.metadata).toMatchObject({
							durationMilliseconds: Math.round(Number(flat.duration) * 1000),
							recordingUrl: flat.recording_url,
						});
						expect(String(call.metadata.body)).toContain(String(flat.call_summary));
						expect(String(call.metadata.body)).toContain(`Verdict: ${flat.outcome}`);
						const extracted = flat.structured_data as IDataObject;
						expect(hubspot.contacts.get(contactId)!.properties).toMatchObject({
							budget: String(extracted.budget),
							meeting_date: String(extracted.meeting_date),
							decision_maker: String(extracted.decision_maker),
							unpod_last_call_summary: String(flat.call_summary),
						});
					}
				}
				// The failed call extracted nothing: Ada's budget kept its value.
				expect(hubspot.contacts.get(byId.id)!.properties.budget).toBe('900');

				// Per ending: a search, a save, a call logged; the one 429 was retried.
				const sent = hubspot.requests.slice(sentBefore);
				const count = (path: RegExp) => sent.filter((r) => path.test(r.path)).map((r) => r.status);
				expect(count(/contacts\/search$/)).toEqual([200, 200, 200]);
				expect(count(/createOrUpdate/)).toEqual([200, 200, 200]);
				expect(count(/engagements$/).sort()).toEqual([200, 200, 200, 429]);

				// Every ending again: pushed and polled by the safety net (2.x). Every copy stops at its
				// claim, before HubSpot is asked anything.
				const again = await deliverAgain(h, n8n, HUBSPOT, hubspot, [ada, ben, cleo], outcomes.polls, suite.claims);
				expect(again).toEqual([]);
				testNote(
					`HubSpot: each ending cost ${count(/contacts\/search$/).length / 3 + 1 + 1} requests; the copies of three endings (pushed again${POLL_BY_REACTIVATION ? ' and polled' : ''}) none`,
				);
				expect(hubspot.engagements).toHaveLength(3);
				for (const [contactId, task] of [
					[byId.id, ada],
					[byPhone.id, ben],
					[created.id, cleo],
				] as const)
					expect(hubspot.contacts.get(contactId)!.properties.unpod_task_ids).toBe(task.task_id);
			} finally {
				await outcomes.deactivate();
			}
		});

		test('do-not-call both ways: flagged contacts and listed numbers are not called; an opt-out sets unpod_do_not_call in the same save and joins the shared list, once', async () => {
			const flagged = hubspot.addContact({
				firstname: 'Dee',
				lastname: 'Flagged',
				phone: '+12125400501',
				hs_lead_status: 'NEW',
				unpod_do_not_call: 'true',
			});
			// Both consented to calls: the list alone keeps Lou from being called.
			const listed = hubspot.addContact({
				firstname: 'Lou',
				lastname: 'Listed',
				phone: '+12125400502',
				hs_lead_status: 'NEW',
				...CONSENTED,
			});
			const cleared = hubspot.addContact({
				firstname: 'Cy',
				lastname: 'Cleared',
				phone: '+12125400503',
				hs_lead_status: 'NEW',
				unpod_do_not_call: 'false',
				...CONSENTED,
			});
			const sent = await startWithListed(suite, HUBSPOT, '+1 (212) 540-0502');
			expect(sent).toEqual([cleared.id]);
			expect(sent).not.toContain(flagged.id);
			expect(sent).not.toContain(listed.id);

			const outcomes = await activateOutcomes(h, n8n, HUBSPOT);
			try {
				const ola = hubspot.addContact({
					firstname: 'Ola',
					lastname: 'Optout',
					phone: HUBSPOT_OPT_OUT,
					email: 'ola@example.com',
				});
				const from = hubspot.requests.length;
				const call = optOut(h, {
					name: 'Ola Optout',
					contact_number: HUBSPOT_OPT_OUT,
					document_id: ola.id,
					email: 'ola@example.com',
				});
				await waitForLanding(
					h,
					n8n,
					HUBSPOT,
					hubspot,
					"Ola's opt-out",
					() => hubspot.callsOf(ola.id).length === 1,
					from,
				);
				expect(hubspot.contacts.get(ola.id)!.properties.unpod_do_not_call).toBe('true');
				const saves = hubspot.requests.slice(from).filter((r) => /createOrUpdate/.test(r.path));
				expect(saves).toHaveLength(1);
				const sentForIt = hubspot.requests.length - from;
				await expectListedOnce(suite, HUBSPOT, hubspot, call, outcomes.polls);
				testNote(`HubSpot opt-out: ${sentForIt} requests (the flag in the save: none more); copies: 0`);
			} finally {
				await outcomes.deactivate();
			}
		});
	});

	describe('SuperDialog caller lookup', () => {
		const lookup = (body: unknown, token = TOOL_TOKEN) =>
			axios.post(`${n8n.url}/webhook/unpod-caller-lookup`, body, {
				headers: token ? { Authorization: `Bearer ${token}` } : {},
				validateStatus: () => true,
			});

		test('a request as HttpTool sends it gets the contact in JSON; unknown numbers and a CRM that is down get an answer the agent can use', async () => {
			await n8n.setActive(LOOKUP.id, true);
			try {
				const dana = hubspot.addContact({
					firstname: 'Dana',
					lastname: 'Reyes',
					phone: '+12125400301',
					email: 'dana@example.com',
					company: 'Contoso',
					unpod_last_call_outcome: 'callback',
					unpod_last_call_summary: 'Asked for a call back on Tuesday about the renewal.',
					budget: '5000',
				});
				await waitFor('the lookup webhook', async () => (await lookup({ phone: '+12125400399' })).status === 200);
				const started = Date.now();
				const found = await lookup({ phone: '+1 212 540 0301' });
				const took = Date.now() - started;
				expect(found.status).toBe(200);
				expect(found.headers['content-type']).toMatch(/^application\/json/);
				expect(found.data).toEqual({
					found: true,
					name: 'Dana Reyes',
					company: 'Contoso',
					email: 'dana@example.com',
					last_call_outcome: 'callback',
					last_call_summary: dana.properties.unpod_last_call_summary,
					budget: '5000',
					meeting_date: null,
					decision_maker: null,
				});
				testNote(`Caller lookup answered in ${took} ms (one HubSpot search)`);

				expect((await lookup({ phone: '+12125400398' })).data).toMatchObject({
					found: false,
					say: expect.stringMatching(/Ask for their name/),
				});
				hubspot.failNext('POST', /contacts\/search$/, 1, 503);
				const down = await lookup({ phone: '+12125400301' });
				expect(down.status).toBe(200);
				expect(down.data).toMatchObject({ found: false, crm_unavailable: true });
			} finally {
				await n8n.setActive(LOOKUP.id, false);
			}
		});

		test('a wrong token or none is refused and runs nothing', async () => {
			await n8n.setActive(LOOKUP.id, true);
			try {
				// n8n 2.41 registers a published workflow's webhooks just after it answers.
				await waitFor('the lookup webhook', async () => (await lookup({}, '')).status !== 404);
				const searches = () => hubspot.sent('POST', /contacts\/search$/).length;
				const before = searches();
				const executions = await n8n.executionCount(LOOKUP.id);
				const statuses: number[] = [];
				for (const token of ['not-the-token', '']) {
					const refused = await lookup({ phone: '+12125400301' }, token);
					expect([401, 403]).toContain(refused.status);
					statuses.push(refused.status);
					expect(JSON.stringify(refused.data)).not.toContain('Dana');
				}
				expect(searches()).toBe(before);
				testNote(`Caller lookup refused: another token ${statuses[0]}, none ${statuses[1]}`);
				expect(await n8n.executionCount(LOOKUP.id)).toBe(executions);
			} finally {
				await n8n.setActive(LOOKUP.id, false);
			}
		});
	});
}
