/**
 * What one run of a node that places calls has sent, kept in n8n's execution-scoped node context
 * (`this.getContext('node')`), never in module memory: it lives with the execution, on
 * whichever worker runs it.
 *
 * n8n's Retry On Fail runs the node again with the same run index: rows the earlier try
 * created (or may have created) are not sent again. A new run of the node in the same
 * execution (Loop Over Items, another tool call of an AI agent) has a new run index and
 * sends its rows: the journal of the previous run is dropped then.
 */
import type { IContextObject, IDataObject } from 'n8n-workflow';
import type { Row } from '../mayCall/contactRow';

const KEY = 'unpodCreateJournal';

interface Stored {
	run: number;
	/** Unpod run ids, each once (a batch of up to 500 rows shares one). */
	runs: string[];
	/** Row key -> `[task_id, index in runs, status]` when created, `{ error }` when the answer was lost. */
	rows: Record<string, unknown>;
}

type RowRef = Pick<Row, 'itemIndex' | 'position' | 'document'>;

/** Which row of which input item (and contact of a JSON array), and whom it calls. */
export const journalKey = (row: RowRef) =>
	`${row.itemIndex}.${row.position ?? ''}.${String(row.document.contact_number ?? '')}`;

export type JournalEntry = { created: IDataObject } | { unknown: string };

export class RunJournal {
	private stored: Stored;

	constructor(context: IContextObject, runIndex: number) {
		const previous = context[KEY] as Stored | undefined;
		if (!previous || previous.run !== runIndex || typeof previous.rows !== 'object' || !Array.isArray(previous.runs)) {
			context[KEY] = { run: runIndex, runs: [], rows: {} } satisfies Stored;
		}
		this.stored = context[KEY] as Stored;
	}

	get(row: RowRef): JournalEntry | undefined {
		const entry = this.stored.rows[journalKey(row)];
		if (Array.isArray(entry)) {
			const runId = typeof entry[1] === 'number' ? (this.stored.runs[entry[1]] ?? null) : null;
			return { created: { task_id: entry[0], run_id: runId, task_status: entry[2] } };
		}
		if (entry && typeof entry === 'object') return { unknown: String((entry as IDataObject).error) };
		return undefined;
	}

	created(row: RowRef, created: IDataObject): void {
		let run: number | null = null;
		if (typeof created.run_id === 'string') {
			run = this.stored.runs.lastIndexOf(created.run_id);
			if (run < 0) run = this.stored.runs.push(created.run_id) - 1;
		}
		this.stored.rows[journalKey(row)] = [created.task_id ?? null, run, created.task_status ?? null];
	}

	unknown(row: RowRef, error: string): void {
		this.stored.rows[journalKey(row)] = { error };
	}
}
