/** The example workflows of `examples/`, pointed at a local Unpod server for the demo and the tests. */
import { readdirSync, readFileSync } from 'fs';
import { basename, join } from 'path';
import { ROOT } from './paths';
import { Workflow } from './workflow-builders';
import { SEED } from '../server/seed';

export const EXAMPLES = join(ROOT, 'examples');
export const USER_FILES = '/home/node/.n8n-files/';
/** The header row the two first sheet examples' notes ask for (sheet-calls.json, sheet-outcomes.json). */
export const SHEET_EXAMPLE_COLUMNS = [
	'name',
	'phone',
	'consent_at',
	'consent_source',
	'consent_wording',
	'do_not_call',
	'task_id',
	'status',
	'note',
	'outcome',
	'summary',
	'ai_disclosed',
];

export interface Localize {
	credential: { id: string; name: string };
	/** Folder that replaces the examples' `/home/node/.n8n-files/`. */
	filesDir: string;
	/** The n8n Data Table the examples' Data Table nodes use, as the user would pick it. */
	dataTable?: string;
	/** The campaign's figures table, picked in the Data Table nodes named for its figures. */
	figuresTable?: string;
	/** The shared "Unpod do-not-call" table, picked in the Data Table nodes named for the do-not-call list. */
	doNotCallTable?: string;
	/** The Google spreadsheet the examples' Google Sheets nodes use, as the user would pick it. */
	spreadsheet?: string;
	/** Other services' credentials by type (the campaign page's login, the report's SMTP account). */
	credentials?: Record<string, { id: string; name: string }>;
	/**
	 * false: the Unpod Task nodes call at any hour (Keep to Calling Hours off), for a test about
	 * something else, whose numbers ring at whatever hour the test runs. Unset: as the example ships.
	 */
	callingHours?: boolean;
	/**
	 * false: the Unpod Task nodes check no consent (Consent: Off), for a test about something else
	 * whose contacts carry none. Unset: as the example ships.
	 */
	consent?: boolean;
}

/** Who calls, as a user fills in the Task nodes that place calls: the business and its number. */
export const EXAMPLE_CALLER = { callingOnBehalfOf: 'Acme Demo Co', businessContact: '+1 415 555 0100' };

/**
 * A lead's consent as the examples' sheets and tables keep it in their consent columns: when, how,
 * and in what words (a US sales call by an AI needs all three).
 */
export const EXAMPLE_CONSENT = {
	consent_at: '2026-03-02T10:15:00Z',
	consent_source: 'web form',
	consent_wording: 'I agree that Acme may call me about its offers, also with an AI voice.',
};

/** The Task operations that place calls. */
const CALLING_OPERATIONS = ['create', 'callAndWait', 'sendAndWait', 'followUp'];

export function exampleFiles(): string[] {
	return readdirSync(EXAMPLES).filter((f) => f.endsWith('.json'));
}

/** Loads an example and fills in what a user would pick: credential, space, agent, paths. */
export function loadExample(file: string, local: Localize): Workflow {
	const workflow = JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8'));
	workflow.id = basename(file, '.json')
		.replace(/[^a-zA-Z0-9]/g, '')
		.slice(0, 21);
	workflow.active = false;
	for (const node of workflow.nodes) {
		if (node.credentials?.unpodApi) node.credentials.unpodApi = local.credential;
		for (const [type, credential] of Object.entries(local.credentials ?? {}))
			if (node.credentials?.[type]) node.credentials[type] = credential;
		const p = node.parameters ?? {};
		if (p.space?.__rl && !p.space.value) p.space = { __rl: true, mode: 'token', value: SEED.spaceToken };
		if (p.agent?.__rl && !p.agent.value) p.agent = { __rl: true, mode: 'handle', value: SEED.agentHandle };
		if (p.bridge?.__rl && !p.bridge.value) p.bridge = { __rl: true, mode: 'slug', value: SEED.bridgeSlug };
		if (p.providerCredential?.__rl && !p.providerCredential.value)
			p.providerCredential = { __rl: true, mode: 'list', value: String(SEED.activeCredentialId) };
		if (p.documentId?.__rl && !p.documentId.value && local.spreadsheet)
			p.documentId = { __rl: true, mode: 'id', value: local.spreadsheet };
		if (/\.unpodTask(Tool)?$/.test(node.type) && CALLING_OPERATIONS.includes(p.operation)) {
			if (local.callingHours === false) p.callingHours = false;
			if (local.consent === false) p.consent = 'off';
			for (const [name, value] of Object.entries(EXAMPLE_CALLER)) if (!p[name]) p[name] = value;
		}
		for (const key of ['fileSelector', 'fileName']) {
			if (typeof p[key] === 'string') p[key] = p[key].replace(USER_FILES, `${local.filesDir}/`);
		}
	}
	pickDataTables(workflow, local);
	return workflow;
}

/**
 * Picks the Data Tables in a workflow's Data Table nodes whose table is still empty, as the user
 * would: the figures table in the nodes named for the figures, the do-not-call table in those
 * named for the do-not-call list, `dataTable` in the others.
 */
export function pickDataTables(
	workflow: Workflow,
	local: Pick<Localize, 'dataTable' | 'figuresTable' | 'doNotCallTable'>,
): void {
	for (const node of workflow.nodes) {
		const p = (node.parameters ?? {}) as { dataTableId?: { __rl?: boolean; mode?: string; value?: string } };
		const table = /figures/i.test(node.name)
			? local.figuresTable
			: /do-not-call/i.test(node.name)
				? local.doNotCallTable
				: local.dataTable;
		if (p.dataTableId?.__rl && !p.dataTableId.value && table) p.dataTableId = { __rl: true, mode: 'id', value: table };
	}
}

/** The part of a workflow that runs from one of its triggers: that node and every node after it. */
export function pathFrom(workflow: Workflow, trigger: string): Workflow {
	const names = new Set([trigger]);
	const connections = workflow.connections ?? {};
	for (let grew = true; grew;) {
		grew = false;
		for (const from of [...names])
			for (const out of connections[from]?.main ?? [])
				for (const to of out ?? []) if (!names.has(to.node)) grew = Boolean(names.add(to.node));
	}
	return {
		...workflow,
		nodes: workflow.nodes.filter((n) => names.has(n.name)),
		connections: Object.fromEntries(Object.entries(connections).filter(([from]) => names.has(from))),
	};
}
