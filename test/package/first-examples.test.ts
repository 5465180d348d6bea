/**
 * The two examples a user starts with stay small and quiet: few nodes, a short note, no Data
 * Table, no push to set up in Unpod, and nothing that calls on a schedule.
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import { SHEET_EXAMPLE_COLUMNS } from '../../dev/harness/examples';

const FIRST = ['sheet-calls.json', 'sheet-outcomes.json'];
const read = (file: string) =>
	JSON.parse(readFileSync(join(__dirname, '..', '..', 'examples', file), 'utf8')) as {
		nodes: Array<{ type: string; parameters: { content?: string; operation?: string } }>;
	};

describe.each(FIRST)('%s', (file) => {
	const { nodes } = read(file);
	const note = nodes.find((n) => n.type === 'n8n-nodes-base.stickyNote');

	test('at most 6 nodes besides its note, which has at most 250 words', () => {
		expect(nodes.filter((n) => n !== note).length).toBeLessThanOrEqual(6);
		expect(note?.parameters.content?.split(/\s+/).length).toBeLessThanOrEqual(250);
	});

	test('no Data Table, no push trigger, no schedule', () => {
		const types = nodes.map((n) => n.type);
		expect(types.filter((t) => /dataTable|unpodCallEventsTrigger|scheduleTrigger/.test(t))).toEqual([]);
	});
});

test('only the manual trigger starts the calls', () => {
	const { nodes } = read('sheet-calls.json');
	expect(nodes.filter((n) => /Trigger$/.test(n.type)).map((n) => n.type)).toEqual(['n8n-nodes-base.manualTrigger']);
});

test("the first example's note asks for the header row the demo's sheet and the tests use", () => {
	const note = read('sheet-calls.json').nodes.find((n) => n.type === 'n8n-nodes-base.stickyNote')!;
	expect(note.parameters.content).toContain(SHEET_EXAMPLE_COLUMNS.map((c) => `\`${c}\``).join(', '));
});
