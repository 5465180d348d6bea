/**
 * Salesforce's REST API (v59.0) as the Salesforce node (OAuth2) and `jsforce` use it: SOQL
 * queries (the small part the examples write: fields, one object, `=`/`!=` conditions on text,
 * null or a boolean, joined by AND, ORDER BY one field with NULLS FIRST or LAST, LIMIT), and sObjects created, read and updated (PATCH). A
 * Lead or Contact has the standard `DoNotCall`, false unless set; a boolean field takes a JSON
 * boolean only, as Salesforce's parser does. Answers and errors in Salesforce's shapes
 * (developer.salesforce.com, REST API Developer Guide).
 */
import { match, Twin, type TwinReply, type TwinRequest } from './twin';

export type SObject = Record<string, unknown> & { Id: string };

const PREFIX: Record<string, string> = {
	Lead: '00Q',
	Contact: '003',
	Task: '00T',
	Individual: '0PK',
	ContactPointTypeConsent: '0ZY',
};
/** Boolean fields: Salesforce refuses a text where one is expected. */
const BOOLEANS = ['DoNotCall', 'HasOptedOutOfEmail'];
/** Fields each object must be created with. */
const REQUIRED: Record<string, string[]> = {
	Lead: ['LastName', 'Company'],
	Contact: ['LastName'],
	Task: [],
	Individual: ['LastName'],
	ContactPointTypeConsent: ['PartyId'],
};

export class SalesforceTwin extends Twin {
	readonly name = 'salesforce';
	readonly hosts: string[];
	/** With Data Protection and Privacy on: a person's Individual, and its consent records per contact point type. */
	readonly records: Record<string, SObject[]> = {
		Lead: [],
		Contact: [],
		Task: [],
		Individual: [],
		ContactPointTypeConsent: [],
	};

	constructor(
		readonly accessToken: string,
		/** The org's My Domain: `<it>.my.salesforce.com`, the credential's instance URL. */
		readonly domain = 'unpod-twin',
	) {
		super();
		this.hosts = [`${domain}.my.salesforce.com`];
	}

	get instanceUrl(): string {
		return `https://${this.hosts[0]}`;
	}

	add(type: string, fields: Record<string, unknown>): SObject {
		const id = `${PREFIX[type] ?? '001'}8d00000${String(this.nextId(10_000)).padStart(8, '0')}`;
		const record = { Id: id, ...(type === 'Lead' || type === 'Contact' ? { DoNotCall: false } : {}), ...fields };
		this.records[type] ??= [];
		this.records[type].push(record);
		return record;
	}

	protected authorized(request: TwinRequest): boolean {
		return request.headers.authorization === `Bearer ${this.accessToken}`;
	}

	protected unauthorized(): TwinReply {
		return { status: 401, body: [{ message: 'Session expired or invalid', errorCode: 'INVALID_SESSION_ID' }] };
	}

	/** Salesforce answers its API limits with 403 REQUEST_LIMIT_EXCEEDED, not 429. */
	protected tooMany(): TwinReply {
		return { status: 403, body: [{ message: 'TotalRequests Limit exceeded.', errorCode: 'REQUEST_LIMIT_EXCEEDED' }] };
	}

	protected route(request: TwinRequest): TwinReply | undefined {
		const { method, path, query, body } = request;
		if (method === 'GET' && /^\/services\/data\/v\d+\.\d+\/query\/?$/.test(path))
			return this.query(String(query.get('q') ?? ''));
		let params = match('/services/data/:version/sobjects/:type', path);
		if (method === 'POST' && params) {
			const type = this.typeOf(params.type);
			if (!type)
				return { status: 404, body: [{ message: `The requested resource does not exist`, errorCode: 'NOT_FOUND' }] };
			const missing = REQUIRED[type].filter((f) => body?.[f] === undefined || body[f] === '');
			if (missing.length)
				return {
					status: 400,
					body: [
						{
							message: `Required fields are missing: [${missing.join(', ')}]`,
							errorCode: 'REQUIRED_FIELD_MISSING',
							fields: missing,
						},
					],
				};
			const refused = this.notBoolean(body);
			if (refused) return refused;
			const record = this.add(type, body ?? {});
			return { status: 201, body: { id: record.Id, success: true, errors: [] } };
		}
		params = match('/services/data/:version/sobjects/:type/:id', path);
		if (method === 'PATCH' && params) {
			const type = this.typeOf(params.type);
			const record = type && this.records[type].find((r) => r.Id === params!.id);
			if (!record)
				return { status: 404, body: [{ message: 'The requested resource does not exist', errorCode: 'NOT_FOUND' }] };
			const refused = this.notBoolean(body);
			if (refused) return refused;
			Object.assign(record, body ?? {}, { Id: record.Id });
			return { status: 204, body: undefined };
		}
		if (method === 'GET' && params) {
			const type = this.typeOf(params.type);
			const record = type && this.records[type].find((r) => r.Id === params!.id);
			if (!record)
				return { status: 404, body: [{ message: 'The requested resource does not exist', errorCode: 'NOT_FOUND' }] };
			return { status: 200, body: { attributes: { type, url: path }, ...record } };
		}
		return undefined;
	}

