/**
 * The Google Sheets campaign in a real n8n, its Google Sheets nodes' requests led by
 * HTTPS_PROXY to a twin of the Sheets API: rows become calls, each ending updates its row,
 * Follow Up calls back until the row reads `reached` or `gave up`, and a repeated ending (pushed
 * twice, or pushed and polled) schedules nothing twice and changes no row.
 */
import type { IDataObject } from 'n8n-workflow';
import { loadExample } from '../../../dev/harness/examples';
import type { N8n } from '../../../dev/harness/n8n';
import { waitFor } from '../../helpers/wait-for';
import type { N8nServer } from '../../../dev/harness/n8n-server';
import { POLL_BY_REACTIVATION } from '../../../dev/harness/n8n-versions';
import { CREDENTIAL, type Harness } from '../../helpers/setup';
import { activateOutcomes, credentialRefs, outcomeOf, pollCopies, type TwinSuite } from '../../helpers/twins';
import { SheetsTwin } from '../../../dev/twins/sheets';
import { HUBSPOT_OPT_OUT } from './hubspot';
import { SEED } from '../../../dev/server/seed';
import { isOpen } from '../../../dev/server/callLifecycle';
import { callChain } from '../../../nodes/shared/outcome';
import { testNote } from '../../helpers/notes';

const ACCESS_TOKEN = 'ya29.sheets-twin-access-token';
export const sheets = new SheetsTwin(ACCESS_TOKEN);
export const SHEETS_CREDENTIALS = [
	{
		id: 'sheetsTwin',
		name: 'Google Sheets (twin)',
		type: 'googleSheetsOAuth2Api',
		data: {
			clientId: 'twin-client.apps.googleusercontent.com',
			clientSecret: 'twin-client-secret',
			oauthTokenData: {
				access_token: ACCESS_TOKEN,
				refresh_token: '1//twin-refresh',
				token_type: 'Bearer',
				expires_in: 3599,
				scope: 'https://www.googleapis.com/auth/spreadsheets',
			},
		},
	},
];
const HEADER = [
	'id',
	'name',
	'phone',
	'status',
	'task_id',
	'attempt',
	'next_call_at',
	'result',
	'summary',
	'outcome',
	'budget',
	'meeting_date',
	'decision_maker',
	'do_not_call',
	'consent_at',
	'consent_source',
	'consent_wording',
	'consent_revoked_at',
];
const ENDED_ROW = ['reached', 'gave up', 'do not call', 'not created'];

