/** Where the bench writes its figures: a section's block is replaced in place, or added. */
import { sectionBlock, withSection } from '../../bench/figures';

const doc = '# Figures\n\nIntro.\n\n<!-- bench:mcp -->\nold mcp\n<!-- /bench:mcp -->\n\nAfter.\n';

test('a section written again replaces its own block and nothing else', () => {
	const next = withSection(doc, 'mcp', 'new mcp\n| a | b |');
	expect(next).toBe('# Figures\n\nIntro.\n\n<!-- bench:mcp -->\nnew mcp\n| a | b |\n<!-- /bench:mcp -->\n\nAfter.\n');
	expect(withSection(next, 'mcp', 'new mcp\n| a | b |')).toBe(next);
});

test('a section not there yet is added at the end', () => {
	expect(withSection(doc, 'import', 'imported')).toBe(
		`${doc}\n<!-- bench:import -->\nimported\n<!-- /bench:import -->\n`,
	);
});

test("a section's block says the day and the machine, and its printed heading does not outrank the block's", () => {
	const printed = ['', '## Bulk import: 10 contacts\n', '| mode | requests |', '| --- | --- |', '| node | 1 |', ''];
	expect(sectionBlock('import', 'Bulk import', printed, '2 cores', new Date('2026-11-27T16:00:00Z'))).toBe(
		[
			'### import',
			'',
			'Bulk import. Measured 2026-11-27 (2 cores), `npm run bench -- import`:',
			'',
			'**Bulk import: 10 contacts**',
			'',
			'| mode | requests |',
			'| --- | --- |',
			'| node | 1 |',
		].join('\n'),
	);
});
