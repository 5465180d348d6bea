/**
 * A request the nodes sent, held against an OpenAPI file of Unpod's: its path, its method, the
 * required fields of its JSON body and the names of its query. And the table of
 * docs/unpod-quirks.md that lists, with a source, each request no OpenAPI file has. Pure: the
 * contract test (test/engine/contract.test.ts) reads the files and records the requests.
 */
import { load } from 'js-yaml';

/** Every path of the platform API starts with it; the quirks table writes paths without it. */
export const API_PREFIX = '/api/v2/platform';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

type Schema = {
	$ref?: string;
	type?: string;
	required?: string[];
	properties?: Record<string, Schema>;
	items?: Schema;
};
type Parameter = { $ref?: string; name?: string; in?: string };
type Operation = {
	parameters?: Parameter[];
	requestBody?: { $ref?: string; content?: Record<string, { schema?: Schema }> };
};

export interface SpecOperation {
	/** As the file writes it, `/api/v2/platform/spaces/{space_token}/tasks/`. */
	template: string;
	method: string;
	queryNames: Set<string>;
	/** The JSON request body's schema, its `$ref`s resolved. */
	body?: Schema;
}

export interface Spec {
	name: string;
	operations: SpecOperation[];
}

export interface SentRequest {
	method: string;
	/** The whole path, with API_PREFIX. */
	path: string;
	query: Record<string, unknown>;
	body: unknown;
}

/**
 * Why a request does not match one file: no operation at its path and method (`template` is the
 * file's path when only the method is missing), a query name the operation does not declare, or
 * a required body field left out (`documents[].name` for a field of each document).
 */
export type Finding =
	| { kind: 'operation'; method: string; template?: string }
	| { kind: 'query'; method: string; template: string; name: string }
	| { kind: 'body'; method: string; template: string; field: string };

/** A `$ref` inside the same file, `#/components/parameters/OrgHandle`. */
function resolve<T extends { $ref?: string }>(root: unknown, value: T, seen = new Set<string>()): T {
	if (!value?.$ref) return value;
	if (!value.$ref.startsWith('#/')) throw new Error(`Only references inside the file are read: ${value.$ref}`);
	if (seen.has(value.$ref)) throw new Error(`A reference that refers to itself: ${value.$ref}`);
	seen.add(value.$ref);
	let target: unknown = root;
	for (const key of value.$ref.slice(2).split('/')) target = (target as Record<string, unknown> | undefined)?.[key];
	if (target === undefined) throw new Error(`A reference to nothing: ${value.$ref}`);
	return resolve(root, target as T, seen);
}

function resolveSchema(root: unknown, schema: Schema | undefined): Schema | undefined {
	if (!schema) return undefined;
	const own = resolve(root, schema);
	return {
		...own,
		properties: own.properties
			? Object.fromEntries(Object.entries(own.properties).map(([k, v]) => [k, resolveSchema(root, v)!]))
			: undefined,
		items: resolveSchema(root, own.items),
	};
}

/** An OpenAPI 3 file's operations, with what a request is checked against. */
export function readSpec(name: string, yaml: string): Spec {
	const root = load(yaml) as { paths?: Record<string, Record<string, unknown>> };
	if (!root?.paths) throw new Error(`${name} has no paths`);
	const operations: SpecOperation[] = [];
	for (const [template, item] of Object.entries(root.paths)) {
		const shared = ((item.parameters as Parameter[] | undefined) ?? []).map((p) => resolve(root, p));
		for (const method of METHODS) {
			const operation = item[method] as Operation | undefined;
			if (!operation) continue;
			const parameters = [...shared, ...(operation.parameters ?? []).map((p) => resolve(root, p))];
			const requestBody = operation.requestBody ? resolve(root, operation.requestBody) : undefined;
			operations.push({
				template,
				method: method.toUpperCase(),
				queryNames: new Set(parameters.filter((p) => p.in === 'query').map((p) => String(p.name))),
				body: resolveSchema(root, requestBody?.content?.['application/json']?.schema),
			});
		}
	}
	return { name, operations };
}

const segments = (path: string) => path.split('/');
const isParameter = (segment: string) => /^\{[^/{}]+\}$/.test(segment);

