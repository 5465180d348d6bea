/** Fills the local server's tables with the seed (seed.ts): users, organizations, bridges, numbers, agents, spaces and a call log. */
import { CALL_HISTORY, SEED } from './seed';
import type { Tables } from './tables';

export function seedTables(store: Tables): void {
	store.jwts.set(SEED.jwt, SEED.token);
	store.users.set(SEED.token, {
		token: SEED.token,
		email: 'ops@acme.example',
		full_name: 'Acme Operations',
		orgs: { [SEED.orgHandle]: 'owner' },
	});
	store.users.set(SEED.otherToken, {
		token: SEED.otherToken,
		email: 'it@globex.example',
		full_name: 'Globex IT',
		orgs: { [SEED.otherOrgHandle]: 'owner' },
	});
	store.users.set(SEED.viewerToken, {
		token: SEED.viewerToken,
		email: 'viewer@acme.example',
		full_name: 'Acme Viewer',
		orgs: { [SEED.orgHandle]: 'viewer' },
	});
	store.addOrg(SEED.orgHandle, 'Acme Calls');
	store.addOrg(SEED.otherOrgHandle, 'Globex');

	store.credentials.set(SEED.activeCredentialId, {
		id: SEED.activeCredentialId,
		org: SEED.orgHandle,
		name: 'Twilio Main',
		provider: 1,
		provider_details: { id: 1, name: 'Twilio', type: 'TELEPHONY' },
		active: true,
		api_key: 'AC-local-twilio-key',
		api_secret: 'local-twilio-secret-9f2c',
		meta_json: [{ meta_key: 'auth_token', meta_value: 'local-meta-token-77d1' }],
		sip_url: 'sip.twilio.local',
		account_sid: SEED.activeAccountSid,
		auth_token: 'local-twilio-secret-9f2c',
		created_at: '2026-02-07T10:00:00Z',
	});
	store.credentials.set(SEED.inactiveCredentialId, {
		id: SEED.inactiveCredentialId,
		org: SEED.orgHandle,
		name: 'Plivo Legacy',
		provider: 2,
		provider_details: { id: 2, name: 'Plivo', type: 'TELEPHONY' },
		active: false,
		account_sid: 'MA0local0plivo0legacy0',
		auth_token: 'local-plivo-token-31e0',
		created_at: '2026-02-10T09:00:00Z',
	});
	store.credentials.set(SEED.otherOrgCredentialId, {
		id: SEED.otherOrgCredentialId,
		org: SEED.otherOrgHandle,
		name: 'Globex Twilio',
		provider: 1,
		provider_details: { id: 1, name: 'Twilio', type: 'TELEPHONY' },
		active: true,
		account_sid: 'AC0local0globex0000000000000000001',
		created_at: '2026-02-11T09:00:00Z',
	});

	store.addBridge(SEED.orgHandle, {
		name: 'Main Line',
		slug: SEED.bridgeSlug,
		description: 'Outbound sales line',
		region: 'US',
		documents_status: 'verified',
		status: 'ACTIVE',
		numbers: [
			{
				id: 1,
				number_id: SEED.numberId,
				number: '+14155550100',
				state: 'ASSIGNED',
				active: true,
				channels_count: 2,
				status: 'active',
				provider_credential: null,
				agent_id: null,
			},
			{
				id: 2,
				number_id: SEED.releasedNumberId,
				number: '+14155550199',
				state: 'RELEASED',
				active: false,
				channels_count: 1,
				status: 'inactive',
				provider_credential: null,
				agent_id: null,
			},
		],
	});
	store.addBridge(SEED.orgHandle, { name: 'Support Line', status: 'DRAFT', region: 'EU' });
	store.poolNumbers.push(
		{
			id: SEED.poolNumberId,
			number: '+14155550123',
			active: true,
			state: 'NOT_ASSIGNED',
			org: SEED.orgHandle,
			agent_number: false,
		},
		{
			id: SEED.sharedPoolNumberId,
			number: '+14155550124',
			active: true,
			state: 'NOT_ASSIGNED',
			org: null,
			agent_number: false,
		},
		{ id: 185, number: '+14155550125', active: true, state: 'ASSIGNED', org: SEED.orgHandle, agent_number: false },
		{ id: 186, number: '+14155550126', active: false, state: 'NOT_ASSIGNED', org: SEED.orgHandle, agent_number: false },
		{ id: 187, number: '+14155550127', active: true, state: 'NOT_ASSIGNED', org: SEED.orgHandle, agent_number: true },
		{
			id: 188,
			number: '+442079460188',
			active: true,
			state: 'NOT_ASSIGNED',
			org: SEED.otherOrgHandle,
			agent_number: false,
		},
	);
	store.addBridge(SEED.otherOrgHandle, { name: 'Globex Line', region: 'EU' });

	store.addAgent(SEED.orgHandle, SEED.agentHandle, 'Sales Assistant', 'published', 'Qualify inbound leads');
	store.addAgent(SEED.orgHandle, SEED.secondAgentHandle, 'Support Bot', 'published', 'Renewal reminders');
	store.addAgent(SEED.orgHandle, SEED.draftAgentHandle, 'Draft Agent', 'draft');
	store.addAgent(SEED.otherOrgHandle, 'globex-agent', 'Globex Agent');

	store.addSpace(SEED.orgHandle, SEED.spaceToken, 'Outbound Leads', [SEED.agentHandle]);
	store.addSpace(SEED.orgHandle, SEED.secondSpaceToken, 'Renewals', [SEED.secondAgentHandle]);
	store.addSpace(SEED.otherOrgHandle, SEED.otherSpaceToken, 'Globex Space', ['globex-agent']);

	const day = 86_400_000;
	const now = Date.now();
	for (const [direction, status, other, daysAgo, seconds] of CALL_HISTORY) {
		const startMs = now - daysAgo * day;
		store.addCallLog({
			org: SEED.orgHandle,
			call_status: status,
			end_reason: seconds ? 'Customer Ended The Call' : 'No Answer',
			call_type: direction,
			agent: direction === 'inbound' ? SEED.secondAgentHandle : SEED.agentHandle,
			space: direction === 'inbound' ? SEED.secondSpaceToken : SEED.spaceToken,
			startMs,
			endMs: startMs + seconds * 1000,
			// Logged when the call ended, as the post-call flow does.
			createdUs: (startMs + seconds * 1000 + 5000) * 1000,
			source_number: SEED.agentNumber,
			destination_number: other,
		});
	}
	store.addCallLog({
		org: SEED.otherOrgHandle,
		call_status: 'completed',
		end_reason: 'Customer Ended The Call',
		call_type: 'inbound',
		agent: 'globex-agent',
		space: SEED.otherSpaceToken,
		startMs: now - day,
		endMs: now - day + 30_000,
		createdUs: (now - day + 35_000) * 1000,
		source_number: '+442079460188',
		destination_number: '+442079460999',
	});
}