export function sheetsCampaign(suite: TwinSuite): void {
	suite.add(sheets, SHEETS_CREDENTIALS);
	let h: Harness<N8n>;
	let n8n: N8nServer;
	beforeAll(() => {
		h = suite.h;
		n8n = suite.n8n;
	});

	describe('Google Sheets', () => {
		test('a campaign in a Google Sheet runs to its end: each row reached or given up on, what the agent found out in its row, nobody called twice for one ending', async () => {
			const contacts = Array.from({ length: 8 }, (_, i) => ({
				id: i + 1,
				name: `Sheet Contact ${i + 1}`,
				phone: `+1212550${String(i + 1).padStart(4, '0')}`,
				status: 'new',
			}));
			contacts.splice(4, 0, { id: 99, name: 'No Number', phone: 'call me', status: 'new' });
			// Do-not-call: a row whose column says so, and one whose number said no in the HubSpot campaign
			// (on the shared list since its test); contact 3 says no on its own call.
			const flagged = { id: 97, name: 'Flagged Row', phone: '+12125500097', status: 'new', do_not_call: 'TRUE' };
			const fromHubSpot = { id: 98, name: 'Ola Optout', phone: HUBSPOT_OPT_OUT, status: 'new' };
			contacts.push(flagged, fromHubSpot);
			const saysNo = contacts[2];
			const spreadsheet = sheets.addSpreadsheet('Unpod campaign', 'Leads', HEADER, contacts);
			const rows = () => sheets.records(spreadsheet.id, 'Leads');
			// The claims table the CRM examples use too, as the note asks.
			const claims = suite.claims;
			const workflow = loadExample('google-sheets-campaign.json', {
				callingHours: false,
				consent: false,
				credential: CREDENTIAL.unpodApi,
				filesDir: '/nowhere',
				spreadsheet: spreadsheet.id,
				dataTable: claims,
				doNotCallTable: suite.doNotCall,
				credentials: credentialRefs(SHEETS_CREDENTIALS),
			});
			await h.n8n.importWorkflows([workflow]);
			const numbers = new Set(contacts.map((c) => c.phone));
			const campaignTasks = () => h.server.store.tasks.filter((task) => numbers.has(String(task.input.contact_number)));
			const creates = () => h.server.requestsTo('POST', `/spaces/${SEED.spaceToken}/tasks/`).length;

			// The agent extracts a budget, a meeting date and the decision maker; the package calls back (Unpod does not).
			const outcomes = await activateOutcomes(h, n8n, workflow);
			const polls = outcomes.polls;
			try {
				h.server.store.timeScale = 691_200;
				h.server.webhooks.faults = { dropRate: POLL_BY_REACTIVATION ? 0.1 : 0, repeatRate: 0.15 };
				// Google refuses the first write (a 429): Mark calling is retried, each row written once.
				sheets.rateLimit('POST', /values:batchUpdate$/);
				expect(await n8n.runManually(workflow.id, 'Start the campaign')).toEqual({ status: 'success' });
				// Mark calling's first write refused and retried; Mark not created writes the bad row and the
				// two on the do-not-call list at once.
				expect(sheets.sent('POST', /values:batchUpdate$/).map((r) => r.status)).toEqual([429, 200, 200]);
				expect(rows().filter((r) => r.status === 'calling')).toHaveLength(8);
				expect(rows().find((r) => r.id === 99)).toMatchObject({
					status: 'not created',
					result: expect.stringMatching(/^Row 6: contact_number "call me" is not a phone number/),
				});
				// The workflow writes TRUE, which Sheets (USER_ENTERED) keeps as the boolean it reads as.
				expect(rows().find((r) => r.id === 97)).toMatchObject({
					status: 'do not call',
					do_not_call: true,
					result: 'Row 11: +12125500097 is on the do-not-call list (its Do Not Call says yes); not called',
				});
				expect(rows().find((r) => r.id === 98)).toMatchObject({
					status: 'do not call',
					do_not_call: true,
					result: `Row 12: ${HUBSPOT_OPT_OUT} is on the do-not-call list (Do-Not-Call Numbers); not called`,
				});
				const [first] = h.server.requestsTo('POST', `/spaces/${SEED.spaceToken}/tasks/`);
				expect(
					(first.body as { documents: Array<{ document_id: string }> }).documents.map((d) => d.document_id),
				).toEqual(contacts.filter((c) => ![97, 98, 99].includes(c.id)).map((c) => String(c.id)));

				h.server.calls.autoFinish = { minMs: 1500, maxMs: 3000, failRate: 0.4, retryRate: 0 };
				h.server.calls.callScripts = [
					{ number: saysNo.phone, end: 'completed', afterMs: 2000, outcome: 'do_not_call' },
				];
				h.server.calls.planCalls(campaignTasks());
				let quietChecks = 0;
				let forcedPolls = 0;
				await waitFor(
					'every row of the sheet in a final state',
					async () => {
						if (rows().every((r) => ENDED_ROW.includes(String(r.status)))) return true;
						// Every call ended and every push handled, rows still open: endings whose push was lost, which the safety net's poll brings (2.x).
						const quiet =
							!campaignTasks().some(isOpen) &&
							!h.server.webhooks.deliveries.some((d) => d.state === 'sending') &&
							(await n8n.executionCount(workflow.id, ['new', 'running'])) === 0;
						quietChecks = quiet ? quietChecks + 1 : 0;
						if (quietChecks >= 2 && POLL_BY_REACTIVATION) {
							await n8n.pollNow(workflow.id, polls);
							forcedPolls++;
							quietChecks = 0;
						}
						return false;
					},
					180_000,
					500,
				).catch((error: Error) => {
					throw new Error(
						`${error.message}: ${JSON.stringify(rows().filter((r) => !ENDED_ROW.includes(String(r.status))))}\n${n8n.logTail()}`,
					);
				});
				await h.server.webhooks.settled();
				await n8n.executionsFinished(workflow.id);

				// Every ending once more, pushed and (2.x) polled: nothing scheduled, no row changed.
				const settledRows = rows();
				const createsBefore = creates();
				const writes = () => sheets.sent('POST', /values:batchUpdate$/).length;
				const writesBefore = writes();
				for (const task of campaignTasks()) h.server.webhooks.redeliver(task.task_id);
				await h.server.webhooks.settled();
				// The campaign's last poll may have brought every ending already: then this one starts nothing.
				if (POLL_BY_REACTIVATION) await pollCopies(n8n, workflow, polls);
				await n8n.executionsFinished(workflow.id);
				expect(creates()).toBe(createsBefore);
				expect(writes()).toBe(writesBefore);
				expect(rows()).toEqual(settledRows);

				const tasks = campaignTasks();
				const chain = (task: (typeof tasks)[number]) => callChain(h.server.webhooks.taskDocument(task) as IDataObject);
				const followUps = tasks.filter((task) => chain(task).previous_task_id);
				// Each ended call has at most one next call.
				expect(new Set(followUps.map((task) => chain(task).previous_task_id)).size).toBe(followUps.length);
				expect(followUps.length).toBeGreaterThan(0);
				// Contact 3 said no: one call, no follow-up, the row and the shared list say so.
				const optedOut = rows().find((r) => r.id === saysNo.id)!;
				expect(optedOut).toMatchObject({
					status: 'do not call',
					do_not_call: true,
					result: 'Asked to be taken off the list',
				});
				expect(tasks.filter((task) => task.input.contact_number === saysNo.phone)).toHaveLength(1);
				// Neither refused row was sent (the HubSpot test's own call of that number aside).
				expect(tasks.filter((task) => ['97', '98'].includes(String(task.input.document_id)))).toEqual([]);
				expect((await n8n.dataTables.rows(suite.doNotCall)).filter((r) => r.phone === saysNo.phone)).toEqual([
					expect.objectContaining({
						reason: 'Asked to be taken off the list',
						source: expect.stringMatching(/^call T/),
					}),
				]);
				let rowsWithFindings = 0;
				for (const row of rows().filter((r) => ![97, 98, 99, saysNo.id].includes(Number(r.id)))) {
					const calls = tasks.filter((task) => task.input.contact_number === row.phone);
					const last = calls[calls.length - 1];
					const flat = outcomeOf(h, last);
					expect({ id: row.id, task_id: row.task_id, attempt: row.attempt }).toEqual({
						id: row.id,
						task_id: last.task_id,
						attempt: chain(last).attempt,
					});
					expect(last.input.document_id).toBe(String(row.id));
					if (row.status === 'gave up') expect(row.result).toBe('max_calls');
					else expect([row.status, row.result, row.summary]).toEqual(['reached', 'reached', flat.call_summary]);
					// What the agent found out on the contact's latest call that found anything, kept in the row.
					const extracted = [...calls]
						.reverse()
						.map((task) => outcomeOf(h, task).structured_data as IDataObject | null)
						.find((found) => found?.budget !== undefined);
					if (extracted) {
						expect(row).toMatchObject({
							budget: extracted.budget,
							meeting_date: extracted.meeting_date,
							decision_maker: extracted.decision_maker,
						});
						rowsWithFindings++;
					}
				}
				expect(rowsWithFindings).toBeGreaterThan(0);
				const reads = sheets.sent('GET').length;
				testNote(
					`Sheet campaign of ${rows().length} rows: ${rows().filter((r) => r.status === 'reached').length} reached, ${rows().filter((r) => r.status === 'gave up').length} gave up, 3 do not call, 1 not created; ` +
						`${tasks.length} calls (${followUps.length} follow-ups) in ${creates()} create requests; Sheets: ${reads} reads, ${writesBefore} writes; ${forcedPolls} polls asked for; every ending again: 0 writes, 0 creates`,
				);
			} finally {
				h.server.calls.autoFinish = undefined;
				h.server.calls.callScripts = [];
				h.server.store.timeScale = 1;
				h.server.webhooks.faults = { dropRate: 0, repeatRate: 0 };
				await outcomes.deactivate();
			}
		}, 300_000);
	});
}