	/** A boolean field given anything but a JSON boolean: Salesforce's JSON_PARSER_ERROR. */
	private notBoolean(body: Record<string, unknown> | undefined): TwinReply | undefined {
		const field = BOOLEANS.find((f) => body?.[f] !== undefined && typeof body[f] !== 'boolean');
		if (!field) return undefined;
		return {
			status: 400,
			body: [
				{
					message: `Cannot deserialize instance of boolean from VALUE_STRING value ${String(body![field])} or request may be missing a required field`,
					errorCode: 'JSON_PARSER_ERROR',
				},
			],
		};
	}

	/** sObject names are case-insensitive in the path (`task`, `Task`). */
	private typeOf(name: string): string | undefined {
		return Object.keys(this.records).find((t) => t.toLowerCase() === name.toLowerCase());
	}

	private query(soql: string): TwinReply {
		const found =
			/^\s*SELECT\s+(.+?)\s+FROM\s+(\w+)(?:\s+WHERE\s+(.+?))?(?:\s+ORDER\s+BY\s+(\w+)(?:\s+(ASC|DESC))?(?:\s+NULLS\s+(FIRST|LAST))?)?(?:\s+LIMIT\s+(\d+))?\s*$/i.exec(
				soql,
			);
		const malformed = (message: string): TwinReply => ({
			status: 400,
			body: [{ message, errorCode: 'MALFORMED_QUERY' }],
		});
		if (!found) return malformed(`unexpected token: ${soql.slice(0, 40)}`);
		const [, fieldList, object, where, orderBy, direction, nulls, limit] = found;
		const type = this.typeOf(object);
		if (!type)
			return {
				status: 400,
				body: [{ message: `sObject type '${object}' is not supported.`, errorCode: 'INVALID_TYPE' }],
			};
		const conditions: Array<(r: SObject) => boolean> = [];
		for (const part of where ? where.split(/\s+AND\s+/i) : []) {
			const condition = /^(\w+)\s*(=|!=)\s*(null|true|false|'((?:[^'\\]|\\.)*)')$/i.exec(part.trim());
			if (!condition) return malformed(`unexpected condition: ${part}`);
			const [, field, op, raw, quoted] = condition;
			const literal = raw.toLowerCase();
			const value =
				literal === 'null'
					? null
					: literal === 'true' || literal === 'false'
						? literal === 'true'
						: quoted.replace(/\\(.)/g, '$1');
			conditions.push((r) => {
				const actual = r[field] ?? null;
				const equal =
					value === null
						? actual === null
						: typeof value === 'boolean'
							? actual === value
							: String(actual ?? '') === value;
				return op === '=' ? equal : !equal;
			});
		}
		const fields = fieldList.split(',').map((f) => f.trim());
		const order = (a: SObject, b: SObject) => {
			if (!orderBy) return 0;
			// Salesforce puts nulls first in either direction unless told NULLS LAST; ISO dates sort as text.
			const [x, y] = [a[orderBy], b[orderBy]].map((v) => (v === undefined || v === null ? null : String(v)));
			if (x === null || y === null) {
				if (x === y) return 0;
				const nullFirst = nulls?.toUpperCase() !== 'LAST';
				return (x === null) === nullFirst ? -1 : 1;
			}
			return direction?.toUpperCase() === 'DESC' ? y.localeCompare(x) : x.localeCompare(y);
		};
		const rows = this.records[type]
			.filter((r) => conditions.every((c) => c(r)))
			.sort(order)
			.slice(0, limit ? Number(limit) : undefined);
		return {
			status: 200,
			body: {
				totalSize: rows.length,
				done: true,
				records: rows.map((r) => ({
					attributes: { type, url: `/services/data/v59.0/sobjects/${type}/${r.Id}` },
					...Object.fromEntries(fields.map((f) => [f, r[f] ?? null])),
				})),
			},
		};
	}
}
