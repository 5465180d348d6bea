/**
 * The CRM and spreadsheet examples in a real n8n: its requests to HubSpot, Pipedrive,
 * Salesforce, HighLevel and Google go, through n8n's own proxy support, to local twins of
 * those APIs (dev/twins/), with a CA made for the run; Unpod's requests go to the local Unpod
 * server past the proxy.
 */
import { startTwins, type RunningTwins } from '../../dev/twins/serve';
import type { Twin } from '../../dev/twins/twin';
import type { N8n } from './n8n';
import { startProcessHarness, type Harness } from './setup';

type Credential = { id: string; name: string; type: string; data: Record<string, unknown> };

export interface TwinHarness {
	h: Harness<N8n>;
	twins: RunningTwins;
	close(): Promise<void>;
}

export async function startTwinHarness(twins: Twin[], credentials: Credential[]): Promise<TwinHarness> {
	const running = await startTwins(twins);
	try {
		const h = await startProcessHarness({}, undefined, credentials, running.env());
		return {
			h,
			twins: running,
			async close() {
				await h.close();
				await running.stop();
			},
		};
	} catch (error) {
		await running.stop();
		throw error;
	}
}

/** The credentials of the examples' other services, by type, as the tests name them. */
export function credentialRefs(credentials: Credential[]): Record<string, { id: string; name: string }> {
	return Object.fromEntries(credentials.map((c) => [c.type, { id: c.id, name: c.name }]));
}
