/**
 * The HighLevel example in a real n8n, the HighLevel node's requests led by HTTPS_PROXY to a
 * twin of HighLevel's API v2: tagged contacts become calls; each ending upserts its contact by
 * phone with one verdict tag (its other tags kept) and a note, once.
 */
import type { IDataObject } from 'n8n-workflow';
import type { N8n } from '../../../dev/harness/n8n';
import { waitFor } from '../../helpers/wait-for';
import type { N8nServer } from '../../../dev/harness/n8n-server';
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
import { HighLevel } from '@gohighlevel/api-client';
import { HighLevelTwin } from '../../../dev/twins/highlevel';
import { SEED } from '../../../dev/server/seed';
import { testNote } from '../../helpers/notes';

const TOKEN = 'eyJhbGciOiJSUzI1NiJ9.twin-highlevel-location-token';
const highlevel = new HighLevelTwin(TOKEN);
const CALLS_FIELD = 'hXq2Unp0dCa11sF1eLd';
const CREDENTIALS = [
	{
		id: 'highLevelTwin',
		name: 'HighLevel (twin)',
		type: 'highLevelOAuth2Api',
		data: {
			clientId: 'twin-marketplace-app',
			clientSecret: 'twin-secret',
			// What the editor asks for before it saves the credential (the example's note lists them).
			scope: 'contacts.readonly contacts.write',
			oauthTokenData: {
				access_token: TOKEN,
				token_type: 'Bearer',
				userType: 'Location',
				locationId: highlevel.locationId,
			},
		},
	},
];

