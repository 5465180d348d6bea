/** The parts of placing calls that can be read alone: row names, the request, batches, the run journal, pairing. */
import { groupIntoBatches, rowList } from '../../../nodes/UnpodTask/placeCalls/batches';
import { ExistingTasks, skipReason } from '../../../nodes/UnpodTask/placeCalls/existingTasks';
import { RunJournal } from '../../../nodes/UnpodTask/placeCalls/journal';
import { callRequest, contactRow, rowLabel, sheetRow } from '../../../nodes/UnpodTask/mayCall/contactRow';
import { pairedAnswers, statusOf } from '../../../nodes/UnpodTask/placeCalls/createAnswers';

describe('row names', () => {
	test('the sheet row when the item carries row_number, else the item counted from 1', () => {
		expect(rowLabel({ row_number: 7 }, 5)).toBe('Row 7');
		expect(rowLabel({ row_number: '12' }, 0)).toBe('Row 12');
		expect(rowLabel({ name: 'x' }, 4)).toBe('Item 5');
		expect(rowLabel({ row_number: 'abc' }, 1)).toBe('Item 2');
		expect(sheetRow({ row_number: 0 })).toBeUndefined();
	});
	test('lists of rows are ranges, named as the sheet names them', () => {
		expect(rowList([{ itemIndex: 2 }, { itemIndex: 4 }, { itemIndex: 5 }, { itemIndex: 6 }])).toBe('items 3, 5-7');
		expect(
			rowList([
				{ itemIndex: 0, rowNumber: 2 },
				{ itemIndex: 1, rowNumber: 3 },
			]),
		).toBe('rows 2-3');
		expect(rowList([{ itemIndex: 0, rowNumber: 2 }])).toBe('row 2');
		// Mixed: some items without a sheet row are counted as items.
		expect(rowList([{ itemIndex: 0, rowNumber: 2 }, { itemIndex: 1 }])).toBe('items 1-2');
	});
});

describe('groupIntoBatches', () => {
	test('rows share a request only with rows of the same group, in input order, at most batchSize', () => {
		const rows = Array.from({ length: 250 }, (_, i) => ({ group: i % 5 === 0 ? 'b' : 'a', i }));
		const batches = groupIntoBatches(rows, 100);
		// Groups in the order they first appear (row 0 is in "b").
		expect(batches.map((b) => [b[0].group, b.length])).toEqual([
			['b', 50],
			['a', 100],
			['a', 100],
		]);
		for (const b of batches) expect(b.map((r) => r.i)).toEqual([...b.map((r) => r.i)].sort((x, y) => x - y));
		expect(batches.flat()).toHaveLength(250);
	});
	// How fast an import is: `npm run bench -- import` (wall-clock figures have no place in a test).
	test('10,000 rows in one group: 100 full batches', () => {
		const rows = Array.from({ length: 10_000 }, () => ({ group: 'g' }));
		const batches = groupIntoBatches(rows, 100);
		expect(batches).toHaveLength(100);
		expect(batches.every((b) => b.length === 100)).toBe(true);
	});
});

describe('RunJournal', () => {
	const row = (itemIndex: number, number = '+14155550100') => ({ itemIndex, document: { contact_number: number } });

	test('Retry On Fail (the same run index) sees what the earlier try created, or may have', () => {
		const context = {};
		const first = new RunJournal(context, 0);
		first.created(row(0), { task_id: 'T1', run_id: 'R1', task_status: 'pending' });
		first.unknown(row(1), 'connection cut');
		const retry = new RunJournal(context, 0);
		expect(retry.get(row(0))).toEqual({ created: { task_id: 'T1', run_id: 'R1', task_status: 'pending' } });
		expect(retry.get(row(1))).toEqual({ unknown: 'connection cut' });
		expect(retry.get(row(2))).toBeUndefined();
	});

	test('a new run of the node (a loop, another tool call) sends its rows again', () => {
		const context = {};
		new RunJournal(context, 0).created(row(0), { task_id: 'T1' });
		const loop = new RunJournal(context, 1);
		expect(loop.get(row(0))).toBeUndefined();
		// The previous run's journal is dropped: the context holds one run.
		expect(JSON.stringify(context)).not.toContain('T1');
	});

	test('the same item calling another number is another row', () => {
		const context = {};
		new RunJournal(context, 0).created(row(0, '+1'), { task_id: 'T1' });
		expect(new RunJournal(context, 0).get(row(0, '+2'))).toBeUndefined();
	});

	test('it stays small: 10,000 created rows in well under 1 MB of execution data', () => {
		const context = {};
		const journal = new RunJournal(context, 0);
		for (let i = 0; i < 10_000; i++)
			journal.created(row(i, `+1415${String(i).padStart(7, '0')}`), {
				task_id: `T${'a'.repeat(32)}`,
				run_id: `R${'b'.repeat(32)}`,
				task_status: 'pending',
			});
		expect(JSON.stringify(context).length).toBeLessThan(1_000_000);
	});
});

