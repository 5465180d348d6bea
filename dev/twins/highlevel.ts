/**
 * HighLevel's API v2 (services.leadconnectorhq.com) as the HighLevel
 * node (v2, OAuth2) and `@gohighlevel/api-client` use it: contacts of a location (listed with a
 * query, read, upserted by phone or email with tags and custom fields, updated with PUT: their
 * Do Not Disturb, `dnd` for every channel and `dndSettings` per channel) and their notes. Answers
 * and errors in HighLevel's shapes (highlevel.stoplight.io, Contacts API).
 * A request must name an API version (`Version: 2021-07-28`, as the node sends).
 */
import { match, Twin, type TwinReply, type TwinRequest } from './twin';

export interface HighLevelContact {
	id: string;
	locationId: string;
	firstName?: string;
	lastName?: string;
	contactName?: string;
	email?: string;
	phone?: string;
	tags: string[];
	customFields: Array<{ id: string; value: unknown }>;
	dateAdded: string;
	[key: string]: unknown;
}

/** The channels of `dndSettings`, and the statuses each may have. */
const DND_CHANNELS = ['Call', 'Email', 'SMS', 'WhatsApp', 'GMB', 'FB'];
const DND_STATUSES = ['active', 'inactive', 'permanent'];

/** API versions HighLevel's Contacts API answers to. */
const VERSIONS = ['2021-04-15', '2021-07-28', '2023-02-21'];

const id = (n: number) => `${n.toString(36)}Tw1nH1ghL3v3lC0`.slice(0, 20);

export class HighLevelTwin extends Twin {
	readonly name = 'highlevel';
	readonly hosts = ['services.leadconnectorhq.com'];
	readonly contacts = new Map<string, HighLevelContact>();
	readonly notes: Array<{ id: string; contactId: string; body: string; userId?: string; dateAdded: string }> = [];

	constructor(
		readonly accessToken: string,
		readonly locationId = 've9EPM428h8vShlRW1KT',
	) {
		super();
	}

	addContact(fields: Partial<HighLevelContact>): HighLevelContact {
		const contact: HighLevelContact = {
			id: id(this.nextId(50_000)),
			locationId: this.locationId,
			tags: [],
			customFields: [],
			dateAdded: new Date().toISOString(),
			...fields,
		};
		contact.contactName = [contact.firstName, contact.lastName].filter(Boolean).join(' ').toLowerCase();
		this.contacts.set(contact.id, contact);
		return contact;
	}

	notesOf(contactId: string) {
		return this.notes.filter((n) => n.contactId === contactId);
	}

	protected authorized(request: TwinRequest): boolean {
		return request.headers.authorization === `Bearer ${this.accessToken}`;
	}

	protected unauthorized(): TwinReply {
		return { status: 401, body: { statusCode: 401, message: 'Invalid JWT' } };
	}

	protected tooMany(): TwinReply {
		return { status: 429, body: { statusCode: 429, message: 'Too Many Requests' } };
	}

	protected route(request: TwinRequest): TwinReply | undefined {
		const { method, path, query, body } = request;
		// The node sends 2021-07-28 (the Contacts API's), the SDK 2023-02-21; a request without one is refused.
		if (!VERSIONS.includes(String(request.headers.version)))
			return { status: 400, body: { statusCode: 400, message: 'Version header was not found' } };
		if (method === 'GET' && /^\/contacts\/?$/.test(path)) return this.list(query);
		if (method === 'POST' && /^\/contacts\/upsert\/?$/.test(path)) return this.upsert(body ?? {});
		let params = match('/contacts/:id/notes', path);
		if (params) {
			const contact = this.contacts.get(params.id);
			if (!contact) return { status: 400, body: { statusCode: 400, message: 'Contact not found' } };
			if (method === 'POST') {
				if (!body?.body)
					return {
						status: 422,
						body: { statusCode: 422, message: ['body should not be empty'], error: 'Unprocessable Entity' },
					};
				const note = {
					id: id(this.nextId(80_000)),
					contactId: contact.id,
					body: String(body.body),
					userId: body.userId,
					dateAdded: new Date().toISOString(),
				};
				this.notes.push(note);
				return { status: 201, body: { note } };
			}
			if (method === 'GET') return { status: 200, body: { notes: this.notesOf(contact.id) } };
		}
		params = match('/contacts/:id', path);
		if (method === 'GET' && params) {
			const contact = this.contacts.get(params.id);
			return contact
				? { status: 200, body: { contact } }
				: { status: 400, body: { statusCode: 400, message: 'Contact not found' } };
		}
		if (method === 'PUT' && params) {
			const contact = this.contacts.get(params.id);
			if (!contact) return { status: 400, body: { statusCode: 400, message: 'Contact not found' } };
			const refused = this.badDnd(body ?? {});
			if (refused) return refused;
			this.applyDnd(contact, body ?? {});
			for (const key of ['firstName', 'lastName', 'email', 'phone', 'companyName'])
				if (body?.[key] !== undefined) contact[key] = body[key];
			if (Array.isArray(body?.tags)) contact.tags = body.tags.map(String);
			return { status: 200, body: { succeded: true, contact } };
		}
		return undefined;
	}

