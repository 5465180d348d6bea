/**
 * Keep to Calling Hours in real n8n, at whatever hour the suite runs: each contact (a London
 * number: Unpod's engine adds a window of its own to +1 numbers) carries its own time zone,
 * picked when the suite starts so that it is about noon there (open) or about 03:00 (closed);
 * what each operation must do is worked out here from those zones' offsets, without the
 * package's code. Tests of the package's own logic: npm test's pinned n8n runs them
 * (the matrix checks Data Tables, waits and the rest on every version).
 */
import type { N8n } from '../../../dev/harness/n8n';
import { expectSucceeded, outputOf } from '../../../dev/harness/run-results';
import { rowsNode } from '../../../dev/harness/workflow-builders';
import { SEED } from '../../../dev/server/seed';
import { agentRef, spaceRef, taskInSecondSpace, unpodNode } from '../../helpers/nodes';
import type { Harness } from '../../helpers/setup';
import { onPinnedN8n } from '../../helpers/versions';
import { SERVICES } from './suite';
import type { ExamplesSuite } from './suite';
import { CAMPAIGN_COLUMNS, FIGURES_COLUMNS, keptFigures } from '../../../dev/harness/campaign';
import { loadExample } from '../../../dev/harness/examples';
import { CREDENTIAL } from '../../helpers/setup';

const HOUR = 3_600_000;

