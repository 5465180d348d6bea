/**
 * Pipedrive's API v1 as the Pipedrive node (API token) and the `pipedrive` SDK use it: persons
 * (search by phone, read, create, update, custom fields by their 40-character keys), deals
 * (listed by stage, their person's phones inline; moved to a stage) and activities. Answers in
 * Pipedrive's envelope `{success, data, additional_data}` (developers.pipedrive.com, v1).
 */
import { createHash } from 'crypto';
import { match, Twin, type TwinReply, type TwinRequest } from './twin';

type Record_ = Record<string, unknown>;
export interface PipedrivePerson extends Record_ {
	id: number;
	name: string;
	phone: Array<{ value: string; primary: boolean; label: string }>;
	email: Array<{ value: string; primary: boolean; label: string }>;
}
export interface PipedriveDeal extends Record_ {
	id: number;
	title: string;
	stage_id: number;
	person_id: number;
}

/** A custom field's key: 40 hex characters, as Pipedrive makes them. */
const keyOf = (name: string) => createHash('sha1').update(name).digest('hex');

export class PipedriveTwin extends Twin {
	readonly name = 'pipedrive';
	readonly hosts = ['api.pipedrive.com'];
	readonly persons = new Map<number, PipedrivePerson>();
	readonly deals = new Map<number, PipedriveDeal>();
	readonly activities: Record_[] = [];
	/** The person fields a user created (the examples' note asks for "Unpod calls"). */
	readonly personFields: Array<{ id: number; key: string; name: string; field_type: string }> = [];
	/** The deal fields a user created (the calls example's note asks for the consent's four). */
	readonly dealFields: Array<{ id: number; key: string; name: string; field_type: string }> = [];

	constructor(readonly apiToken: string) {
		super();
	}

	addPersonField(name: string, fieldType = 'text'): string {
		const key = keyOf(name);
		this.personFields.push({ id: this.nextId(9000), key, name, field_type: fieldType });
		return key;
	}

	addDealField(name: string, fieldType = 'varchar'): string {
		const key = keyOf(name);
		this.dealFields.push({ id: this.nextId(9000), key, name, field_type: fieldType });
		return key;
	}

	addPerson(name: string, phone?: string, email?: string, custom: Record_ = {}): PipedrivePerson {
		const id = this.nextId(100);
		const person: PipedrivePerson = {
			id,
			name,
			phone: phone ? [{ value: phone, primary: true, label: 'work' }] : [],
			email: email ? [{ value: email, primary: true, label: 'work' }] : [],
			open_deals_count: 0,
			add_time: new Date().toISOString().replace('T', ' ').slice(0, 19),
			...custom,
		};
		this.persons.set(id, person);
		return person;
	}

	addDeal(title: string, person: PipedrivePerson, stageId: number): PipedriveDeal {
		const deal = {
			id: this.nextId(500),
			title,
			stage_id: stageId,
			person_id: person.id,
			status: 'open',
			currency: 'USD',
			value: 0,
		};
		this.deals.set(deal.id, deal);
		(person.open_deals_count as number)++;
		return deal;
	}

	/** A person's custom field value, by the field's name. */
	field(person: PipedrivePerson, name: string): unknown {
		return person[keyOf(name)];
	}

	/** Pipedrive takes the token as `api_token` in the query (the n8n node) or an `x-api-token` header (its SDK). */
	protected authorized(request: TwinRequest): boolean {
		return request.query.get('api_token') === this.apiToken || request.headers['x-api-token'] === this.apiToken;
	}

	protected unauthorized(): TwinReply {
		return {
			status: 401,
			body: {
				success: false,
				error: 'unauthorized access',
				errorCode: 401,
				error_info: 'Please check developers.pipedrive.com',
			},
		};
	}

	protected tooMany(): TwinReply {
		return {
			status: 429,
			body: {
				success: false,
				error: 'Request over limit',
				errorCode: 429,
				error_info: 'Please check developers.pipedrive.com',
			},
		};
	}

	private ok(data: unknown, additional?: Record_): TwinReply {
		return { status: 200, body: { success: true, data, ...(additional ? { additional_data: additional } : {}) } };
	}

	private notFound(what: string): TwinReply {
		return {
			status: 404,
			body: {
				success: false,
				error: `${what} not found`,
				errorCode: 404,
				error_info: 'Please check developers.pipedrive.com',
			},
		};
	}

	/** A deal as GET /deals lists it: the person inline with name, phones and emails. */
	private dealView(deal: PipedriveDeal) {
		const person = this.persons.get(deal.person_id);
		return {
			...deal,
			person_id: person ? { name: person.name, email: person.email, phone: person.phone, value: person.id } : null,
			person_name: person?.name ?? null,
		};
	}