export function highlevelExamples(suite: TwinSuite): void {
	const [HIGHLEVEL] = suite.add(highlevel, CREDENTIALS, ['highlevel-calls.json']);
	// The id of the user's "Unpod calls" custom field, pasted as the note asks.
	const fields = HIGHLEVEL.nodes.find((n) => n.name === 'HighLevel fields')!.parameters!;
	if (!String(fields.jsonOutput).includes("calls_field_id: '',"))
		throw new Error('HighLevel fields has no calls_field_id to fill in');
	fields.jsonOutput = String(fields.jsonOutput).replace("calls_field_id: '',", `calls_field_id: '${CALLS_FIELD}',`);
	let h: Harness<N8n>;
	let n8n: N8nServer;
	beforeAll(() => {
		h = suite.h;
		n8n = suite.n8n;
	});

	describe('HighLevel', () => {
		test('contacts tagged unpod-call become calls with their HighLevel ids; run again, nobody is called twice', async () => {
			const mia = highlevel.addContact({
				firstName: 'Mia',
				lastName: 'Chen',
				phone: '+12125800101',
				email: 'mia@example.com',
				tags: ['unpod-call', 'webinar'],
			});
			highlevel.addContact({ firstName: 'Not', lastName: 'Tagged', phone: '+12125800109' });
			highlevel.addContact({ firstName: 'No', lastName: 'Phone', tags: ['unpod-call'] });

			expect(await n8n.runManually(HIGHLEVEL.id, 'Start the calls')).toEqual({ status: 'success' });
			const [create] = h.server.requestsTo('POST', `/spaces/${SEED.spaceToken}/tasks/`);
			expect((create.body as { documents: unknown[] }).documents).toEqual([
				{ name: 'Mia Chen', contact_number: '+12125800101', document_id: mia.id, email: 'mia@example.com' },
			]);
			expect(await n8n.runManually(HIGHLEVEL.id, 'Start the calls')).toEqual({ status: 'success' });
			expect(h.server.requestsTo('POST', `/spaces/${SEED.spaceToken}/tasks/`)).toHaveLength(1);
		});

		test('each ending upserts its contact by phone with a verdict tag and a note, once; a 429 retried; copies change nothing', async () => {
			const outcomes = await activateOutcomes(h, n8n, HIGHLEVEL);
			try {
				const ada = highlevel.addContact({
					firstName: 'Ada',
					lastName: 'Stone',
					phone: '+1 212 580 0201',
					tags: ['vip', 'unpod-callback'],
				});
				const contacts = highlevel.contacts.size;
				const [adaCall, cleoCall] = h.server.calls.addTasks([
					{ name: 'Ada Stone', contact_number: '+12125800201', document_id: ada.id },
					{ name: 'Cleo Nguyen', contact_number: '+12125800203', email: 'cleo@example.com' },
				]);
				highlevel.rateLimit('POST', /^\/contacts\/[^/]+\/notes$/);
				const from = highlevel.requests.length;
				h.server.calls.callScripts = [
					{ number: '+12125800201', end: 'completed', afterMs: 100, outcome: 'interested' },
				];
				h.server.calls.planCalls([adaCall]);
				h.server.store.finishTask(cleoCall, 'failed');
				await waitForLanding(
					h,
					n8n,
					HIGHLEVEL,
					highlevel,
					'two notes in HighLevel',
					() => highlevel.notes.length === 2,
					from,
				);

				expect(highlevel.contacts.size).toBe(contacts + 1);
				const cleo = [...highlevel.contacts.values()].find((c) => c.email === 'cleo@example.com')!;
				expect(cleo).toMatchObject({
					firstName: 'Cleo',
					lastName: 'Nguyen',
					phone: '+12125800203',
					tags: ['unpod-not-reached'],
				});
				// Ada keeps her own tag; the verdict tag replaces the earlier one.
				expect(highlevel.contacts.get(ada.id)!.tags).toEqual(['vip', 'unpod-interested']);
				for (const [contact, task] of [
					[ada, adaCall],
					[cleo, cleoCall],
				] as const) {
					const flat = outcomeOf(h, task);
					const [note] = highlevel.notesOf(contact.id);
					expect(highlevel.notesOf(contact.id)).toHaveLength(1);
					expect(note.body).toContain(`Unpod task ${task.task_id}`);
					if (task === adaCall) {
						expect(note.body).toContain(String(flat.call_summary));
						for (const [key, value] of Object.entries(flat.structured_data as IDataObject))
							expect(note.body).toContain(`${key} = ${value}`);
					}
					expect(highlevel.contacts.get(contact.id)!.customFields).toEqual([{ id: CALLS_FIELD, value: task.task_id }]);
				}
				const sent = highlevel.requests.slice(from);
				expect(
					sent
						.filter((r) => r.path.endsWith('/notes'))
						.map((r) => r.status)
						.sort(),
				).toEqual([201, 201, 429]);
				testNote(
					`HighLevel: ${sent.filter((r) => r.status !== 429).length} requests for two endings, one 429 retried besides (${sent.length} sent)`,
				);

				// Every copy stops at its claim, before HighLevel is asked anything.
				const again = await deliverAgain(
					h,
					n8n,
					HIGHLEVEL,
					highlevel,
					[adaCall, cleoCall],
					outcomes.polls,
					suite.claims,
				);
				expect(again).toEqual([]);
				expect(highlevel.notes).toHaveLength(2);
			} finally {
				h.server.calls.callScripts = [];
				await outcomes.deactivate();
			}
		});

		test("do-not-call both ways: contacts on Do Not Disturb for calls or on the shared list are not called; an opt-out gets DND for calls once (read back by HighLevel's SDK) and joins the shared list", async () => {
			const quiet = highlevel.addContact({
				firstName: 'Dee',
				lastName: 'Quiet',
				phone: '+12125800501',
				tags: ['unpod-call'],
				dndSettings: { Call: { status: 'active', message: '', code: '' } },
			});
			const listed = highlevel.addContact({
				firstName: 'Lou',
				lastName: 'Listed',
				phone: '+12125800502',
				tags: ['unpod-call'],
			});
			const open = highlevel.addContact({
				firstName: 'Noor',
				lastName: 'Open',
				phone: '+12125800503',
				tags: ['unpod-call'],
			});
			const sent = await startWithListed(suite, HIGHLEVEL, '212.580.0502');
			expect(sent).toContain(open.id);
			expect(sent).not.toContain(quiet.id);
			expect(sent).not.toContain(listed.id);

			const outcomes = await activateOutcomes(h, n8n, HIGHLEVEL);
			try {
				const ola = highlevel.addContact({ firstName: 'Ola', lastName: 'Optout', phone: '+12125800504' });
				const from = highlevel.requests.length;
				const call = optOut(h, { name: 'Ola Optout', contact_number: '+12125800504' });
				await waitForLanding(
					h,
					n8n,
					HIGHLEVEL,
					highlevel,
					"Ola's Do Not Disturb for calls",
					() => (ola.dndSettings as { Call?: { status?: string } } | undefined)?.Call?.status === 'active',
					from,
				);
				const client = new HighLevel({ privateIntegrationToken: TOKEN, rateLimitRetry: false, logLevel: 'none' });
				client.getHttpClient().defaults.baseURL = suite.t.twins.urls.highlevel;
				const read = await client.contacts.getContact({ contactId: ola.id });
				expect(read.contact).toMatchObject({ dndSettings: { Call: { status: 'active' } } });
				// DND for calls only: her email and messages are not stopped.
				expect((read.contact as { dnd?: boolean }).dnd).toBeUndefined();
				expect(highlevel.requests.slice(from).filter((r) => r.method === 'PUT')).toHaveLength(1);
				const sentForIt = highlevel.requests.length - from;
				await expectListedOnce(suite, HIGHLEVEL, highlevel, call, outcomes.polls);
				testNote(`HighLevel opt-out: ${sentForIt} requests (the note and tag, DND for calls); copies: 0`);
			} finally {
				await outcomes.deactivate();
			}
		});
	});
}
