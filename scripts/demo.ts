/**
 * `npm run demo [-- --keep] [-- --rows N]`: the product's main job, end to end, offline.
 * A local Unpod server and a real n8n; a contacts CSV is imported in bulk with the Unpod
 * Task node, the server ends the calls over the next seconds, and the Unpod Trigger,
 * active in n8n, writes each outcome once to a CSV file with n8n's own file nodes.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'fs';
import { join, relative } from 'path';
import { OWNER } from '../dev/harness/n8n-process';
import { POLL_BY_REACTIVATION } from '../dev/harness/n8n-versions';
import { table } from '../dev/harness/report';
import { DEMO_CALLS, DEMO_CREDENTIAL, DEMO_WEBHOOK_SECRET, DemoEnvironment, startDemoEnvironment } from './demo-env';
import { SHEET_CREDENTIAL } from './demo-sheet';
import { SEED } from '../dev/server/seed';

// Where the outcomes CSV is kept; tests point it at a temp folder.
const OUTPUT_DIR = process.env.DEMO_OUTPUT_DIR || join(__dirname, '..', 'demo-output');
const args = process.argv.slice(2);
const keep = args.includes('--keep');
const rowsArg = args.includes('--rows') ? Number(args[args.indexOf('--rows') + 1]) : undefined;
// Counted from when n8n is ready: start-up on a busy machine can take a minute or more.
const TIMEOUT_MS = Number(process.env.DEMO_TIMEOUT_MS ?? 240_000);
// n8n polls once a minute at most (2.x refuses less); the demo asks for a poll this often.
const POLL_EVERY_MS = 5_000;
// On n8n 1.123.81 the trigger's state was not stored across re-activations (the workflow's
// static data stayed empty and re-activated polls emitted nothing): there the demo waits
// for n8n's own minute polls, which keep the state in memory as they do for users
// (POLL_BY_REACTIVATION).

const started = Date.now();
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(0).padStart(3)}s`;
const say = (text: string) => console.log(`[${elapsed()}] ${text}`);

let env: DemoEnvironment | undefined;

// n8n's folder (about 60 MB) goes with n8n, --keep or not: --keep keeps n8n running, not its files.
async function shutdown(code: number): Promise<never> {
	await env?.stop();
	process.exit(code);
}
process.on('SIGINT', () => {
	console.log("\nInterrupted: stopping n8n and the local Unpod server, and removing n8n's folder.");
	void shutdown(130);
});
process.on('SIGTERM', () => void shutdown(143));

/** The task ids in the output CSV (first column), one entry per line. */
function outcomeIds(file: string): string[] {
	if (!existsSync(file)) return [];
	return readFileSync(file, 'utf8')
		.split('\n')
		.slice(1)
		.filter((line) => line.trim())
		.map((line) => line.split(',')[0].replace(/"/g, ''));
}

/** Waits until the outcomes file has not changed for a few seconds (the last poll's writes are done). */
async function waitForQuiet(file: string): Promise<void> {
	let size = -1;
	let stableSince = Date.now();
	const limit = Date.now() + 30_000;
	while (Date.now() - stableSince < 3_000 && Date.now() < limit) {
		const now = existsSync(file) ? readFileSync(file).length : 0;
		if (now !== size) {
			size = now;
			stableSince = Date.now();
		}
		await new Promise((r) => setTimeout(r, 250));
	}
}

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

async function main() {
	env = await startDemoEnvironment({ rows: rowsArg, say });
	const { server, n8nServer, rows, outcomesFile, importId, outcomesId } = env;
	const deadline = Date.now() + TIMEOUT_MS;
	const polls = () => server.requestsTo('GET', `/spaces/${SEED.spaceToken}/tasks/`).length;
	say(
		POLL_BY_REACTIVATION
			? `The trigger polls once a minute; to keep the demo short it asks n8n for a poll every ${POLL_EVERY_MS / 1000} s (by re-activating the workflow)`
			: 'The trigger polls once a minute, on the minute: outcomes arrive at the next full minute',
	);

	const source = rowsArg ? `the first ${rows} rows of contacts.csv` : 'contacts.csv';
	if (rowsArg) {
		say(
			`--rows ${rowsArg} shortens the import, not the demo: n8n's start, the calls (${DEMO_CALLS.minMs / 1000} to ` +
				`${DEMO_CALLS.maxMs / 1000} s each, all at once) and a poll every ${POLL_EVERY_MS / 1000} s take as long for a few rows as for 50`,
		);
	}
	say(`Importing ${rows} contacts from ${source} with the Unpod Task node...`);
	// In the running n8n, as the editor's Execute does: `n8n execute` has no Data Tables.
	const run = await n8nServer.runAndRead(importId, 'Start import');
	const created = (run.resultData?.runData?.['Created']?.[0]?.data?.main?.[0] ?? []).map((i) => i.json);
	const notCreated = (run.resultData?.runData?.['Not created']?.[0]?.data?.main?.[0] ?? []).map((i) => i.json);
	if (run.exitCode !== 0 || created.length === 0) {
		console.error(run.error ?? n8nServer.logTail());
		throw new Error(`The import workflow failed (${run.status})`);
	}
	const createRequests = server.requestsTo('POST', `/spaces/${SEED.spaceToken}/tasks/`).length;
	say(
		`Imported ${created.length} of ${rows} rows in ${plural(createRequests, 'request')}; ` +
			(notCreated.length ? `${plural(notCreated.length, 'row')} not created:` : 'every row created'),
	);
	for (const row of notCreated) console.log(`        - ${row.error ?? row.unpod_refused ?? row.unpod_held}`);
	// Keep to Calling Hours: who rings at an hour their law forbids now is created for later, or held.
	const scheduled = created.filter((r) => r.scheduled_at);
	const held = notCreated.filter((r) => r.unpod_held);
	// Consent where the law of the place asks it: a row without it is not called.
	const noConsent = notCreated.filter((r) => r.unpod_refused_by === 'consent');
	if (scheduled.length) {
		say(`${plural(scheduled.length, 'contact')} outside their calling hours now, created for their next legal time:`);
		for (const row of scheduled)
			console.log(
				`        - ${row.name}, ${row.phone}: ${row.unpod_callee_local_time}; scheduled for ${row.scheduled_at}`,
			);
	}

	const ids = new Set(created.map((r) => String(r.task_id)));
	let last = '';
	let completed = 0;
	let failed = 0;
	let nextPoll = Date.now() + POLL_EVERY_MS;
	let timedOut = false;
	for (;;) {
		const tasks = [...ids].map((id) => server.store.tasksById.get(id)!);
		completed = tasks.filter((t) => t.status === 'completed').length;
		failed = tasks.filter((t) => t.status === 'failed').length;
		const received = outcomeIds(outcomesFile).length;
		const line = `Calls ended ${completed + failed}/${ids.size} (${completed} completed, ${failed} failed) | outcomes written to the CSV: ${received}`;
		if (line !== last) say(line);
		last = line;
		if (completed + failed === ids.size && received >= ids.size) break;
		if (Date.now() > deadline) {
			timedOut = true;
			break;
		}
		if (POLL_BY_REACTIVATION && Date.now() >= nextPoll) {
			await n8nServer.pollNow(outcomesId, polls);
			nextPoll = Date.now() + POLL_EVERY_MS;
		}
		await new Promise((r) => setTimeout(r, 1000));
	}
	if (timedOut) {
		console.error(
			`\nTime limit hit: ${TIMEOUT_MS / 1000} s after n8n was ready, not every outcome had arrived (set DEMO_TIMEOUT_MS to wait longer).`,
		);
		const errors = n8nServer.log
			.join('')
			.split('\n')
			.filter((line) => /"level":"(error|warn)"|ERROR|Error:/.test(line));
		if (errors.length) console.error(`n8n's last errors and warnings:\n${errors.slice(-10).join('\n')}`);
	} else {
		// One more poll: nothing may arrive twice.
		if (POLL_BY_REACTIVATION) await n8nServer.pollNow(outcomesId, polls);
		else {
			const seen = polls();
			while (polls() <= seen && Date.now() < deadline + 70_000) await new Promise((r) => setTimeout(r, 500));
		}
		await waitForQuiet(outcomesFile);
	}

	// The person who said no: on the shared list now, so importing the same contacts again calls
	// nobody new, and not them: the others are skipped as already called, they are refused.
	const optedOut = (await n8nServer.dataTables.rows(env.doNotCallTable)).map((row) => String(row.phone));
	let again: { created: number; skipped: number; refused: string[] } | undefined;
	if (optedOut.length && !timedOut) {
		say(`${plural(optedOut.length, 'contact')} asked not to be called again; importing the same contacts once more...`);
		const rerun = await n8nServer.runAndRead(importId, 'Start import');
		const out = (node: string) => (rerun.resultData?.runData?.[node]?.[0]?.data?.main?.[0] ?? []).map((i) => i.json);
		again = {
			created: out('Created').filter((r) => !r.unpod_skipped).length,
			skipped: out('Created').filter((r) => r.unpod_skipped).length,
			refused: out('Not created')
				.filter((r) => r.unpod_refused_by === 'doNotCall')
				.map((r) => String(r.name)),
		};
		for (const row of out('Not created').filter((r) => r.unpod_refused_by === 'doNotCall'))
			console.log(`        - ${row.unpod_refused}`);
	}

	const written = outcomeIds(outcomesFile);
	const counts = new Map<string, number>();
	for (const id of written) counts.set(id, (counts.get(id) ?? 0) + 1);
	const missing = [...ids].filter((id) => !counts.has(id));
	const twice = [...counts.entries()].filter(([, c]) => c > 1).map(([id]) => id);
	const strangers = [...counts.keys()].filter((id) => !ids.has(id));
	console.log('\nSummary');
	table([
		{ step: `contacts in ${source}`, count: rows },
		{ step: 'tasks created (one request per 100 rows and calling-hours slot)', count: created.length },
		{ step: "of them scheduled for the callee's hours", count: scheduled.length },
		{
			step: 'rows not created (bad name or number, do-not-call)',
			count: notCreated.length - held.length - noConsent.length,
		},
		{ step: 'rows not called: no consent where the law asks it', count: noConsent.length },
		{ step: 'rows held for their hours (no time zone known)', count: held.length },
		{ step: 'calls completed', count: completed },
		{ step: 'calls failed', count: failed },
		{ step: 'outcomes written to the CSV', count: written.length },
		{ step: 'outcomes missing', count: missing.length },
		{ step: 'outcomes written twice', count: twice.length },
		{ step: 'said do not call on the call (added to Unpod do-not-call)', count: optedOut.length },
		...(again
			? [
					{ step: 'imported again: called anew', count: again.created },
					{ step: 'imported again: skipped, already called', count: again.skipped },
					{
						step: `imported again: refused, on the do-not-call list (${again.refused.join(', ')})`,
						count: again.refused.length,
					},
				]
			: []),
		{ step: 'requests to Unpod (create + polls)', count: server.requests.length },
	]);
	// The n8n folder goes when the demo ends; the output stays in the repository (git ignores it).
	mkdirSync(OUTPUT_DIR, { recursive: true });
	const kept = join(OUTPUT_DIR, 'unpod-calls.csv');
	const replaced = existsSync(kept);
	copyFileSync(outcomesFile, kept);
	// A path inside the current folder is shown relative to it: what a reader can type.
	const relativePath = relative(process.cwd(), kept);
	console.log(
		`\nOutcomes CSV: ${relativePath.startsWith('..') ? kept : relativePath}` +
			(replaced ? " (it replaced the previous run's; DEMO_OUTPUT_DIR=<folder> keeps a run elsewhere)" : ''),
	);
	console.log(`Demo time: ${((Date.now() - started) / 1000).toFixed(0)} s (n8n's one-time install not counted)`);
	const ok =
		!timedOut &&
		missing.length === 0 &&
		twice.length === 0 &&
		strangers.length === 0 &&
		(!again || (again.created === 0 && again.refused.length === optedOut.length));
	if (!ok) {
		console.error(
			`\nFAILED: ${missing.length} outcomes missing, ${twice.length} written twice, ${strangers.length} unexpected` +
				(again ? `; imported again: ${again.created} called anew, ${again.refused.length} refused.` : '.'),
		);
		await shutdown(1);
	}
	console.log("\nOK: every imported contact's outcome arrived exactly once.");
	if (again) console.log('OK: nobody who said no was called again.');
	if (keep) {
		// The sheet's outcomes come by their own workflow, which writes only once published (as its
		// note says): published here, after the demo's counts, since its trigger polls the same space.
		// Its first poll brings the demo's endings too: no row holds their task_id, so none is changed.
		const sheetCalls = env.workflows.find((w) => w.name.includes('first calls from a sheet'))!;
		const sheetOutcomes = env.workflows.find((w) => w.name.includes('outcomes back in the sheet'))!;
		await n8nServer.setActive(sheetOutcomes.id, true, polls);
		console.log(`\nn8n keeps running with the example workflows: ${n8nServer.url}`);
		console.log(`Outcomes of calls from now on go to ${outcomesFile} (removed with n8n when you stop it).`);
		console.log(
			`Log in as ${OWNER.email} / ${OWNER.password}. The local Unpod server: ${server.url}. Ctrl-C stops both.`,
		);
		// What an example's note asks for in an Unpod API credential of your own, here.
		console.log(
			`An Unpod API credential for it: Base URL ${server.url}, API Token ${SEED.token}, Organization Handle ${SEED.orgHandle}, ` +
				`Webhook Secret ${DEMO_WEBHOOK_SECRET} (n8n holds one already: "${DEMO_CREDENTIAL.name}").`,
		);
		console.log(
			`\nYour first calls from a sheet, with no Google account: "${sheetCalls.name}" and ` +
				`"${sheetOutcomes.name}" use a local stand-in Google Sheet ("${SHEET_CREDENTIAL.name}"), ` +
				`its rows on ${env.sheet.viewUrl} (the README's "Your first calls from a sheet" from step 5: everything is picked, ` +
				`and "${sheetOutcomes.name}" is published: each call's outcome reaches its row within a minute of the call's end).`,
		);
		return;
	}
	await shutdown(0);
}

main().catch(async (error) => {
	console.error(`\nFAILED: ${(error as Error).message}`);
	await shutdown(1);
});
