/**
 * The contract, in n8n's engine in the test process: every operation of every node, each mode
 * of the Unpod Trigger, each list search and the credential's test run against the local server
 * in its default shape (OpenAPI 2.0.0), and every request they sent is held against Unpod's two
 * OpenAPI files (2.0.0 at 16c4309, and 677bf31 with People; which is newer is not known): its
 * path, its method, the required fields of its body and the names of its query. A request one
 * file has passes; one neither has must be a row of "Requests the OpenAPI files do not list" in
 * docs/unpod-quirks.md, with its source, and every row there must still be sent.
 *
 * The operations are read from the built nodes, so an operation, mode or list search added
 * without a case here fails the first test. Call and Wait for Approval and Call and Wait's
 * Until Unpod Reports run to where the execution parks, as their own tests run them.
 */
import { readFileSync, existsSync } from 'fs';
import { join } from 'path';
import { ROOT } from '../../dev/harness/paths';
import type { RecordedRequest } from '../../dev/server/http';
import { SEED } from '../../dev/server/seed';
import { SOURCE_BACKEND } from '../../dev/server/routes/context';
import type { Behaviour } from '../../dev/server/routes/context';
import { API_PREFIX, checkRequests, readQuirkRows, readSpec } from '../helpers/openapi';
import { startHarness } from '../helpers/setup';
import { CASES, calling, clock, made, PERSON_DOCUMENT, unique, world } from './contract/cases';
import type { Case } from './contract/cases';
import { NODES, RECEIVES_ONLY, SURFACE, surfaceOf } from './contract/surface';

/** Unpod's OpenAPI files (dev/unpod-api/README.md), or those of the folder UNPOD_OPENAPI_DIR names. */
const SPEC_DIR = process.env.UNPOD_OPENAPI_DIR ?? join(ROOT, 'dev', 'unpod-api');
const SPEC_FILES = ['openapi-2.0.0.yaml', 'openapi-677bf31.yaml'];
const QUIRKS = join(ROOT, 'docs', 'unpod-quirks.md');
const HEADING = '## Requests the OpenAPI files do not list';

/** The requests each case sent. */
const sent = new Map<string, RecordedRequest[]>();

beforeAll(async () => {
	world.h = await startHarness({}, undefined, clock);
	made.renamed = world.h.server.store.addBridge(SEED.orgHandle, { name: 'Contract To Rename' }).slug;
	made.deleted = world.h.server.store.addBridge(SEED.orgHandle, { name: 'Contract To Delete' }).slug;
	// An ended call of a contact with a Document ID: its run, its recording, its People profile.
	const [task] = world.h.server.calls.addTasks(
		[{ name: 'Fay', contact_number: '+14155550998', document_id: PERSON_DOCUMENT }],
		{ space: SEED.spaceToken, pilot: SEED.agentHandle },
	);
	world.h.server.store.finishTask(task, 'completed');
	made.runId = task.run_id;
	made.recordingUrl = String(task.output.recording_url ?? '');
});

afterAll(async () => {
	await world.h?.close();
	clock.uninstall();
});

test('every operation, trigger mode, list search and credential test has a case here, and every node is covered', () => {
	expect({
		withoutCase: SURFACE.filter((k) => !CASES[k]),
		notInTheNodes: Object.keys(CASES).filter((k) => !SURFACE.includes(k)),
	}).toEqual({
		withoutCase: [],
		notInTheNodes: [],
	});
	for (const node of NODES) {
		const name = node.description.name;
		expect([name, surfaceOf(node).length > 0]).toEqual([name, !RECEIVES_ONLY[name]]);
	}
	expect(made.runId).not.toBe('');
	expect(made.recordingUrl).toMatch(/^http/);
});

test.each(Object.keys(CASES))('%s runs and sends requests', async (key) => {
	const before = world.h.server.requests.length;
	await CASES[key]();
	const requests = world.h.server.requests.slice(before);
	sent.set(key, requests);
	expect(requests.length).toBeGreaterThan(0);
});

