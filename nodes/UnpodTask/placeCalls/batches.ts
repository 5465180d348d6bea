/** Grouping contact rows into create requests: pure, no n8n context. */

/**
 * Rows in batches of at most `batchSize`, in input order within each group: rows share a
 * request only when space, agent, context and schedule are all equal.
 */
export function groupIntoBatches<T extends { group: string }>(rows: T[], batchSize: number): T[][] {
	const groups = new Map<string, T[]>();
	for (const row of rows) {
		const group = groups.get(row.group);
		if (group) group.push(row);
		else groups.set(row.group, [row]);
	}
	return [...groups.values()].flatMap((groupRows) =>
		Array.from({ length: Math.ceil(groupRows.length / batchSize) }, (_, i) =>
			groupRows.slice(i * batchSize, (i + 1) * batchSize),
		),
	);
}

/**
 * "rows 3, 5-9" by the sheet's row numbers when every row has one, else "items 3, 5-9"
 * counting input items from 1.
 */
export function rowList(rows: Array<{ itemIndex: number; rowNumber?: number }>): string {
	const bySheet = rows.length > 0 && rows.every((r) => r.rowNumber !== undefined);
	const numbers = [...new Set(rows.map((r) => (bySheet ? r.rowNumber! : r.itemIndex + 1)))].sort((a, b) => a - b);
	const ranges: string[] = [];
	for (let i = 0; i < numbers.length; i++) {
		let j = i;
		while (j + 1 < numbers.length && numbers[j + 1] === numbers[j] + 1) j++;
		ranges.push(j > i ? `${numbers[i]}-${numbers[j]}` : String(numbers[i]));
		i = j;
	}
	const noun = bySheet ? 'row' : 'item';
	return `${numbers.length === 1 ? noun : `${noun}s`} ${ranges.join(', ')}`;
}