/** A fixed-offset zone where the wall clock reads `hour` o'clock (and some minutes) now: `Etc/GMT-9` is UTC+9. */
function zoneAt(hour: number, now: number): { zone: string; offset: number } {
	let offset = hour - new Date(now).getUTCHours();
	if (offset > 14) offset -= 24;
	if (offset < -12) offset += 24;
	return { zone: offset === 0 ? 'Etc/GMT' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`, offset };
}

/** The first instant after `now` at which the wall clock at `offset` reads `hour`:00. */
function nextLocal(hour: number, offset: number, now: number): number {
	const utcHour = (((hour - offset) % 24) + 24) % 24;
	const day = new Date(now);
	let at = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), utcHour);
	while (at <= now) at += 24 * HOUR;
	return at;
}

const START = Date.now();
const OPEN = zoneAt(12, START);
const CLOSED = zoneAt(3, START);
const OPEN_CONTACT = { name: 'Olive Open', phone: '+442070390141', tz: OPEN.zone };
const CLOSED_CONTACT = { name: 'Carl Closed', phone: '+442070390142', tz: CLOSED.zone };
const NO_ZONE = { name: 'Nora Nozone', phone: '+800 1234 5678', tz: '' };

/** A Task node keeping to calling hours, each contact with its own zone. */
const inSecondSpace = (name: string, parameters: Record<string, unknown>) =>
	taskInSecondSpace(
		name,
		{ contactFields: { timezone: '={{ $json.tz }}' }, callContext: 'Calling hours', callingHours: true, ...parameters },
		{ onError: 'continueRegularOutput' },
	);

let h: Harness<N8n>;

/** This file's workflows, which are not examples. */
export const CALLING_HOURS_WORKFLOWS = [
	'hoursCreateN8n',
	'hoursCallAndWaitN8n',
	'hoursFollowUpN8n',
	'hoursCampaignN8n',
];

export function callingHoursInN8n(suite: ExamplesSuite): void {
	const create = suite.workflows.chain(CALLING_HOURS_WORKFLOWS[0], [
		rowsNode('Contacts', [OPEN_CONTACT, CLOSED_CONTACT, NO_ZONE]),
		inSecondSpace('Create', { operation: 'create', skipExisting: false }),
	]);
	const callAndWait = suite.workflows.chain(CALLING_HOURS_WORKFLOWS[1], [
		rowsNode('Contacts', [
			{ ...OPEN_CONTACT, phone: '+442070390151' },
			{ ...CLOSED_CONTACT, phone: '+442070390152' },
		]),
		inSecondSpace('Call', { operation: 'callAndWait', skipExisting: false, options: { checkSeconds: 5 } }),
	]);
	// A callback asked for 23:00 tomorrow where the phone rings: Follow Up moves it to 09:00 the day after.
	const asked = nextLocal(23, CLOSED.offset, START + 24 * HOUR);
	const followUp = suite.workflows.chain(CALLING_HOURS_WORKFLOWS[2], [
		rowsNode('Ended', [
			{
				task_id: 'Thours0000001',
				run_id: 'Rhours',
				status: 'completed',
				call_status: 'completed',
				contact_name: CLOSED_CONTACT.name,
				contact_number: '+442070390161',
				contact_fields: { name: CLOSED_CONTACT.name, contact_number: '+442070390161', timezone: CLOSED.zone },
				callback_requested: true,
				callback_time: new Date(asked).toISOString(),
				transcript: 'Assistant: Hello\nContact: Call me back late tomorrow',
			},
		]),
		unpodNode('task', 'Follow Up', {
			operation: 'followUp',
			space: spaceRef(SEED.secondSpaceToken),
			agent: agentRef(SEED.secondAgentHandle),
			callContext: 'The callback',
			callingHours: true,
			options: { callingDays: [0, 1, 2, 3, 4, 5, 6], callingFrom: '09:00', callingTo: '19:00' },
		}),
	]);

	beforeAll(() => {
		({ h } = suite);
	});

	onPinnedN8n(
		'the Data Table campaign as it ships: a slice calls the row at noon, and the one at 03:00 waits for its hours, counted apart',
		async () => {
			const n8n = await suite.startN8n();
			const rows = [
				{ name: 'Nadia Noon', phone: '+442070390171', status: 'new', next_call_at: '', timezone: OPEN.zone },
				{ name: 'Nigel Night', phone: '+442070390172', status: 'new', next_call_at: '', timezone: CLOSED.zone },
			];
			const table = await n8n.dataTables.create(
				'Unpod campaign, calling hours',
				[...CAMPAIGN_COLUMNS, { name: 'timezone', type: 'string' }],
				rows,
			);
			const figuresTable = await n8n.dataTables.create('Unpod campaign figures, calling hours', FIGURES_COLUMNS, []);
			const workflow = loadExample('data-table-campaign.json', {
				credential: CREDENTIAL.unpodApi,
				consent: false,
				filesDir: suite.filesDir,
				dataTable: table,
				figuresTable,
				doNotCallTable: await suite.doNotCallTable(),
				credentials: SERVICES,
			});
			workflow.id = CALLING_HOURS_WORKFLOWS[3];
			await h.n8n.importWorkflows([workflow]);
			expect(await n8n.runManually(workflow.id, 'Start the campaign')).toEqual({ status: 'success' });

			const eight = new Date(nextLocal(8, CLOSED.offset, START)).toISOString();
			const after = await n8n.dataTables.rows(table);
			expect(after.map((r) => [r.name, r.status, r.next_call_at || ''])).toEqual([
				['Nadia Noon', 'calling', ''],
				['Nigel Night', 'waiting for hours', eight],
			]);
			const night = h.server.store.tasksById.get(String(after[1].task_id))!;
			expect(night.status).toBe('scheduled');
			// The page's figures: one calling, one waiting for their hours.
			expect(keptFigures(await n8n.dataTables.rows(figuresTable)).stages).toMatchObject({
				calling: 1,
				waiting_hours: 1,
			});
		},
	);

	onPinnedN8n(
		`Create in real n8n: a contact at noon is called now, one at 03:00 (${CLOSED.zone}) at 08:00 there, one with no zone is held`,
		async () => {
			const n8n = await suite.startN8n();
			const run = await n8n.runAndRead(create, 'Start');
			expectSucceeded(run);
			const [open, closed, none] = outputOf(run, 'Create');
			const posts = h.server.requestsTo('POST', `/spaces/${SEED.secondSpaceToken}/tasks/`).map((r) => r.body as any);
			const eight = new Date(nextLocal(8, CLOSED.offset, START)).toISOString();
			expect(posts.map((p) => [p.schedule, p.documents.map((d: { name: string }) => d.name)])).toEqual([
				[{ type: 'now' }, [OPEN_CONTACT.name]],
				[
					{ type: 'custom', calling_date: eight.slice(0, 10), calling_time: eight.slice(11, 16) },
					[CLOSED_CONTACT.name],
				],
			]);
			expect(open).toMatchObject({ task_id: expect.stringMatching(/^T/) });
			expect(open.scheduled_at).toBeUndefined();
			expect(closed).toMatchObject({
				task_id: expect.stringMatching(/^T/),
				scheduled_at: eight,
				unpod_callee_time_zones: [CLOSED.zone],
			});
			expect(none).toMatchObject({ unpod_created: false, unpod_next_allowed_at: null });
			expect(String(none.unpod_held)).toMatch(/^Item 3: \+80012345678: the number's time zone is not known/);
			expect(h.server.store.tasksById.get(String(closed.task_id))!.status).toBe('scheduled');
		},
	);

	onPinnedN8n(
		'Call and Wait in real n8n: the contact at 03:00 is not called; the item says when it may be',
		async () => {
			h.server.calls.callScripts = [{ number: '+442070390151', end: 'completed', afterMs: 2000 }];
			const n8n = await suite.startN8n();
			const run = await n8n.runAndRead(callAndWait, 'Start');
			expectSucceeded(run);
			const [open, closed] = outputOf(run, 'Call');
			expect(open.status).toBe('completed');
			expect(closed).toMatchObject({
				unpod_created: false,
				unpod_next_allowed_at: new Date(nextLocal(8, CLOSED.offset, START)).toISOString(),
			});
			const posts = h.server.requestsTo('POST', `/spaces/${SEED.secondSpaceToken}/tasks/`);
			expect(
				posts.map((p) => (p.body as any).documents.map((d: { contact_number: string }) => d.contact_number)),
			).toEqual([['+442070390151']]);
		},
	);

	onPinnedN8n(
		'Follow Up in real n8n: a callback asked for 23:00 where the phone rings moves to 09:00 there, and says so',
		async () => {
			const n8n = await suite.startN8n();
			const run = await n8n.runAndRead(followUp, 'Start');
			expectSucceeded(run);
			const [decided] = outputOf(run, 'Follow Up');
			const nine = new Date(nextLocal(9, CLOSED.offset, asked)).toISOString();
			expect(decided).toMatchObject({
				follow_up: 'callback',
				follow_up_at: nine,
				unpod_rescheduled: `The callback asked for ${new Date(asked).toISOString()} falls outside the callee's calling hours: moved to the next legal time`,
			});
			const [post] = h.server.requestsTo('POST', `/spaces/${SEED.secondSpaceToken}/tasks/`).map((r) => r.body as any);
			expect(post.schedule).toEqual({
				type: 'custom',
				calling_date: nine.slice(0, 10),
				calling_time: nine.slice(11, 16),
			});
		},
	);
}
