/** The contract test's matching of a request against an OpenAPI file and the quirks table: pure, no server. */
import {
	checkRequests,
	describeFinding,
	findingsAgainst,
	pathMatches,
	readQuirkRows,
	readSpec,
	SentRequest,
} from '../helpers/openapi';

const SPEC = readSpec(
	'test',
	`
openapi: 3.0.3
paths:
  /api/v2/platform/things/:
    parameters:
      - name: shared
        in: query
    get:
      parameters:
        - $ref: '#/components/parameters/Page'
        - name: Org-Handle
          in: header
    post:
      requestBody:
        content:
          application/json:
            schema:
              $ref: '#/components/schemas/NewThing'
  /api/v2/platform/things/{id}/:
    get: {}
  /api/v2/platform/things/mine/:
    get:
      parameters:
        - name: mine_only
          in: query
components:
  parameters:
    Page:
      name: page
      in: query
  schemas:
    NewThing:
      type: object
      required: [name, parts]
      properties:
        name: { type: string }
        parts:
          type: array
          items:
            type: object
            required: [label]
            properties:
              label: { type: string }
`,
);
const THINGS = '/api/v2/platform/things/';
const get = (path: string, query: Record<string, string> = {}): SentRequest => ({
	method: 'GET',
	path,
	query,
	body: undefined,
});
const post = (body: unknown): SentRequest => ({ method: 'POST', path: THINGS, query: {}, body });

test('a parameter stands for one segment, never an empty one, and the trailing slash counts', () => {
	expect(pathMatches('/a/{id}/', '/a/12/')).toBe(true);
	expect(pathMatches('/a/{id}/', '/a//')).toBe(false);
	expect(pathMatches('/a/{id}/', '/a/1/2/')).toBe(false);
	expect(pathMatches('/a/{id}/', '/a/12')).toBe(false);
	expect(pathMatches('/a/b/', '/a/c/')).toBe(false);
	expect(pathMatches('/a/{id}', '/a/1/2')).toBe(false);
});

test('query names: declared on the operation, its path or by reference; headers are not query names', () => {
	expect(findingsAgainst(SPEC, get(THINGS, { page: '1', shared: 'x' }))).toEqual([]);
	expect(findingsAgainst(SPEC, get(THINGS, { page: '1', page_size: '100', 'Org-Handle': 'x' }))).toEqual([
		{ kind: 'query', method: 'GET', template: THINGS, name: 'page_size' },
		{ kind: 'query', method: 'GET', template: THINGS, name: 'Org-Handle' },
	]);
});

test('a literal segment is chosen before a parameter, as OpenAPI resolves paths', () => {
	expect(findingsAgainst(SPEC, get(`${THINGS}mine/`, { mine_only: 'true' }))).toEqual([]);
	expect(findingsAgainst(SPEC, get(`${THINGS}12/`, { mine_only: 'true' }))).toEqual([
		{ kind: 'query', method: 'GET', template: `${THINGS}{id}/`, name: 'mine_only' },
	]);
});

test('an unknown path, or a known path without the method, is a finding of the whole request', () => {
	expect(findingsAgainst(SPEC, get('/api/v2/platform/other/'))).toEqual([{ kind: 'operation', method: 'GET' }]);
	expect(findingsAgainst(SPEC, { ...get(`${THINGS}12/`), method: 'DELETE' })).toEqual([
		{ kind: 'operation', method: 'DELETE', template: `${THINGS}{id}/` },
	]);
});

test("required body fields, through a reference and into each array element; extra fields are not the contract's", () => {
	expect(findingsAgainst(SPEC, post({ name: 'a', parts: [{ label: 'x', more: 1 }], extra: true }))).toEqual([]);
	expect(findingsAgainst(SPEC, post({ parts: [{ label: 'x' }, {}] })).map((f) => describeFinding(f, THINGS))).toEqual([
		'`POST /things/` body without `name`',
		'`POST /things/` body without `parts[].label`',
	]);
	expect(findingsAgainst(SPEC, post(undefined)).map((f) => (f.kind === 'body' ? f.field : f.kind))).toEqual([
		'name',
		'parts',
	]);
});

