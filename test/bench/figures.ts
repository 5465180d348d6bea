/** The one dated place of the bench's figures: docs/figures.md, a block per section. */
import { readFileSync, writeFileSync } from 'fs';
import { join } from 'path';
import { ROOT } from '../../dev/harness/paths';

export const FIGURES = join(ROOT, 'docs', 'figures.md');

/** `text` with section `name`'s block (between its markers) replaced, or added at the end. */
export function withSection(text: string, name: string, block: string): string {
	const start = `<!-- bench:${name} -->`;
	const end = `<!-- /bench:${name} -->`;
	const whole = `${start}\n${block.trim()}\n${end}`;
	const from = text.indexOf(start);
	const to = text.indexOf(end);
	if (from >= 0 && to > from) return text.slice(0, from) + whole + text.slice(to + end.length);
	return `${text.trimEnd()}\n\n${whole}\n`;
}

/**
 * A section's block: its heading, what it measures, the day and the machine, then what it
 * printed. A printed heading becomes bold text, as the block's own heading is the section's.
 */
export function sectionBlock(name: string, about: string, printed: string[], machine: string, when: Date): string {
	const day = when.toISOString().slice(0, 10);
	// One call of console.log may print several lines: each is a line of the block.
	const body = printed
		.flatMap((entry) => entry.split('\n'))
		.map((line) => line.replace(/^#+\s+(.*)$/, '**$1**'))
		.join('\n')
		.trim();
	return [`### ${name}`, '', `${about}. Measured ${day} (${machine}), \`npm run bench -- ${name}\`:`, '', body].join(
		'\n',
	);
}

/** Writes what a section printed into docs/figures.md, with the day and the machine. */
export function writeFigures(name: string, about: string, printed: string[], machine: string, when: Date): void {
	const block = sectionBlock(name, about, printed, machine, when);
	writeFileSync(FIGURES, withSection(readFileSync(FIGURES, 'utf8'), name, block));
}