/**
 * The paths the nodes fall back to where a deployment answers 404 or 405 at the documented one
 * (Unpod's February 2026 source): each case run again against the server in that shape.
 */
const FALLBACKS: Record<string, { run: Case; behaviour: Partial<Behaviour> }> = {
	'call log at call-logs/': { run: CASES['unpodBridge > callLog > getAll'], behaviour: SOURCE_BACKEND },
	"the trigger's call log at call-logs/": {
		run: CASES['unpodTrigger > callsOf: callLog'],
		behaviour: SOURCE_BACKEND,
	},
	// Contacts of their own: the main case's are called already, and the guard would skip them.
	'tasks created at tasks/': {
		run: calling('create', unique('Bea'), { skipExisting: false }),
		behaviour: { ...SOURCE_BACKEND, createPaths: ['tasks'] },
	},
	'provider credentials at provider-configurations/': {
		run: CASES['unpodBridge > providerCredential > get'],
		behaviour: SOURCE_BACKEND,
	},
};

test.each(Object.keys(FALLBACKS))('fallback: %s', async (name) => {
	const { run, behaviour } = FALLBACKS[name];
	const saved = { ...world.h.server.behaviour };
	Object.assign(world.h.server.behaviour, behaviour);
	try {
		const before = world.h.server.requests.length;
		await run();
		const requests = world.h.server.requests.slice(before);
		sent.set(`fallback: ${name}`, requests);
		// The documented path first, answered 404 or 405; then the other.
		expect(requests.filter((r) => r.status === 404 || r.status === 405).length).toBeGreaterThan(0);
		expect(requests.some((r) => (r.status ?? 500) < 300)).toBe(true);
	} finally {
		world.h.server.behaviour = saved;
	}
});

test('every request is in one of the OpenAPI files, or listed with its source in docs/unpod-quirks.md', () => {
	for (const file of SPEC_FILES)
		if (!existsSync(join(SPEC_DIR, file)))
			throw new Error(`${join(SPEC_DIR, file)} is missing (UNPOD_OPENAPI_DIR names another folder)`);
	const specs = SPEC_FILES.map((file) => readSpec(file, readFileSync(join(SPEC_DIR, file), 'utf8')));
	const rows = readQuirkRows(readFileSync(QUIRKS, 'utf8'), HEADING);
	const requests = [...sent.entries()].flatMap(([sentBy, list]) => list.map((r) => ({ ...r, sentBy })));
	// A recording is fetched from where Unpod's answer put it, not from the platform API.
	const outside = requests.filter((r) => !r.path.startsWith(`${API_PREFIX}/`));
	expect(outside.map((r) => `${r.sentBy}: ${r.method} ${r.path}`)).toEqual(
		outside
			.filter((r) => r.sentBy === 'unpodTask > downloadRecording' && r.method === 'GET')
			.map((r) => `${r.sentBy}: GET ${r.path}`),
	);
	const checked = checkRequests(
		specs,
		requests.filter((r) => r.path.startsWith(`${API_PREFIX}/`)),
		rows,
	);
	const report = {
		unlisted: checked.unlisted.map(({ finding, requests: by }) => ({
			finding,
			sentBy: [...new Set(by.map((r) => r.sentBy))],
			example: `${by[0].method} ${by[0].path}${Object.keys(by[0].query).length ? `?${new URLSearchParams(by[0].query)}` : ''}`,
		})),
		stale: checked.stale,
		// A case that failed above was not held against the files: every case must have run.
		notRun: [...Object.keys(CASES), ...Object.keys(FALLBACKS).map((k) => `fallback: ${k}`)].filter((k) => !sent.has(k)),
	};
	expect(report).toEqual({ unlisted: [], stale: [], notRun: [] });
	expect(checked.matched + checked.listed).toBeGreaterThan(0);
});
