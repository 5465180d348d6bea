/**
 * `npm run demo -- --keep` as a newcomer runs it, on a 12-row CSV: its own local server and n8n,
 * the import, every outcome once; then Ctrl-C (SIGINT to its process group, as a terminal sends
 * it) stops everything and leaves nothing in the temp folder. A file of its own: it waits on
 * calls and polls more than it works, so it runs beside the other end-to-end files.
 */
import axios from 'axios';
import type { ChildProcess } from 'child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { ROOT } from '../../dev/harness/paths';
import { waitFor } from '../helpers/wait-for';
import { spawnGroup, stopGroup } from '../../dev/harness/processes';
import { CSV_COLUMNS, DEMO_WEBHOOK_SECRET } from '../../scripts/demo-env';

let demo: ChildProcess | undefined;
/** The test's two folders: removed when the file ends, whether the demo passed, failed or hung. */
const folders: string[] = [];
afterAll(async () => {
	if (demo) await stopGroup(demo, 20_000);
	for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

test('npm run demo -- --keep: every outcome exactly once (a 12-row CSV); Ctrl-C removes what it made', async () => {
	// The demo writes its CSV into a folder here, never into demo-output/; its temp folder is
	// one of the test's own, to see that nothing is left in it.
	const startedAt = Date.now();
	const outputDir = mkdtempSync(join(tmpdir(), 'unpod-demo-test-'));
	const demoTmp = mkdtempSync(join(tmpdir(), 'unpod-demo-tmp-'));
	folders.push(outputDir, demoTmp);
	let output = '';
	const child = spawnGroup(
		join(ROOT, 'node_modules', '.bin', 'ts-node'),
		['--transpile-only', join(ROOT, 'scripts', 'demo.ts'), '--rows', '12', '--keep'],
		{
			cwd: ROOT,
			stdio: ['ignore', 'pipe', 'pipe'],
			env: {
				...process.env,
				NODE_ENV: '',
				TMPDIR: demoTmp,
				TS_NODE_PREFER_TS_EXTS: 'true',
				// As package.json's scripts run it: ts-node's compile cache under the project's cache.
				V8_COMPILE_CACHE_CACHE_DIR: join(ROOT, 'node_modules', '.cache', 'v8-compile-cache'),
				DEMO_TIMEOUT_MS: '180000',
				DEMO_OUTPUT_DIR: outputDir,
			},
		},
	);
	demo = child;
	child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
	child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
	const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
	let exitCode: number | null | undefined;
	void exited.then((code) => (exitCode = code));

	// A hung demo only: its own limit (DEMO_TIMEOUT_MS) counts from when n8n is ready.
	await waitFor(
		'the demo to keep n8n running',
		() => output.includes('Ctrl-C stops both.') || exitCode !== undefined,
		450_000,
	);
	const kept = output;
	// The stand-in sheet for the first sheet examples: its page lists its five leads, none called yet,
	// with their consent columns (one has none).
	const sheetPage = /its rows on (http:\/\/127\.0\.0\.1:\d+\/)/.exec(kept)?.[1];
	const page = sheetPage ? String((await axios.get(sheetPage, { responseType: 'text' })).data) : '';
	expect(page.match(/<tr><td>/g)).toHaveLength(5);
	expect(page).toContain(
		'<td>Dee Park</td><td>+14155550174</td><td>2026-03-02T10:15:00Z</td><td>web form</td><td>I agree that Acme may call me about its offers, also with an AI voice.</td><td>TRUE</td><td></td>',
	);
	expect(page).toContain('<td>Eli Grant</td><td>+14155550175</td><td></td><td></td><td></td><td></td>');
	expect(kept).toContain(`Webhook Secret ${DEMO_WEBHOOK_SECRET}`);
	// The sheet's outcomes workflow is published by the demo itself: what the last message says holds.
	expect(kept).toContain('and "Unpod: call outcomes back in the sheet" is published: each call\'s outcome reaches its row');
	// A demo that ended on its own (a failure) is not signalled: the checks below show what it said.
	if (exitCode === undefined) process.kill(-child.pid!, 'SIGINT');
	const code = await exited;
	demo = undefined;

	const csvFile = join(outputDir, 'unpod-calls.csv');
	const csv = existsSync(csvFile) ? readFileSync(csvFile, 'utf8') : '';
	const left = readdirSync(demoTmp);
	// Each line names the contact's company and when the call ran (the first row: Ava Patel, Northwind).
	const [header, ...lines] = csv.trim().split('\n');
	expect(header).toBe(CSV_COLUMNS.join(','));
	expect(lines.find((line) => line.includes('"Ava Patel"'))).toMatch(/^"[^"]+","Ava Patel","Northwind",/);
	expect(kept).toContain("OK: every imported contact's outcome arrived exactly once.");
	expect(kept).toMatch(/tasks created \(one request per 100 rows and calling-hours slot\) +\| 10 /);
	expect(kept).toMatch(/contacts in the first 12 rows of contacts\.csv +\| 12 /);
	// Calling hours: a contact outside them now is created for its next legal time, one request
	// per slot; which ones depends on the hour the demo runs. London's two are checked against
	// London's clock, read here without the package.
	const requests = Number(/Imported 10 of 12 rows in (\d+) requests?; 2 rows not created:/.exec(kept)?.[1]);
	const scheduled = Number(/of them scheduled for the callee's hours +\| (\d+) /.exec(kept)?.[1]);
	const listed = kept.split('\n').filter((line) => /^ +- .*: .*\(.*\).*; scheduled for \d{4}-\d\d-\d\dT/.test(line));
	expect(listed).toHaveLength(scheduled);
	expect(requests).toBeGreaterThanOrEqual(1);
	expect(requests).toBeLessThanOrEqual(1 + scheduled);
	const londonClosed = (at: number) => {
		const hour = Number(
			new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', hour: 'numeric', hourCycle: 'h23' }).format(at),
		);
		return hour < 8 || hour >= 21;
	};
	// Unless London's 08:00 or 21:00 fell while the demo ran.
	if (londonClosed(startedAt) === londonClosed(Date.now()))
		for (const name of ['Daniel Müller', 'Isla Patel'])
			expect([name, listed.some((line) => line.includes(`- ${name}, +44`))]).toEqual([name, londonClosed(startedAt)]);
	expect(kept).toMatch(/rows held for their hours \(no time zone known\) +\| 0 /);
	// Kate Patel's row gives no consent: the law of the US asks it of every AI call; she is not called.
	expect(kept).toMatch(/rows not called: no consent where the law asks it +\| 1 /);
	expect(kept).toContain(
		'Item 11: +15706301970: no consent on record (consent_at is empty); the law of the United States asks written consent for sales or marketing calls',
	);
	// What it says of its calls is what they do: every 5th fails. Of the 10 calls, Ben's is scripted
	// (he says no): of the 9 others, the 5th fails.
	expect(kept).toContain('every 5th call fails');
	expect(kept).toMatch(/calls failed +\| 1 /);
	expect(kept).toMatch(/calls completed +\| 9 /);
	expect(kept).toContain('--rows 12 shortens the import, not the demo');
	// Ben Müller asks on his call not to be called again: his line says so, he goes on the shared
	// list, and importing the same rows again calls nobody anew and refuses him.
	expect(lines.find((line) => line.includes('"Ben Müller"'))).toMatch(/,"true"$/);
	expect(lines.filter((line) => line.endsWith(',"true"'))).toHaveLength(1);
	expect(kept).toMatch(/said do not call on the call \(added to Unpod do-not-call\) +\| 1 /);
	expect(kept).toMatch(/imported again: called anew +\| 0 /);
	expect(kept).toMatch(/imported again: skipped, already called +\| 9 /);
	expect(kept).toMatch(/imported again: refused, on the do-not-call list \(Ben Müller\) +\| 1 /);
	expect(kept).toContain('Item 2: +12125550141 is on the do-not-call list (Do-Not-Call Numbers); not called');
	expect(kept).toContain('OK: nobody who said no was called again.');
	// Ctrl-C: the demo says what it does, does it, and ends as a program stopped by Ctrl-C does.
	expect(output.slice(kept.length)).toContain(
		"Interrupted: stopping n8n and the local Unpod server, and removing n8n's folder.",
	);
	expect(code).toBe(130);
	expect(left).toEqual([]);
}, 480_000);