const TABLE = `
## Before

| Request | Sent by | Why | Source |
|---|---|---|---|
| \`GET /elsewhere/\` | not this table | | |

## Requests the OpenAPI files do not list

| Request | Sent by | Why | Source |
|---|---|---|---|
| \`GET /other/{n}/\` | A > Read | not in the files | SDK x.py @ abc |
| \`GET /things/\` query \`page_size\`, \`search\` | A > List | pages | backend y.py @ def |
| \`POST /things/\` body without \`name\` | A > Create | older form | docs z.mdx @ 123 |

## After
`;
const HEADING = '## Requests the OpenAPI files do not list';

test('the table is read under its heading only: request, query names or body fields, and a source on every row', () => {
	expect(
		readQuirkRows(TABLE, HEADING).map(({ method, template, query, body }) => ({ method, template, query, body })),
	).toEqual([
		{ method: 'GET', template: '/other/{n}/', query: [], body: [] },
		{ method: 'GET', template: '/things/', query: ['page_size', 'search'], body: [] },
		{ method: 'POST', template: '/things/', query: [], body: ['name'] },
	]);
	expect(() => readQuirkRows(TABLE.replace('SDK x.py @ abc', ''), HEADING)).toThrow(/Sent by, Why and Source/);
	expect(() => readQuirkRows(TABLE.replace('`GET /other/{n}/`', '`GET /api/v2/platform/other/{n}/`'), HEADING)).toThrow(
		/without \/api\/v2\/platform/,
	);
	expect(() => readQuirkRows(TABLE.replace('`GET /other/{n}/`', '`/other/{n}/`'), HEADING)).toThrow(
		/starts with `METHOD/,
	);
	expect(() => readQuirkRows(TABLE.replace('body without', 'body lacks'), HEADING)).toThrow(
		/query `name` or body without/,
	);
	expect(() => readQuirkRows('## Else', HEADING)).toThrow(/No "## Requests/);
});

test('a request passes by a file or by rows of the table; what neither lists fails, and so does a row nothing needs', () => {
	const rows = readQuirkRows(TABLE, HEADING);
	const requests = [
		get(THINGS, { page: '1' }),
		get('/api/v2/platform/other/7/'),
		get(THINGS, { page_size: '5' }),
		post({ parts: [] }),
		get(THINGS, { limit: '5' }),
		get('/api/v2/platform/unknown/3/'),
	];
	const checked = checkRequests([SPEC], requests, rows);
	expect(checked.matched).toBe(1);
	expect(checked.listed).toBe(3);
	expect(checked.unlisted.map((u) => u.finding)).toEqual(['`GET /things/` query `limit`', '`GET /unknown/{id}/`']);
	expect(checked.unlisted[0].requests).toEqual([requests[4]]);
	expect(checked.stale).toEqual([`line ${rows[1].line}: GET /things/ query search`]);
});

test("a request one file lists passes though the other lacks it; one both lack passes when one file's findings are all rows", () => {
	const other = readSpec(
		'other',
		`paths:\n  /api/v2/platform/people/{id}/:\n    get:\n      parameters:\n        - { name: domain, in: query }\n`,
	);
	expect(checkRequests([SPEC, other], [get('/api/v2/platform/people/4/', { domain: 'x' })], []).matched).toBe(1);
	const rows = readQuirkRows(
		`${HEADING}\n\n| Request | Sent by | Why | Source |\n|---|---|---|---|\n| \`GET /people/{id}/\` query \`q\` | P | not declared | docs p.mdx |\n`,
		HEADING,
	);
	const checked = checkRequests([SPEC, other], [get('/api/v2/platform/people/4/', { q: 'x' })], rows);
	expect(checked).toMatchObject({ listed: 1, unlisted: [], stale: [] });
});
