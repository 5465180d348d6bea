/** The seeded data of the local Unpod server: two organizations, bridges, agents and spaces (seedTables.ts fills them in). */

/** Tokens and handles of the seeded data, for tests and the demo. */
export const SEED = {
	token: 'local-dev-token',
	/** The seed user's Studio login (a JWT), which Unpod's v1 pilot endpoint takes instead of the API token. */
	jwt: 'eyJsb2NhbC1kZXYtand0In0.acme-ops',
	orgHandle: 'acme',
	productId: 'unpod.dev',
	otherToken: 'globex-dev-token',
	otherOrgHandle: 'globex',
	bridgeSlug: 'main-line-a1b2c3',
	activeCredentialId: 101,
	inactiveCredentialId: 102,
	otherOrgCredentialId: 201,
	/** The carrier secrets Unpod holds for the seeded provider credentials: never in an n8n item or log. */
	providerSecrets: [
		'AC-local-twilio-key',
		'local-twilio-secret-9f2c',
		'local-meta-token-77d1',
		'local-plivo-token-31e0',
	],
	/** The Account SID of the active credential, which OpenAPI 2.0.0 shows (only its auth token is secret). */
	activeAccountSid: 'AC0local0twilio0main0000000000001',
	agentHandle: 'sales-assistant',
	secondAgentHandle: 'support-bot',
	draftAgentHandle: 'draft-agent',
	spaceToken: 'outbound-leads-7f3a9c',
	secondSpaceToken: 'renewals-2b8e41',
	otherSpaceToken: 'globex-space-9d0e11',
	/** A member of acme without owner or editor role. */
	viewerToken: 'viewer-dev-token',
	numberId: 5001,
	/** A number of the main bridge that is not ASSIGNED: connecting it fails. */
	releasedNumberId: 5002,
	/** The main bridge's number: the agent's side of its calls. */
	agentNumber: '+14155550100',
	/** A free number of the pool reserved for acme, and one any organization may take. */
	poolNumberId: 183,
	sharedPoolNumberId: 184,
	/** Who called acme's support agent twice in the seeded call log. */
	inboundCaller: '+14155550142',
};

/** Unpod's provider catalogue (`telephony/providers/`). */
export const PROVIDERS = [
	{ id: 1, name: 'Twilio', slug: 'twilio', description: 'Twilio Programmable Voice', icon: null, type: 'TELEPHONY' },
	{ id: 2, name: 'Plivo', slug: 'plivo', description: 'Plivo Voice API', icon: null, type: 'TELEPHONY' },
	{ id: 3, name: 'Exotel', slug: 'exotel', description: 'Exotel cloud telephony', icon: null, type: 'TELEPHONY' },
];

/** Seeded call logs, as `[direction, status, the other party, days ago, seconds]`. */
export const CALL_HISTORY: Array<['inbound' | 'outbound', string, string, number, number]> = [
	['outbound', 'completed', '+14155550177', 9, 62],
	['inbound', 'completed', '+14155550142', 6, 95],
	['outbound', 'failed', '+14155550178', 5, 0],
	['inbound', 'not_connected', '+442079460011', 3, 0],
	['inbound', 'completed', '+14155550142', 2, 41],
	['outbound', 'completed', '+14155550179', 1, 130],
];
