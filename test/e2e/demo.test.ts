/**
 * `npm run demo` as a newcomer runs it, on a 12-row CSV: its own local server and n8n, the
 * import, every outcome once. A file of its own: it waits on calls and polls more than it
 * works, so it runs beside the other end-to-end files.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { ROOT } from '../helpers/n8n';
import { runGroup } from '../helpers/processes';
import { CSV_COLUMNS } from '../../scripts/demo-env';

test('npm run demo finishes with every outcome exactly once (a 12-row CSV)', async () => {
	// The demo writes its CSV into a temp folder here, never into demo-output/.
	const outputDir = mkdtempSync(join(tmpdir(), 'unpod-demo-test-'));
	const {
		exitCode: code,
		stdout,
		stderr,
	} = await runGroup(
		join(ROOT, 'node_modules', '.bin', 'ts-node'),
		['--transpile-only', join(ROOT, 'scripts', 'demo.ts'), '--rows', '12'],
		{
			cwd: ROOT,
			env: {
				...process.env,
				NODE_ENV: '',
				TS_NODE_PREFER_TS_EXTS: 'true',
				DEMO_TIMEOUT_MS: '180000',
				DEMO_OUTPUT_DIR: outputDir,
			},
			// A hung demo only: its own limit (DEMO_TIMEOUT_MS) counts from when n8n is ready.
			timeoutMs: 450_000,
			// The demo stops its own n8n on SIGTERM.
			graceMs: 20_000,
		},
	);
	const output = stdout + stderr;
	const csvFile = join(outputDir, 'unpod-calls.csv');
	const csv = existsSync(csvFile) ? readFileSync(csvFile, 'utf8') : '';
	rmSync(outputDir, { recursive: true, force: true });
	// Each line names the contact's company and when the call ran (the first row: Ava Patel, Northwind).
	const [header, ...lines] = csv.trim().split('\n');
	expect(header).toBe(CSV_COLUMNS.join(','));
	expect(lines.find((line) => line.includes('"Ava Patel"'))).toMatch(/^"[^"]+","Ava Patel","Northwind",/);
	expect(output).toContain("OK: every imported contact's outcome arrived exactly once.");
	expect(output).toMatch(/tasks created \(one request per 100 rows\) +\| 11 /);
	expect(output).toMatch(/contacts in the first 12 rows of contacts\.csv +\| 12 /);
	expect(output).toContain('Imported 11 of 12 rows in 1 request; 1 row not created:');
	// What it says of its calls is what they do: every 5th of the 11 fails (the 5th and 10th).
	expect(output).toContain('every 5th call fails');
	expect(output).toMatch(/calls failed +\| 2 /);
	expect(output).toMatch(/calls completed +\| 9 /);
	expect(output).toContain('--rows 12 shortens the import, not the demo');
	expect(code).toBe(0);
}, 480_000);