	protected route(request: TwinRequest): TwinReply | undefined {
		const { method, path, query, body } = request;
		if (method === 'GET' && path === '/v1/personFields')
			return this.ok(
				[
					{ id: 1, key: 'name', name: 'Name', field_type: 'varchar' },
					{ id: 2, key: 'phone', name: 'Phone', field_type: 'phone' },
					{ id: 3, key: 'email', name: 'Email', field_type: 'varchar' },
					...this.personFields,
				],
				{ pagination: { start: 0, limit: 100, more_items_in_collection: false } },
			);
		if (method === 'GET' && path === '/v1/dealFields')
			return this.ok(
				[
					{ id: 12451, key: 'title', name: 'Title', field_type: 'varchar' },
					{ id: 12452, key: 'value', name: 'Value', field_type: 'monetary' },
					...this.dealFields,
				],
				{ pagination: { start: 0, limit: 100, more_items_in_collection: false } },
			);
		if (method === 'GET' && path === '/v1/persons/search') return this.searchPersons(query);
		if (method === 'POST' && path === '/v1/persons') {
			if (!body?.name) return { status: 400, body: { success: false, error: 'Name must be given.', errorCode: 400 } };
			const person = this.addPerson(
				String(body.name),
				body.phone ? String(body.phone) : undefined,
				body.email ? String(body.email) : undefined,
			);
			return { status: 201, body: { success: true, data: person } };
		}
		let params = match('/v1/persons/:id', path);
		if (params) {
			const person = this.persons.get(Number(params.id));
			if (!person) return this.notFound('Person');
			if (method === 'GET') return this.ok(person);
			if (method === 'PUT') {
				const unknown = Object.keys(body ?? {}).filter(
					(k) => /^[0-9a-f]{40}$/.test(k) && !this.personFields.some((f) => f.key === k),
				);
				if (unknown.length)
					return { status: 400, body: { success: false, error: `Unknown field ${unknown[0]}`, errorCode: 400 } };
				Object.assign(person, body);
				return this.ok(person);
			}
		}
		if (method === 'GET' && path === '/v1/deals') {
			const stage = query.get('stage_id');
			const all = [...this.deals.values()].filter((d) => !stage || String(d.stage_id) === stage);
			const start = Number(query.get('start') ?? 0);
			const limit = Number(query.get('limit') ?? 100);
			const page = all.slice(start, start + limit);
			return this.ok(page.length ? page.map((d) => this.dealView(d)) : null, {
				pagination: {
					start,
					limit,
					more_items_in_collection: start + limit < all.length,
					...(start + limit < all.length ? { next_start: start + limit } : {}),
				},
			});
		}
		params = match('/v1/deals/:id', path);
		if (params) {
			const deal = this.deals.get(Number(params.id));
			if (!deal) return this.notFound('Deal');
			if (method === 'GET') return this.ok(this.dealView(deal));
			if (method === 'PUT') {
				Object.assign(deal, body, body?.stage_id !== undefined ? { stage_id: Number(body.stage_id) } : {});
				return this.ok(this.dealView(deal));
			}
		}
		if (method === 'POST' && path === '/v1/activities') {
			if (!body?.subject && !body?.type)
				return { status: 400, body: { success: false, error: 'Subject or type must be given.', errorCode: 400 } };
			const activity = {
				id: this.nextId(7000),
				...body,
				add_time: new Date().toISOString().replace('T', ' ').slice(0, 19),
			};
			this.activities.push(activity);
			return { status: 201, body: { success: true, data: activity } };
		}
		params = match('/v1/activities/:id', path);
		if (method === 'GET' && params) {
			const found = this.activities.find((a) => String(a.id) === params!.id);
			return found ? this.ok(found) : this.notFound('Activity');
		}
		return undefined;
	}

	/** Persons by a term in the given fields; exact_match compares the whole value. */
	private searchPersons(query: URLSearchParams): TwinReply {
		const term = String(query.get('term') ?? '');
		if (term.length < 2)
			return {
				status: 400,
				body: { success: false, error: 'Term must be at least 2 characters long', errorCode: 400 },
			};
		const fields = (query.get('fields') ?? 'custom_fields,email,notes,phone,name').split(',');
		const exact = query.get('exact_match') === 'true';
		const hit = (value: string) =>
			exact ? value.toLowerCase() === term.toLowerCase() : value.toLowerCase().includes(term.toLowerCase());
		const found = [...this.persons.values()].filter(
			(p) =>
				(fields.includes('phone') && p.phone.some((x) => hit(x.value))) ||
				(fields.includes('email') && p.email.some((x) => hit(x.value))) ||
				(fields.includes('name') && hit(p.name)),
		);
		const limit = Number(query.get('limit') ?? 100);
		const items = found.slice(0, limit).map((p) => ({
			result_score: 1,
			item: {
				id: p.id,
				type: 'person',
				name: p.name,
				phones: p.phone.map((x) => x.value),
				emails: p.email.map((x) => x.value),
				visible_to: 3,
				custom_fields: [],
				notes: [],
			},
		}));
		return this.ok({ items }, { pagination: { start: 0, limit, more_items_in_collection: found.length > limit } });
	}
}
