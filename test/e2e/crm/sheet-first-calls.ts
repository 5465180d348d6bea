/**
 * The two small sheet examples a user starts with, in a real n8n whose Google Sheets nodes reach
 * the Sheets twin through HTTPS_PROXY: *your first calls from a sheet* turns the rows not yet
 * called into calls and writes each row's task_id and status, or why it was not called; *call
 * outcomes back in the sheet*, published after the calls ended, writes each outcome into the row
 * of its task_id. Keep to Calling Hours stays as the example ships it (on): a row is `calling`
 * or `scheduled` by the hour where its phone rings, and the local server's fast clock lets a
 * scheduled call's wait pass, so the test passes at any hour.
 */
import { EXAMPLE_CONSENT, loadExample, SHEET_EXAMPLE_COLUMNS } from '../../../dev/harness/examples';
import { isOpen } from '../../../dev/server/callLifecycle';
import { ANALYSED_AGENT } from '../../../dev/server/postCall';
import { SEED } from '../../../dev/server/seed';
import { CREDENTIAL } from '../../helpers/setup';
import { credentialRefs, outcomeOf, type TwinSuite } from '../../helpers/twins';
import { waitFor } from '../../helpers/wait-for';
import { sheets, SHEETS_CREDENTIALS } from './sheets';

/** What a person agreed to, as the sheet's consent columns keep it (a US sales call needs the wording). */
const CONSENT = EXAMPLE_CONSENT;
const ROWS: Array<Record<string, string>> = [
	{ name: 'Ava Stone', phone: '+14155550141', ...CONSENT },
	{ name: 'Ben Ortiz', phone: '+44 20 7946 0142', ...CONSENT },
	{ name: 'Cy Lee', phone: 'call me' },
	{ name: 'Dee Park', phone: '+14155550144', do_not_call: 'TRUE', ...CONSENT },
	{ name: 'Eve Moss', phone: '+14155550145', ...CONSENT },
	{ name: 'Fay Old', phone: '+14155550146', task_id: 'T-from-last-week', status: 'completed' },
	// No consent on the row: the law of the US asks it of every AI call.
	{ name: 'Gus Ray', phone: '+14155550147' },
	// A premium-rate number: refused by the number check, not by the do-not-call list.
	{ name: 'Hal Vance', phone: '+1 900 555 0148', ...CONSENT },
];
// Ten hours of a scheduled call's wait pass in a second: a row outside its hours is called soon.
const TIME_SCALE = 36_000;

