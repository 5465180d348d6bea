/**
 * What the n8n users move to says of the package, where the running n8n has it: installing by
 * environment (n8n 2.21 and later) with the README's line, and n8n's own report of what 3.0
 * breaks (the v3 rules of the newest 2.x) over the package and every example. `npm test`'s
 * n8n 2.8.4 has neither; `npm run test:compat` runs this file on the newest 2.x.
 */
import { execFileSync } from 'child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { exampleFiles, loadExample } from '../../dev/harness/examples';
import { N8n } from '../../dev/harness/n8n';
import { N8N_VERSION, PACKAGE_NAME, ROOT, RUNTIME } from '../../dev/harness/paths';
import { N8nServer } from '../../dev/harness/n8n-server';
import { spawnN8n } from '../../dev/harness/n8n-process';
import { stopGroup } from '../../dev/harness/processes';
import { CREDENTIAL } from '../helpers/setup';

const [major, minor] = N8N_VERSION.split('.').map(Number);
const INSTALLS_BY_ENV = major > 2 || (major === 2 && minor >= 21);
const HAS_V3_REPORT = existsSync(
	join(RUNTIME, 'node_modules', 'n8n', 'dist', 'modules', 'breaking-changes', 'rules', 'v3'),
);
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

/** The README's N8N_COMMUNITY_PACKAGES line, with the checksum `npm view ... dist.integrity` gives filled in. */
function readmeLine(checksum: string): string {
	const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
	const line = readme.split('\n').find((l) => l.startsWith('N8N_COMMUNITY_PACKAGES='));
	if (!line) throw new Error('The README has no N8N_COMMUNITY_PACKAGES= line');
	return line.replace('sha512-...', checksum).replace(/^N8N_COMMUNITY_PACKAGES=/, '');
}

/** The built package packed as `npm publish` packs it, in a folder of its own: the tarball and its integrity. */
function pack(): { folder: string; tarball: string; integrity: string } {
	const folder = mkdtempSync(join(tmpdir(), 'unpod-pack-'));
	const out = execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', folder], {
		cwd: ROOT,
		encoding: 'utf8',
	});
	const [packed] = JSON.parse(out);
	return { folder, tarball: join(folder, packed.filename), integrity: packed.integrity };
}

/**
 * Starts n8n with N8N_COMMUNITY_PACKAGES set, in a user folder without the package (as a new
 * Docker container has it), until it is ready or has exited; returns what it logged.
 */
async function startWithLine(line: string): Promise<{ ready: boolean; log: string }> {
	// As n8n 3.0 has it: no unverified package unless its checksum is pinned.
	const n8n = await N8n.create({
		N8N_COMMUNITY_PACKAGES_MANAGED_BY_ENV: 'true',
		N8N_COMMUNITY_PACKAGES: line,
		N8N_UNVERIFIED_PACKAGES_ENABLED: 'false',
	});
	rmSync(join(n8n.folder, '.n8n', 'nodes'), { recursive: true, force: true });
	try {
		const url = `http://127.0.0.1:${n8n.env.N8N_PORT}/healthz/readiness`;
		const { child, log } = await spawnN8n(n8n, ['start'], url, Date.now() + 240_000);
		await stopGroup(child);
		return { ready: true, log: log.join('') };
	} catch (error) {
		return { ready: false, log: (error as Error).message };
	} finally {
		n8n.dispose();
	}
}

/** The `message` of each JSON log line n8n printed. */
const messages = (log: string) =>
	log
		.split('\n')
		.filter((l) => l.startsWith('{'))
		.map((l) => {
			try {
				return String(JSON.parse(l).message);
			} catch {
				return l;
			}
		});

const onEnvInstall = INSTALLS_BY_ENV ? test : test.skip;
const onV3Report = HAS_V3_REPORT ? test : test.skip;

onEnvInstall(
	"n8n takes the README's N8N_COMMUNITY_PACKAGES line with this version and the packed tarball's checksum, and goes on to verify that checksum against the registry",
	async () => {
		const packed = pack();
		rmSync(packed.folder, { recursive: true, force: true });
		const integrity = packed.integrity;
		expect(integrity).toMatch(/^sha512-/);
		const line = readmeLine(integrity);
		expect(JSON.parse(line)).toEqual([{ name: PACKAGE_NAME, version: pkg.version, checksum: integrity }]);

		const { ready, log } = await startWithLine(line);
		const said = messages(log);
		expect({ ready, log: ready ? '' : log.slice(-2000) }).toEqual({ ready: true, log: '' });
		expect(said).toContain(
			'communityPackagesManagedByEnv is enabled — reconciling installed community packages from env vars',
		);
		// Not refused as unverified: the pinned checksum is taken, and n8n checks it with the registry.
		// Before this version is published the registry cannot confirm it and the install stops
		// there; once it is, the checksum must match what npm published and n8n installs it.
		expect(said.join('\n')).not.toMatch(/unverified packages are disabled|validation failed|forbidden/);
		const ref = `'${PACKAGE_NAME}@${pkg.version}'`.replace(/[.@]/g, '\\$&');
		expect(said).toContainEqual(
			expect.stringMatching(
				new RegExp(
					`^(Installed community package ${ref} from env|Failed to install community package ${ref} from env: Failed to verify package checksum)`,
				),
			),
		);
	},
);

