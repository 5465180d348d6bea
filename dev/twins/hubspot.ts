/**
 * HubSpot's API as the HubSpot node (v2, private app token) and `@hubspot/api-client` use it:
 * contacts (CRM v3 search and read, the v1 create-or-update by email) and call engagements
 * (v1). Answers and errors in HubSpot's shapes (developers.hubspot.com, CRM API and legacy v1).
 */
import { match, Twin, type TwinReply, type TwinRequest } from './twin';

export interface HubSpotContact {
	id: string;
	properties: Record<string, string>;
	createdAt: string;
	updatedAt: string;
}

export interface HubSpotEngagement {
	engagement: { id: number; portalId: number; active: boolean; type: string; createdAt: number; timestamp: number };
	associations: Record<'contactIds' | 'companyIds' | 'dealIds' | 'ownerIds' | 'ticketIds', number[]>;
	metadata: Record<string, unknown>;
}

const PORTAL_ID = 4_401_234;
/** What a contact search returns when no properties are asked for (HubSpot's default set). */
const DEFAULT_PROPERTIES = ['createdate', 'email', 'firstname', 'hs_object_id', 'lastmodifieddate', 'lastname'];
/** HubSpot's own contact properties the examples write, and the custom ones its note asks the user to create. */
const KNOWN_PROPERTIES = new Set([
	...DEFAULT_PROPERTIES,
	'phone',
	'company',
	'budget',
	'meeting_date',
	'decision_maker',
	'unpod_last_call_summary',
	'unpod_last_call_outcome',
	'unpod_task_ids',
	// The opt-out, a single checkbox ("true"/"false" as HubSpot writes it), named as the note names it.
	'unpod_do_not_call',
	'hs_lead_status',
]);

export class HubSpotTwin extends Twin {
	readonly name = 'hubspot';
	readonly hosts = ['api.hubapi.com'];
	readonly contacts = new Map<string, HubSpotContact>();
	readonly engagements: HubSpotEngagement[] = [];

	constructor(readonly token: string) {
		super();
	}

	addContact(properties: Record<string, string>): HubSpotContact {
		const now = new Date().toISOString();
		const id = String(this.nextId(51_000));
		const contact = {
			id,
			properties: { ...properties, hs_object_id: id, createdate: now, lastmodifieddate: now },
			createdAt: now,
			updatedAt: now,
		};
		this.contacts.set(id, contact);
		return contact;
	}

	callsOf(contactId: string): HubSpotEngagement[] {
		return this.engagements.filter((e) => e.associations.contactIds.includes(Number(contactId)));
	}

	protected authorized(request: TwinRequest): boolean {
		return request.headers.authorization === `Bearer ${this.token}`;
	}

	protected unauthorized(): TwinReply {
		return {
			status: 401,
			body: {
				status: 'error',
				message: 'Authentication credentials not found. This API supports OAuth 2.0 authentication.',
				correlationId: 'c0a8f7e2-0000-4000-8000-000000000401',
				category: 'INVALID_AUTHENTICATION',
			},
		};
	}

	protected tooMany(): TwinReply {
		return {
			status: 429,
			body: {
				status: 'error',
				message: 'You have reached your secondly limit.',
				errorType: 'RATE_LIMIT',
				correlationId: 'c0a8f7e2-0000-4000-8000-000000000429',
				policyName: 'SECONDLY',
			},
		};
	}

	protected route(request: TwinRequest): TwinReply | undefined {
		const { method, path, body } = request;
		if (method === 'POST' && path === '/crm/v3/objects/contacts/search') return this.search(body ?? {});
		let params = match('/crm/v3/objects/contacts/:id', path);
		if (method === 'GET' && params) {
			const contact = this.contacts.get(params.id);
			if (!contact) return this.notFound(`Object not found.  objectId are usually numeric.`);
			// HubSpot takes `properties=a,b` and `properties=a&properties=b` (the SDK's form) alike.
			const asked = request.query.getAll('properties').flatMap((p) => p.split(','));
			return { status: 200, body: this.v3(contact, asked.length ? asked : undefined) };
		}
		params = match('/contacts/v1/contact/createOrUpdate/email/:email', path);
		if (method === 'POST' && params) return this.upsert(params.email, body?.properties ?? []);
		if (method === 'POST' && path === '/engagements/v1/engagements') return this.engage(body ?? {});
		params = match('/engagements/v1/engagements/:id', path);
		if (method === 'GET' && params) {
			const found = this.engagements.find((e) => String(e.engagement.id) === params!.id);
			return found ? { status: 200, body: found } : this.notFound(`Engagement ${params.id} does not exist`);
		}
		return undefined;
	}

	private notFound(message: string): TwinReply {
		return { status: 404, body: { status: 'error', message, category: 'OBJECT_NOT_FOUND' } };
	}

