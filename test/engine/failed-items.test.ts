/**
 * One shape of a failed item, whatever fails: under Continue On Fail every kind of operation
 * (Create's batches, a per-item read, a declarative request, a declarative list) puts out
 * the input row's fields with `error`, paired with the row; on the error output, the item n8n
 * makes of it.
 */
import { itemsOf } from '../../dev/harness/run-results';
import { graph, MANUAL_TRIGGER, N8nNode, rowsNode } from '../../dev/harness/workflow-builders';
import { bridgeRef, createNode, spaceRef, unpodNode } from '../helpers/nodes';
import { Harness, startHarness, Workflows } from '../helpers/setup';

const ROW = { name: 'Only', marker: 'keep-me' };

/** Each kind of operation, set up to fail on the row above. */
const failing: Array<{ kind: string; node: (name: string, extra: Partial<N8nNode>) => N8nNode; error: RegExp }> = [
	{
		kind: 'Task > Create (all items at once)',
		node: (name, extra) => createNode({}, extra, name),
		error: /^Item 1: contact_number is missing$/,
	},
	{
		kind: 'Task > Get Many (item by item)',
		node: (name, extra) =>
			unpodNode('task', name, { operation: 'getAll', callsOf: 'space', space: spaceRef('ghost-space') }, extra),
		error: /ghost-space/,
	},
	{
		kind: 'Bridge > Get (a declarative request)',
		node: (name, extra) => unpodNode('bridge', name, { operation: 'get', bridge: bridgeRef('ghost-bridge') }, extra),
		error: /ghost-bridge/,
	},
	{
		kind: 'Space > Get Tasks (a declarative list)',
		node: (name, extra) =>
			unpodNode('space', name, { operation: 'getTasks', space: spaceRef('ghost-space'), limit: 5 }, extra),
		error: /ghost-space/,
	},
];

const workflows = new Workflows();
const regular = failing.map((f, i) =>
	workflows.chain(`failedRegular${i}`, [rowsNode('Row', [ROW]), f.node('Fail', { onError: 'continueRegularOutput' })]),
);
const errorOutput = failing.map((f, i) =>
	workflows.add(
		graph(
			`failedErrorOutput${i}`,
			[
				MANUAL_TRIGGER,
				rowsNode('Row', [ROW]),
				f.node('Fail', { onError: 'continueErrorOutput' }),
				{ name: 'Succeeded', type: 'n8n-nodes-base.noOp' },
				{ name: 'Failed', type: 'n8n-nodes-base.noOp' },
			],
			[
				[MANUAL_TRIGGER.name, 'Row'],
				['Row', 'Fail'],
				['Fail', 'Succeeded', 0],
				['Fail', 'Failed', 1],
			],
		),
	),
);

let h: Harness;
beforeAll(async () => {
	h = await startHarness({}, workflows);
});
afterAll(async () => {
	await h?.close();
});

describe.each(failing.map((f, i) => ({ ...f, regular: regular[i], errorOutput: errorOutput[i] })))('$kind', (f) => {
	test('regular output: the row, its error, paired with it', async () => {
		const result = await h.run(f.regular);
		expect(result.exitCode).toBe(0);
		const items = itemsOf(result, 'Fail');
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({ ...ROW, error: expect.stringMatching(f.error) });
		expect(items[0].pairedItem).toMatchObject({ item: 0 });
		// Only Create knows whether Unpod made the task.
		expect('unpod_created' in items[0].json).toBe(f.kind.startsWith('Task > Create'));
	});

	test('error output: the item goes there alone, with its error', async () => {
		const result = await h.run(f.errorOutput);
		expect(result.exitCode).toBe(0);
		expect(result.resultData?.runData.Succeeded).toBeUndefined();
		const items = itemsOf(result, 'Failed');
		expect(items).toHaveLength(1);
		expect(items[0].json.error).toMatch(f.error);
	});
});