export function sheetFirstCalls(suite: TwinSuite): void {
	describe('Google Sheets: the first calls', () => {
		test('rows not yet called become calls, each row says what became of it; published afterwards, the outcomes land in their rows', async () => {
			const { h, n8n } = suite;
			const spreadsheet = sheets.addSpreadsheet('My leads', 'Sheet1', SHEET_EXAMPLE_COLUMNS, ROWS);
			const rows = () => sheets.records(spreadsheet.id, 'Sheet1');
			const local = {
				credential: CREDENTIAL.unpodApi,
				filesDir: '/nowhere',
				spreadsheet: spreadsheet.id,
				credentials: credentialRefs(SHEETS_CREDENTIALS),
			};
			const calls = loadExample('sheet-calls.json', local);
			const outcomes = loadExample('sheet-outcomes.json', local);
			await h.n8n.importWorkflows([calls, outcomes]);
			const numbers = ['+14155550141', '+442079460142', '+14155550144', '+14155550145', '+14155550146'];
			const tasks = () => h.server.store.tasks.filter((task) => numbers.includes(String(task.input.contact_number)));
			// Eve was called from this space just now, by another workflow.
			const [earlier] = h.server.calls.addTasks([{ name: 'Eve Moss', contact_number: '+14155550145' }]);
			try {
				h.server.store.timeScale = TIME_SCALE;
				h.server.calls.autoFinish = { minMs: 1000, maxMs: 2000, failRate: 0, retryRate: 0 };
				h.server.calls.callScripts = [
					{ number: '+442079460142', end: 'completed', afterMs: 1500, outcome: 'do_not_call' },
				];
				h.server.store.agentSettings.set(SEED.agentHandle, {
					...ANALYSED_AGENT,
					follow_up_enabled: false,
					callback_enabled: false,
				});

				expect(await n8n.runManually(calls.id, 'Start the calls')).toEqual({ status: 'success' });
				// Ava and Ben (in one request: both open in English; or two when one of them is outside their hours now), and Eve's earlier call.
				expect(tasks()).toHaveLength(3);
				const [ava, ben, cy, dee, eve, fay, gus, hal] = rows();
				for (const row of [ava, ben]) {
					const task = h.server.store.tasksById.get(String(row.task_id));
					expect(task?.input.name).toBe(row.name);
					// Called now, or (outside the hours where the phone rings) created for the next legal time.
					if (row.status === 'scheduled')
						// Why, in words, and when, on the callee's clock: not a UTC instant.
						expect(row.note).toMatch(
							/^(Outside its calling hours at|Its calling hours end within 15 minutes of) .+ \(.+: .+\); scheduled for \w{3} \d{4}-\d\d-\d\d \d\d:\d\d \(/,
						);
					else expect([row.status, row.note]).toEqual(['calling', '']);
				}
				expect(cy).toMatchObject({
					task_id: '',
					status: 'not called',
					note: expect.stringMatching(/^Row 4: contact_number "call me" is not a phone number/),
				});
				expect(dee).toMatchObject({
					task_id: '',
					status: 'do not call',
					note: 'Row 5: +14155550144 is on the do-not-call list (its Do Not Call says yes); not called',
				});
				expect(eve).toMatchObject({
					task_id: earlier.task_id,
					status: 'already called',
					note: expect.stringContaining(`task ${earlier.task_id}`),
				});
				expect(fay).toMatchObject({ task_id: 'T-from-last-week', status: 'completed', note: '' });
				expect(gus).toMatchObject({
					task_id: '',
					status: 'no consent',
					note: 'Row 8: +14155550147: no consent on record (consent_at is empty); the law of the United States asks written consent for sales or marketing calls (47 CFR 64.1200(a)(2)-(3), (f)(9)); not called',
				});
				// A refusal by another check than the do-not-call list never reads as an opt-out: the row
				// says what stopped it.
				expect(hal).toMatchObject({
					task_id: '',
					status: 'not allowed',
					note: expect.stringMatching(
						/^Row 9: \+19005550148 is a premium-rate number \(\+1\), which costs far more than a call; not called/,
					),
				});
				expect(hal.status).not.toBe('do not call');
				// The consent travels with each call; its context opens with the opening, in each callee's language.
				for (const row of [ava, ben]) {
					const task = h.server.store.tasksById.get(String(row.task_id))!;
					expect(task.input).toMatchObject({ consent_at: '2026-03-02T10:15:00.000Z', consent_source: 'web form' });
					expect(task.task.objective).toMatch(/^Opening, required by law: .*calling on behalf of Acme Demo Co/);
				}

				// Run again: the rows with a task_id are not read into calls; nobody is called anew.
				const before = rows();
				expect(await n8n.runManually(calls.id, 'Start the calls')).toEqual({ status: 'success' });
				expect(tasks()).toHaveLength(3);
				expect(rows()).toEqual(before);

				const placed = [ava, ben].map((row) => h.server.store.tasksById.get(String(row.task_id))!);
				// As a run at night leaves them, whatever the hour now: a note saying when the call was to ring.
				const [header, ...cells] = spreadsheet.sheets[0].rows;
				for (const row of cells.slice(0, 2))
					row[header.indexOf('note')] =
						"Outside its calling hours at Mon 2026-11-30 23:10 (America/Los_Angeles) (the package's floor, kept everywhere: calls 08:00-21:00); scheduled for Tue 2026-12-01 08:00 (America/Los_Angeles)";
				await waitFor('both calls to end', () => !placed.some(isOpen), 60_000);
				// Published after the calls ended: the trigger's first poll brings the last 24 hours' endings.
				const polls = () => h.server.requestsTo('GET', `/spaces/${SEED.spaceToken}/tasks/`).length;
				await n8n.setActive(outcomes.id, true, polls);
				await waitFor(
					'both outcomes in their rows',
					() =>
						rows()
							.slice(0, 2)
							.every((row) => row.status === 'completed'),
					60_000,
				).catch((error: Error) => {
					throw new Error(`${error.message}: ${JSON.stringify(rows())}\n${n8n.logTail()}`);
				});
				await n8n.executionsFinished(outcomes.id);
				const [avaAfter, benAfter] = rows();
				for (const [row, task] of [
					[avaAfter, placed[0]],
					[benAfter, placed[1]],
				] as const) {
					const flat = outcomeOf(h, task);
					expect(row).toMatchObject({
						task_id: task.task_id,
						status: 'completed',
						outcome: flat.outcome,
						summary: flat.call_summary,
						// "Outside its calling hours ... scheduled for ..." no longer stands once the call has ended.
						note: '',
						// The agent's first words said it is an AI, as its opening told it to.
						ai_disclosed: true,
					});
					expect(flat.disclosure_line).toMatch(
						/^Hello, this is an AI assistant, an artificial intelligence, calling on behalf of Acme Demo Co/,
					);
				}
				// Ben asked not to be called again: his row says so, as the first workflow reads it.
				expect([avaAfter.do_not_call, benAfter.do_not_call]).toEqual(['', true]);
				// Every other row as the first workflow left it.
				expect(rows().slice(2)).toEqual(before.slice(2));
			} finally {
				h.server.calls.autoFinish = undefined;
				h.server.calls.callScripts = [];
				h.server.store.timeScale = 1;
				h.server.store.agentSettings.delete(SEED.agentHandle);
				await n8n.setActive(outcomes.id, false).catch(() => undefined);
			}
		}, 240_000);
	});
}