	private v3(contact: HubSpotContact, properties: string[] = DEFAULT_PROPERTIES) {
		return {
			id: contact.id,
			properties: Object.fromEntries(properties.map((p) => [p, contact.properties[p] ?? null])),
			createdAt: contact.createdAt,
			updatedAt: contact.updatedAt,
			archived: false,
		};
	}

	/** CRM v3 search: filter groups OR'ed, filters within a group AND'ed; EQ, HAS_PROPERTY and NOT_HAS_PROPERTY. */
	private search(body: {
		filterGroups?: Array<{ filters: Array<Record<string, string>> }>;
		properties?: string[];
		limit?: number;
		after?: string;
	}): TwinReply {
		const groups = body.filterGroups ?? [];
		for (const filter of groups.flatMap((g) => g.filters)) {
			if (!['EQ', 'HAS_PROPERTY', 'NOT_HAS_PROPERTY'].includes(filter.operator))
				return {
					status: 400,
					body: {
						status: 'error',
						message: `The twin knows EQ, HAS_PROPERTY and NOT_HAS_PROPERTY, not ${filter.operator}`,
						category: 'VALIDATION_ERROR',
					},
				};
		}
		const holds = (contact: HubSpotContact, filter: Record<string, string>) =>
			filter.operator === 'HAS_PROPERTY'
				? Boolean(contact.properties[filter.propertyName])
				: filter.operator === 'NOT_HAS_PROPERTY'
					? !contact.properties[filter.propertyName]
					: String(contact.properties[filter.propertyName] ?? '').toLowerCase() ===
						String(filter.value ?? '').toLowerCase();
		const found = [...this.contacts.values()].filter(
			(c) => !groups.length || groups.some((g) => g.filters.every((f) => holds(c, f))),
		);
		const start = Number(body.after ?? 0);
		const limit = Math.min(Number(body.limit ?? 10), 200);
		const page = found.slice(start, start + limit);
		const properties = body.properties?.length ? body.properties : DEFAULT_PROPERTIES;
		return {
			status: 200,
			body: {
				total: found.length,
				results: page.map((c) => this.v3(c, properties)),
				...(start + limit < found.length ? { paging: { next: { after: String(start + limit) } } } : {}),
			},
		};
	}

	/** v1 create-or-update by email: unknown properties are refused, as HubSpot does, and nothing is written. */
	private upsert(email: string, properties: Array<{ property: string; value: unknown }>): TwinReply {
		const invalid = properties.filter((p) => !KNOWN_PROPERTIES.has(p.property));
		if (invalid.length)
			return {
				status: 400,
				body: {
					status: 'error',
					message: 'Property values were not valid',
					validationResults: invalid.map((p) => ({
						isValid: false,
						message: `Property "${p.property}" does not exist`,
						error: 'PROPERTY_DOESNT_EXIST',
						name: p.property,
					})),
					category: 'VALIDATION_ERROR',
				},
			};
		const values = Object.fromEntries(properties.map((p) => [p.property, String(p.value ?? '')]));
		const existing = [...this.contacts.values()].find((c) => c.properties.email?.toLowerCase() === email.toLowerCase());
		if (existing) {
			Object.assign(existing.properties, values, { lastmodifieddate: new Date().toISOString() });
			existing.updatedAt = existing.properties.lastmodifieddate;
			return { status: 200, body: { vid: Number(existing.id), isNew: false } };
		}
		const created = this.addContact({ ...values, email });
		return { status: 200, body: { vid: Number(created.id), isNew: true } };
	}

	private engage(body: {
		engagement?: { type?: string; ownerId?: number; timestamp?: number };
		associations?: Record<string, unknown[]>;
		metadata?: Record<string, unknown>;
	}): TwinReply {
		const type = String(body.engagement?.type ?? '');
		if (!['CALL', 'EMAIL', 'MEETING', 'TASK', 'NOTE'].includes(type))
			return {
				status: 400,
				body: { status: 'error', message: `Invalid engagement type ${type}`, category: 'VALIDATION_ERROR' },
			};
		const ids = (key: string) => (body.associations?.[key] ?? []).map(Number);
		const missing = ids('contactIds').filter((id) => !this.contacts.has(String(id)));
		if (missing.length)
			return {
				status: 400,
				body: {
					status: 'error',
					message: `Contact ids not found: ${missing.join(', ')}`,
					category: 'VALIDATION_ERROR',
				},
			};
		const now = Date.now();
		const engagement: HubSpotEngagement = {
			engagement: {
				id: this.nextId(90_000_000),
				portalId: PORTAL_ID,
				active: true,
				type,
				createdAt: now,
				timestamp: body.engagement?.timestamp ?? now,
			},
			associations: {
				contactIds: ids('contactIds'),
				companyIds: ids('companyIds'),
				dealIds: ids('dealIds'),
				ownerIds: ids('ownerIds'),
				ticketIds: ids('ticketIds'),
			},
			metadata: body.metadata ?? {},
		};
		this.engagements.push(engagement);
		return { status: 200, body: engagement };
	}
}