/** Whether `path` is one of `template`'s: `{param}` stands for one segment, not empty. */
export function pathMatches(template: string, path: string): boolean {
	const want = segments(template);
	const got = segments(path);
	return (
		want.length === got.length &&
		want.every((segment, i) => (isParameter(segment) ? got[i] !== '' : segment === decodeURIComponent(got[i])))
	);
}

/** The same path whatever its parameters are called: `/a/{}/b/`. */
const shapeOf = (template: string) => template.replace(/\{[^/{}]+\}/g, '{}');

/** The required fields of `schema` that `value` leaves out, nested ones named by their path. */
function missingFields(schema: Schema | undefined, value: unknown, prefix = ''): string[] {
	if (!schema) return [];
	if (schema.type === 'array' || schema.items) {
		if (!Array.isArray(value)) return [];
		const missing = value.flatMap((element) => missingFields(schema.items, element, `${prefix}[]`));
		return [...new Set(missing)];
	}
	const object =
		value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
	const dot = prefix ? `${prefix}.` : '';
	const missing = (schema.required ?? []).filter((field) => object[field] === undefined).map((field) => dot + field);
	for (const [field, property] of Object.entries(schema.properties ?? {})) {
		if (object[field] !== undefined) missing.push(...missingFields(property, object[field], dot + field));
	}
	return missing;
}

/** Why `request` is not an operation of `spec`; none when it is one. */
export function findingsAgainst(spec: Spec, request: SentRequest): Finding[] {
	const method = request.method.toUpperCase();
	const atPath = spec.operations.filter((o) => pathMatches(o.template, request.path));
	// A literal segment before a parameter, as OpenAPI resolves `/a/b/` beside `/a/{x}/`.
	const literal = (o: SpecOperation) => segments(o.template).filter((s) => !isParameter(s)).length;
	const operation = atPath.filter((o) => o.method === method).sort((a, b) => literal(b) - literal(a))[0];
	if (!operation) return [{ kind: 'operation', method, template: atPath[0]?.template }];
	const { template } = operation;
	return [
		...Object.keys(request.query)
			.filter((name) => !operation.queryNames.has(name))
			.map((name): Finding => ({ kind: 'query', method, template, name })),
		...missingFields(operation.body, request.body).map((field): Finding => ({ kind: 'body', method, template, field })),
	];
}

/** One row of the quirks table: the request it lists and, for a query name or a body field, which. */
export interface QuirkRow {
	line: number;
	method: string;
	/** Without API_PREFIX, as the table writes it. */
	template: string;
	/** The query names the row lists, or the body fields; neither: the whole request. */
	query: string[];
	body: string[];
	sentBy: string;
	why: string;
	source: string;
}

const code = (text: string) => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]);

/**
 * The rows of the table under `heading` (a `## ` line of its own): its first column
 * `` `GET /path/{id}/` ``, or that followed by ``query `name` `` or ``body without `field` ``
 * (several names each in backticks), then Sent by, Why and Source.
 */
export function readQuirkRows(markdown: string, heading: string): QuirkRow[] {
	const lines = markdown.split('\n');
	const start = lines.findIndex((l) => l.trim() === heading);
	if (start < 0) throw new Error(`No "${heading}" section`);
	const rows: QuirkRow[] = [];
	for (let i = start + 1; i < lines.length && !/^#{1,2} /.test(lines[i]); i++) {
		const line = lines[i].trim();
		if (!line.startsWith('|') || /^\|[\s|:-]+\|$/.test(line)) continue;
		const cells = line
			.slice(1, -1)
			.split(/(?<!\\)\|/)
			.map((c) => c.trim());
		if (cells[0] === 'Request') continue;
		const fail = (why: string) => new Error(`${heading}, line ${i + 1}: ${why}: ${line}`);
		if (cells.length !== 4) throw fail('a row has four cells: Request, Sent by, Why, Source');
		const [request, sentBy, why, source] = cells;
		const [first, ...names] = code(request);
		const head = /^(GET|POST|PUT|PATCH|DELETE) (\/\S*)$/.exec(first ?? '');
		if (!head) throw fail('the request starts with `METHOD /path/`');
		if (head[2].startsWith(API_PREFIX)) throw fail(`the path is written without ${API_PREFIX}`);
		const detail = request.slice(request.indexOf(first) + first.length + 1).trim();
		const query = /^query\b/.test(detail) ? names : [];
		const body = /^body without\b/.test(detail) ? names : [];
		if (names.length && !query.length && !body.length)
			throw fail('after the path: query `name` or body without `field`');
		if (!sentBy || !why || !source) throw fail('Sent by, Why and Source are each given');
		rows.push({ line: i + 1, method: head[1], template: head[2], query, body, sentBy, why, source });
	}
	return rows;
}