	/** A `dndSettings` channel or status HighLevel does not know: its validation error. */
	private badDnd(body: Record<string, any>): TwinReply | undefined {
		for (const [channel, setting] of Object.entries(body.dndSettings ?? {})) {
			const status = (setting as { status?: unknown })?.status;
			if (!DND_CHANNELS.includes(channel) || !DND_STATUSES.includes(String(status)))
				return {
					status: 422,
					body: {
						statusCode: 422,
						message: [`dndSettings.${channel}.status must be one of the following values: ${DND_STATUSES.join(', ')}`],
						error: 'Unprocessable Entity',
					},
				};
		}
		return undefined;
	}

	/** `dnd` for every channel; `dndSettings` merged channel by channel. */
	private applyDnd(contact: HighLevelContact, body: Record<string, any>): void {
		if (typeof body.dnd === 'boolean') contact.dnd = body.dnd;
		if (body.dndSettings)
			contact.dndSettings = { ...((contact.dndSettings as object | undefined) ?? {}), ...body.dndSettings };
	}

	/** GET /contacts/: the location's contacts, a `query` matching name, email, phone or a tag. */
	private list(query: URLSearchParams): TwinReply {
		if (query.get('locationId') !== this.locationId)
			return { status: 403, body: { statusCode: 403, message: 'The token does not have access to this location' } };
		const term = String(query.get('query') ?? '').toLowerCase();
		const digits = term.replace(/\D/g, '');
		const found = [...this.contacts.values()].filter(
			(c) =>
				!term ||
				String(c.contactName ?? '').includes(term) ||
				String(c.email ?? '')
					.toLowerCase()
					.includes(term) ||
				(digits.length >= 7 &&
					String(c.phone ?? '')
						.replace(/\D/g, '')
						.includes(digits)) ||
				c.tags.includes(term),
		);
		const after = query.get('startAfterId');
		const start = after ? found.findIndex((c) => c.id === after) + 1 : 0;
		const limit = Math.min(Number(query.get('limit') ?? 20), 100);
		const page = found.slice(start, start + limit);
		const last = page[page.length - 1];
		return {
			status: 200,
			body: {
				contacts: page,
				meta: {
					total: found.length,
					currentPage: 1,
					startAfterId: last?.id ?? null,
					startAfter: last ? Date.parse(last.dateAdded) : null,
				},
			},
		};
	}

	/** POST /contacts/upsert/: the contact with that phone (else email) updated, or a new one; tags and custom fields as sent. */
	private upsert(body: Record<string, any>): TwinReply {
		if (body.locationId !== this.locationId)
			return { status: 403, body: { statusCode: 403, message: 'The token does not have access to this location' } };
		if (!body.phone && !body.email)
			return { status: 400, body: { statusCode: 400, message: 'Either email or phone is required' } };
		const digits = (p: unknown) => String(p ?? '').replace(/\D/g, '');
		const existing = [...this.contacts.values()].find(
			(c) =>
				(body.phone && digits(c.phone) === digits(body.phone)) ||
				(body.email && c.email?.toLowerCase() === String(body.email).toLowerCase()),
		);
		const fields: Partial<HighLevelContact> = {};
		for (const key of ['firstName', 'lastName', 'email', 'phone', 'companyName', 'source'])
			if (body[key]) fields[key] = body[key];
		if (Array.isArray(body.tags)) fields.tags = body.tags.map(String);
		const refused = this.badDnd(body);
		if (refused) return refused;
		if (Array.isArray(body.customFields)) {
			const previous = existing?.customFields ?? [];
			const sent = body.customFields.map((f: { id: string; field_value?: unknown; value?: unknown }) => ({
				id: f.id,
				value: f.field_value ?? f.value,
			}));
			fields.customFields = [...previous.filter((p) => !sent.some((s: { id: string }) => s.id === p.id)), ...sent];
		}
		if (existing) {
			Object.assign(existing, fields);
			this.applyDnd(existing, body);
			return { status: 200, body: { new: false, contact: existing, traceId: 'twin-trace' } };
		}
		const created = this.addContact(fields);
		this.applyDnd(created, body);
		return { status: 201, body: { new: true, contact: created, traceId: 'twin-trace' } };
	}
}
