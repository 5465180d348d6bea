/** Task > Create's duplicate guard, in n8n's engine (this process) against the local server: re-imports call nobody twice. */
import { outputOf } from '../../../dev/harness/run-results';
import { N8nNode, rowsNode } from '../../../dev/harness/workflow-builders';
import { createInSecondSpace } from '../../helpers/nodes';
import { Harness, startHarness, Workflows } from '../../helpers/setup';
import { SEED } from '../../../dev/server/seed';

const create = (parameters: Record<string, unknown>): N8nNode =>
	createInSecondSpace({ callContext: 'Renewal reminder', skipExisting: true, ...parameters });
const crm = Array.from({ length: 40 }, (_, i) => ({
	crm_id: `crm-${i + 1}`,
	name: `Customer ${i + 1}`,
	phone: `+4420700${String(i).padStart(5, '0')}`,
}));
const POSTS = `/spaces/${SEED.secondSpaceToken}/tasks/`;

const workflows = new Workflows();
const withIds = workflows.chain('guardCrm', [
	rowsNode('CRM', crm),
	create({ contactFields: { document_id: '={{ $json.crm_id }}' } }),
]);
const withoutGuard = workflows.chain('guardOff', [
	rowsNode('CRM', crm),
	create({ skipExisting: false, contactFields: { document_id: '={{ $json.crm_id }}' } }),
]);
const byPhone = (id: string, phones: string[]) =>
	workflows.chain(id, [
		rowsNode(
			'Sheet',
			phones.map((phone, i) => ({ name: `Phone ${i}`, phone })),
		),
		create({ options: { defaultCountryCode: '+1' } }),
	]);
const phonesFirst = byPhone('guardPhones1', ['(212) 555-0100', '212.555.0101']);
const phonesAgain = byPhone('guardPhones2', ['+1 212 555 0100', '2125550102']);
// Each row's own Default Country Code and Lookback (expressions), as a sheet of several countries maps them.
const perRow = workflows.chain('guardPerRow', [
	rowsNode('Sheet', [
		{ name: 'Berlin Office', phone: '030 1234567', country: '+49', hours: 24 },
		{ name: 'London Lead', phone: '07400 123456', country: '+44', hours: 24 },
		{ name: 'Paris Lead', phone: '06 12 34 56 78', country: '+33', hours: 1 },
	]),
	create({ options: { defaultCountryCode: '={{ $json.country }}', lookbackHours: '={{ $json.hours }}' } }),
]);

let h: Harness;
beforeAll(async () => {
	h = await startHarness({}, workflows);
});
afterAll(async () => {
	await h?.close();
});
afterEach(() => h.server.resetTraffic());

test('the same 40 CRM contacts sent again: no new task, each row its existing task id', async () => {
	const first = await h.run(withIds);
	expect(first.exitCode).toBe(0);
	const created = outputOf(first, 'Create');
	expect(created.every((r) => /^T/.test(r.task_id) && r.unpod_skipped === undefined)).toBe(true);
	expect(h.server.requestsTo('POST', POSTS)).toHaveLength(1);
	// The lookup: the space's tasks of the last 24 hours, newest first.
	const [lookup] = h.server.requestsTo('GET', POSTS);
	expect(Number(lookup.query.from_ts)).toBeGreaterThan(Date.now() / 1000 - 24 * 3600 - 60);
	const tasksBefore = h.server.store.tasks.length;

	h.server.resetTraffic();
	const again = await h.run(withIds);
	expect(again.exitCode).toBe(0);
	expect(h.server.store.tasks.length).toBe(tasksBefore);
	expect(h.server.requestsTo('POST', POSTS)).toHaveLength(0);
	const skipped = outputOf(again, 'Create');
	expect(skipped).toHaveLength(40);
	skipped.forEach((row, i) => {
		expect(row.task_id).toBe(created[i].task_id);
		expect(row).toMatchObject({
			crm_id: `crm-${i + 1}`,
			run_id: created[i].run_id,
			task_status: 'pending',
			unpod_skipped: `Not sent: task ${created[i].task_id} for Document ID "crm-${i + 1}" was created in this space in the last 24 hours`,
		});
	});
	expect(h.server.requestsTo('GET', POSTS)).toHaveLength(1);
});

test('with the guard off, the workflow asks for new calls and gets them', async () => {
	const before = h.server.store.tasks.length;
	const result = await h.run(withoutGuard);
	expect(result.exitCode).toBe(0);
	expect(h.server.store.tasks.length).toBe(before + 40);
	expect(h.server.requestsTo('GET', POSTS)).toHaveLength(0);
});

test('without a Document ID, a contact is matched by its number, however the sheet wrote it', async () => {
	expect((await h.run(phonesFirst)).exitCode).toBe(0);
	h.server.resetTraffic();
	const again = await h.run(phonesAgain);
	const rows = outputOf(again, 'Create');
	expect(rows[0].unpod_skipped).toMatch(/^Not sent: task T[0-9a-f]{32} for number \+12125550100 was created/);
	expect(rows[1].unpod_skipped).toBeUndefined();
	const [post] = h.server.requestsTo('POST', POSTS);
	expect((post.body as any).documents).toEqual([{ name: 'Phone 1', contact_number: '+12125550102' }]);
});

test("each row is checked with its own country code and lookback, not the first row's", async () => {
	const earlier = h.server.calls.addTasks(
		[
			// Stored by Unpod in national form, as a London contact called an hour ago was.
			{ name: 'London Lead', contact_number: '07400123456' },
			{ name: 'Paris Lead', contact_number: '+33612345678' },
		],
		{ space: SEED.secondSpaceToken, pilot: SEED.secondAgentHandle, context: 'earlier' },
	);
	earlier[0].createdUs -= 3600e6;
	// Called two hours ago: outside the Paris row's one-hour lookback.
	earlier[1].createdUs -= 2 * 3600e6;
	const result = await h.run(perRow);
	expect(result.exitCode).toBe(0);
	const rows = outputOf(result, 'Create');
	expect(rows[0].unpod_skipped).toBeUndefined();
	expect(rows[1].unpod_skipped).toBe(
		`Not sent: task ${earlier[0].task_id} for number +447400123456 was created in this space in the last 24 hours`,
	);
	expect(rows[2].unpod_skipped).toBeUndefined();
	// One lookup reaches back to the longest lookback of the rows.
	const [lookup] = h.server.requestsTo('GET', POSTS);
	expect(Number(lookup.query.from_ts)).toBeLessThan(Date.now() / 1000 - 23 * 3600);
	// Berlin's and Paris's calls open in their own languages: a request each.
	const posts = h.server.requestsTo('POST', POSTS);
	expect(posts.map((post) => (post.body as any).documents)).toEqual([
		[{ name: 'Berlin Office', contact_number: '+49301234567' }],
		[{ name: 'Paris Lead', contact_number: '+33612345678' }],
	]);
});
