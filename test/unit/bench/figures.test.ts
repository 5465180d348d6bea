/** Where the bench writes its figures: a section's block is replaced in place, or added. */
import { withSection } from '../../bench/figures';

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
