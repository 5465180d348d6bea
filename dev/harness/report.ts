/** Prints rows as a Markdown table. */
export function table(rows: Array<Record<string, string | number>>): void {
	if (!rows.length) return;
	const columns = Object.keys(rows[0]);
	const cells = rows.map((r) => columns.map((c) => String(r[c])));
	const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((row) => row[i].length)));
	const line = (values: string[]) => `| ${values.map((v, i) => v.padEnd(widths[i])).join(' | ')} |`;
	console.log(line(columns));
	console.log(`| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`);
	for (const row of cells) console.log(line(row));
}

/** The nearest-rank percentile `p` (0 to 100) of some values. */
export function percentile(values: number[], p: number): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