onEnvInstall(
	'n8n refuses a malformed line, or one without the checksum, with its own message and does not start',
	async () => {
		// A checksum without the version it belongs to.
		const malformed = await startWithLine(JSON.stringify([{ name: PACKAGE_NAME, checksum: 'sha512-abc' }]));
		expect(malformed.ready).toBe(false);
		expect(messages(malformed.log)).toContainEqual(
			expect.stringMatching(
				`^N8N_COMMUNITY_PACKAGES has a checksum but no version for package "${PACKAGE_NAME}" at index 0: checksum requires a version`,
			),
		);
		// Unverified, and no checksum pinned.
		const unpinned = await startWithLine(JSON.stringify([{ name: PACKAGE_NAME, version: pkg.version }]));
		expect(unpinned.ready).toBe(false);
		expect(messages(unpinned.log)).toContainEqual(
			expect.stringMatching(
				`^N8N_COMMUNITY_PACKAGES: no checksum available for '${PACKAGE_NAME}@${pkg.version.replace(/\./g, '\\.')}' and unverified packages are disabled`,
			),
		);
	},
);

test("installed from a clone as the README says (npm pack, then the tarball into n8n's nodes folder), n8n loads every node", async () => {
	const packed = pack();
	const n8n = await N8n.create();
	try {
		const nodes = join(n8n.folder, '.n8n', 'nodes');
		rmSync(nodes, { recursive: true, force: true });
		mkdirSync(nodes, { recursive: true });
		writeFileSync(join(nodes, 'package.json'), '{}');
		execFileSync('npm', ['install', '--legacy-peer-deps', '--no-audit', '--no-fund', packed.tarball], {
			cwd: nodes,
			encoding: 'utf8',
		});
		// No copy of n8n-workflow of its own: the package uses the one n8n runs.
		expect(readdirSync(join(nodes, 'node_modules')).filter((name) => !name.startsWith('.'))).toEqual([PACKAGE_NAME]);
		const out = join(n8n.folder, 'nodes.json');
		const exported = await n8n.cli(['export:nodes', `--output=${out}`]);
		expect(exported.exitCode).toBe(0);
		const names = (JSON.parse(readFileSync(out, 'utf8')) as Array<{ name: string }>).map((n) => n.name);
		const ours = pkg.n8n.nodes.map(
			(file: string) =>
				`${PACKAGE_NAME}.${file.replace(/^.*\/(\w)(\w+)\.node\.js$/, (_: string, a: string, b: string) => a.toLowerCase() + b)}`,
		);
		expect(ours).toHaveLength(6);
		for (const type of ours) expect(names).toContain(type);
	} finally {
		n8n.dispose();
		rmSync(packed.folder, { recursive: true, force: true });
	}
});

onV3Report(
	"n8n's report of what 3.0 breaks reads every example and finds nothing in an Unpod node or an example; of its instance notices, unverified packages is the package's",
	async () => {
		const n8n = await N8n.create();
		let server: N8nServer | undefined;
		try {
			const workflows = exampleFiles().map((file) =>
				loadExample(file, { credential: CREDENTIAL.unpodApi, filesDir: join(n8n.folder, 'files') }),
			);
			await n8n.importWorkflows(workflows);
			server = await N8nServer.start(n8n);
			const refreshed = await server.rest.post('/breaking-changes/report/refresh', undefined, {
				params: { version: 'v3' },
			});
			expect(refreshed.status).toBe(200);
			// It read every example.
			expect(refreshed.data.data.totalWorkflows).toBe(workflows.length);
			const report = refreshed.data.data.report as {
				workflowResults: Array<{ ruleId: string; affectedWorkflows: Array<{ id?: string; name?: string }> }>;
				instanceResults: Array<{ ruleId: string }>;
			};
			expect(report.workflowResults.map((r) => `${r.ruleId}: ${JSON.stringify(r.affectedWorkflows)}`)).toEqual([]);
			expect(report.instanceResults.map((r) => r.ruleId)).toContain('unverified-packages-v3');
		} finally {
			await server?.stop();
			n8n.dispose();
		}
	},
);