/** The items of one row a finding is: '' for a whole request, `query:x`, `body:x`. */
function itemOf(finding: Finding): string {
	if (finding.kind === 'query') return `query:${finding.name}`;
	if (finding.kind === 'body') return `body:${finding.field}`;
	return '';
}

const itemsOf = (row: QuirkRow) =>
	row.query.length || row.body.length
		? [...row.query.map((q) => `query:${q}`), ...row.body.map((b) => `body:${b}`)]
		: [''];

/** The row that lists `finding` of `request`, if one does. */
export function rowFor(rows: QuirkRow[], request: SentRequest, finding: Finding): QuirkRow | undefined {
	return rows.find(
		(row) =>
			row.method === finding.method &&
			pathMatches(API_PREFIX + row.template, request.path) &&
			(!finding.template || shapeOf(API_PREFIX + row.template) === shapeOf(finding.template)) &&
			itemsOf(row).includes(itemOf(finding)),
	);
}

/** A finding as the table's first column writes it (a path no file has: its parameters guessed). */
export function describeFinding(finding: Finding, path: string): string {
	const template = (finding.template ?? path.replace(/\/\d+(?=\/)/g, '/{id}')).slice(API_PREFIX.length);
	const request = `\`${finding.method} ${template}\``;
	if (finding.kind === 'query') return `${request} query \`${finding.name}\``;
	if (finding.kind === 'body') return `${request} body without \`${finding.field}\``;
	return request;
}

export interface Checked<Request extends SentRequest> {
	/** Findings that match no file and no row, each with the requests that made them. */
	unlisted: Array<{ finding: string; requests: Request[] }>;
	/** Rows, or names in them, that no request needed. */
	stale: string[];
	/** How many requests matched a file, and how many only through the table. */
	matched: number;
	listed: number;
}

/**
 * Each request against every file: it passes when one file has it, or when every finding of one
 * file is a row of the table. A row (and each name in it) must be needed by some request.
 */
export function checkRequests<Request extends SentRequest>(
	specs: Spec[],
	requests: Request[],
	rows: QuirkRow[],
): Checked<Request> {
	const used = new Set<string>();
	const unlisted = new Map<string, Request[]>();
	let matched = 0;
	let listed = 0;
	for (const request of requests) {
		const perSpec = specs.map((spec) => findingsAgainst(spec, request));
		if (perSpec.some((findings) => findings.length === 0)) {
			matched++;
			continue;
		}
		const covered = perSpec.map((findings) => findings.map((f) => ({ f, row: rowFor(rows, request, f) })));
		const whole = covered.filter((c) => c.every(({ row }) => row));
		if (whole.length) {
			listed++;
			for (const c of whole) for (const { f, row } of c) used.add(`${row!.line}:${itemOf(f)}`);
			continue;
		}
		// The file that leaves the fewest findings unlisted says what is missing.
		const closest = covered.reduce((a, b) => (b.filter((x) => !x.row).length < a.filter((x) => !x.row).length ? b : a));
		for (const { f, row } of closest) {
			if (row) continue;
			const key = describeFinding(f, request.path);
			unlisted.set(key, [...(unlisted.get(key) ?? []), request]);
		}
	}
	const stale = rows.flatMap((row) =>
		itemsOf(row)
			.filter((item) => !used.has(`${row.line}:${item}`))
			.map((item) => `line ${row.line}: ${row.method} ${row.template}${item ? ` ${item.replace(':', ' ')}` : ''}`),
	);
	return {
		unlisted: [...unlisted.entries()].map(([finding, reqs]) => ({ finding, requests: reqs })),
		stale,
		matched,
		listed,
	};
}
