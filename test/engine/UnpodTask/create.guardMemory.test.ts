/**
 * Skip Contacts Already Called between executions of one Create node, as a schedule runs it: the
 * guard remembers the space's tasks in the node's static data and reads only the new ones, so an
 * hourly slice costs the same requests on its first hour and after a day of tasks. n8n-core's
 * ExecuteContext in this process; the clock is the test's.
 */
import { TestClock } from '../../helpers/clock';
import { stopExecuteContextTimers } from '../../../dev/harness/engine';
import { createExecutor } from '../../helpers/execute';
import { startServer, UnpodServer } from '../../../dev/server/server';
import { SEED } from '../../../dev/server/seed';

const HOUR = 3_600_000;
const TASKS = `/spaces/${SEED.secondSpaceToken}/tasks/`;
let server: UnpodServer;
const clock = TestClock.install(Date.parse('2026-11-25T08:00:00Z'));

beforeAll(async () => {
	server = await startServer();
});
afterAll(async () => {
	stopExecuteContextTimers();
	await server?.stop();
	clock.uninstall();
});

let numbers = 0;
const slice = (n: number) =>
	Array.from({ length: n }, () => {
		const i = numbers++;
		return { id: `row-${i}`, name: `Contact ${i}`, phone: `+1718555${String(i).padStart(4, '0')}` };
	});

test('hourly slices of 200: the same requests on the first slice and after a day of tasks; a row sent again is still skipped', async () => {
	// The space already holds 1,000 tasks of today (another campaign's).
	server.calls.addTasks(
		slice(1000).map((r) => ({ name: r.name, contact_number: r.phone })),
		{ space: SEED.secondSpaceToken, pilot: SEED.secondAgentHandle },
	);
	const create = createExecutor(server, {
		space: { __rl: true, mode: 'token', value: SEED.secondSpaceToken },
		agent: { __rl: true, mode: 'handle', value: SEED.secondAgentHandle },
		callContext: 'Hourly slice',
		contactFields: { document_id: '={{ $json.id }}' },
		skipExisting: true,
	});
	const perSlice: Array<{ reads: number; creates: number }> = [];
	const sent: Array<Array<{ id: string; name: string; phone: string }>> = [];
	for (let hour = 1; hour <= 24; hour++) {
		jest.setSystemTime(Date.parse('2026-11-25T08:00:00Z') + hour * HOUR);
		server.resetTraffic();
		create.newExecution();
		const rows = slice(200);
		sent.push(rows);
		const output = await create.run(rows);
		expect(output.every((item) => typeof item.json.task_id === 'string' && !item.json.unpod_skipped)).toBe(true);
		perSlice.push({
			reads: server.requestsTo('GET', TASKS).length,
			creates: server.requestsTo('POST', TASKS).length,
		});
	}
	// The first slice reads the day so far (1,000 tasks); every later one the last hour's 200 and a margin.
	expect(perSlice[0]).toEqual({ reads: 10, creates: 2 });
	expect(new Set(perSlice.slice(1).map((s) => JSON.stringify(s)))).toEqual(
		new Set([JSON.stringify({ reads: 2, creates: 2 })]),
	);
	expect(server.store.tasks.filter((t) => t.space === SEED.secondSpaceToken).length).toBeGreaterThanOrEqual(5_800);

	// A slice of 23 hours ago set back to new by hand: every row is found in the memory, none sent.
	server.resetTraffic();
	create.newExecution();
	const again = await create.run(sent[1]);
	expect(server.requestsTo('POST', TASKS)).toHaveLength(0);
	expect(again.every((item) => String(item.json.unpod_skipped).startsWith('Not sent: task '))).toBe(true);
	// The read of this run: the last slice's 200 again (the margin), not the day's 5,800.
	expect(server.requestsTo('GET', TASKS)).toHaveLength(2);
});
