/** What a workflow run gave, read from n8n's output (1.x prints it, 2.x logs it), and the checks on it. */

export interface RunResult {
	exitCode: number;
	/** `data.resultData` of the execution, when n8n printed it. */
	resultData?: {
		runData: Record<
			string,
			Array<{ data?: { main: Array<Array<{ json: any; error?: any; pairedItem?: any }> | null> }; error?: any }>
		>;
		error?: any;
		lastNodeExecuted?: string;
	};
	stdout: string;
	stderr: string;
}

/** The run n8n put out, as 2.x logs it or 1.x prints it. */
export function findResultData(text: string): RunResult['resultData'] {
	return findLoggedRun(text) ?? findPrintedRun(text);
}

/** n8n 1.x prints the run as indented JSON, a line holding `{` to a line holding `}`. */
function findPrintedRun(text: string): RunResult['resultData'] {
	const lines = text.split('\n');
	for (let end = lines.length - 1; end >= 0; end--) {
		if (lines[end] !== '}') continue;
		for (let start = end - 1; start >= 0; start--) {
			if (lines[start] !== '{') continue;
			const found = resultDataOf(safeParse(lines.slice(start, end + 1).join('\n')));
			if (found) return found;
		}
	}
	return undefined;
}

/** n8n 2.x logs the run as one JSON log line. */
function findLoggedRun(text: string): RunResult['resultData'] {
	for (const line of text.split('\n').reverse()) {
		const trimmed = line.trim();
		if (!trimmed.startsWith('{')) continue;
		try {
			const parsed = JSON.parse(trimmed);
			const found = resultDataOf(parsed) ?? resultDataOf(safeParse(parsed.message));
			if (found) return found;
		} catch {
			// not a JSON line
		}
	}
	return undefined;
}

/** A run (`{data: {resultData}}`) or its data (`{resultData}`), as n8n prints one or the other. */
function resultDataOf(value: any): RunResult['resultData'] {
	return value?.data?.resultData ?? value?.resultData;
}

function safeParse(text: unknown): any {
	if (typeof text !== 'string') return undefined;
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}

/** Why a node has no run data: n8n's own error when it gave one, else the end of its log. */
function didNotRun(run: RunResult, node: string): Error {
	const error = run.resultData?.error;
	const reason = error
		? `n8n's error: ${error.name ?? ''} ${error.message ?? ''} ${error.description ?? ''}`.trim()
		: `n8n exited with ${run.exitCode}; its output ends:\n${(run.stdout + run.stderr).slice(-3000)}`;
	return new Error(`Node "${node}" did not run. ${reason}`);
}

/** Fails with n8n's own error, or the end of its log, unless the run succeeded. */
export function expectSucceeded(run: RunResult): void {
	if (run.exitCode === 0) return;
	const error = run.resultData?.error;
	// Beside a busy n8n start, 2.41.1's `execute` was seen to exit 1 after printing a run with
	// status "success": the run is what the tests check; what n8n said is shown.
	if (
		run.resultData &&
		!error &&
		/\\?"status\\?":\s*\\?"success\\?",\s*(\\n)?\s*\\?"finished\\?":\s*true/.test(run.stdout)
	) {
		console.warn(
			`n8n execute exited ${run.exitCode} after a successful run; its stderr ends:\n${run.stderr.slice(-2000)}`,
		);
		return;
	}
	throw new Error(
		`n8n execute exited ${run.exitCode}. ` +
			(error
				? `n8n's error: ${error.name ?? ''} ${error.message ?? ''} ${error.description ?? ''}`.trim()
				: `Its output ends:\n${(run.stdout + run.stderr).slice(-3000)}`),
	);
}

/** The JSON of every item a node put out (first run, first output). */
export function outputOf(run: RunResult, node: string): any[] {
	return itemsOf(run, node).map((item) => item.json);
}

/** The items a node put out, with their error and pairing. */
export function itemsOf(
	run: RunResult,
	node: string,
): Array<{ json: any; binary?: any; error?: any; pairedItem?: any }> {
	const runs = run.resultData?.runData?.[node];
	if (!runs?.length) throw didNotRun(run, node);
	return runs[0].data?.main?.[0] ?? [];
}