describe('ExistingTasks (the duplicate guard)', () => {
	const tasks = [
		{ task_id: 'T3', run_id: 'R2', status: 'pending', input: { name: 'Ann', contact_number: '(415) 555-0100' } },
		{
			task_id: 'T2',
			run_id: 'R1',
			status: 'completed',
			input: { name: 'Bob', contact_number: '+14155550101', document_id: 'crm-bob' },
		},
		{ task_id: 'T1', run_id: 'R1', status: 'failed', input: { name: 'Ann', contact_number: '+14155550100' } },
	];
	const existing = new ExistingTasks(tasks);
	const us = { countryCode: '+1', since: 0 };
	test('matches by Document ID when the row has one, else by the normalised number; the newest task wins', () => {
		expect(existing.match({ contact_number: '+14155550100' }, us)).toEqual({
			// The task as listed too: Call and Wait puts out an ended one as it is.
			task: { task_id: 'T3', run_id: 'R2', status: 'pending', created: undefined, listed: tasks[0] },
			by: 'phone',
			value: '+14155550100',
		});
		expect(existing.match({ contact_number: '+19999999999', document_id: 'crm-bob' }, us)?.task.task_id).toBe('T2');
		// A row with a Document ID is matched by it only: the same number under another ID is another contact.
		expect(existing.match({ contact_number: '+14155550101', document_id: 'crm-other' }, us)).toBeUndefined();
		expect(existing.match({ contact_number: '+14155550199' }, us)).toBeUndefined();
	});
	test("Unpod's stored numbers are read in each row's own country code, and older tasks than its lookback do not count", () => {
		const stored = new ExistingTasks([
			{
				task_id: 'T9',
				run_id: 'R9',
				status: 'completed',
				created: '2026-11-25T09:00:00Z',
				input: { contact_number: '07400123456' },
			},
		]);
		const at9 = Date.parse('2026-11-25T09:00:00Z');
		expect(stored.match({ contact_number: '+447400123456' }, { countryCode: '+49', since: 0 })).toBeUndefined();
		expect(stored.match({ contact_number: '+447400123456' }, { countryCode: '+44', since: 0 })?.task.task_id).toBe(
			'T9',
		);
		expect(stored.match({ contact_number: '+447400123456' }, { countryCode: '+44', since: at9 + 1 })).toBeUndefined();
		expect(stored.match({ contact_number: '+447400123456' }, { countryCode: '+44', since: at9 })?.task.created).toBe(
			at9,
		);
	});
	test('the skip reason names the task and what matched', () => {
		const match = existing.match({ contact_number: '+14155550100' }, us)!;
		expect(skipReason(match, 24)).toBe(
			'Not sent: task T3 for number +14155550100 was created in this space in the last 24 hours',
		);
	});
});

describe('statusOf (the real backend answers a map)', () => {
	test("a create's status: a string, or each task's own from a map", () => {
		expect(statusOf('pending', 'T1')).toBe('pending');
		expect(statusOf({ T1: 'pending', T2: 'scheduled' }, 'T2')).toBe('scheduled');
		expect(statusOf({ T1: 'scheduled', T2: 'scheduled' }, null)).toBe('scheduled');
		expect(statusOf({ T1: 'pending', T2: 'scheduled' }, null)).toBeNull();
		expect(statusOf(undefined, 'T1')).toBe('pending');
	});
});

describe('pairedAnswers', () => {
	test("each row gets its own task id, in the documents' order, and the run", () => {
		const response = { data: { run_id: 'R1', task_ids: ['T1', 'T2'], status: { T1: 'pending', T2: 'scheduled' } } };
		expect(pairedAnswers(2, response)).toEqual([
			{ task_id: 'T1', run_id: 'R1', task_status: 'pending' },
			{ task_id: 'T2', run_id: 'R1', task_status: 'scheduled' },
		]);
	});
	test('without one id per document no row is paired, and each says how to find its task', () => {
		const answers = pairedAnswers(3, { data: { run_id: 'R2', task_ids: ['T1', 'T2'], status: 'pending' } });
		expect(answers).toHaveLength(3);
		for (const answer of answers) {
			expect(answer).toMatchObject({ task_id: null, run_id: 'R2', task_status: 'pending' });
			expect(answer.unpod_warning).toMatch(/run R2\) but its answer listed 2 task IDs for 3 contacts/);
		}
		expect(pairedAnswers(1, {})[0]).toMatchObject({ task_id: null, run_id: null, task_status: 'pending' });
		expect(pairedAnswers(1, {})[0].unpod_warning).toMatch(/run unknown\) but its answer listed no task IDs/);
	});
});

describe('callRequest and contactRow', () => {
	test('one body for every operation; rows share a request only when space and body are equal', () => {
		const request = callRequest('S1', 'agent-a', { type: 'now' }, 'Book a visit');
		expect(request).toEqual({
			space: 'S1',
			body: { pilot: 'agent-a', schedule: { type: 'now' }, context: 'Book a visit' },
		});
		const row = (itemIndex: number, r = request) =>
			contactRow({
				itemIndex,
				where: `Item ${itemIndex + 1}`,
				inputJson: {},
				document: { contact_number: `+1415555000${itemIndex}` },
				request: r,
				countryCode: '',
			});
		expect(row(0).group).toBe(row(1).group);
		expect(row(2, callRequest('S1', 'agent-a', { type: 'auto' }, 'Book a visit')).group).not.toBe(row(0).group);
		expect(row(3, callRequest('S2', 'agent-a', { type: 'now' }, 'Book a visit')).group).not.toBe(row(0).group);
	});
});
