/** Credentials and workflows saved in a running n8n through its REST API, as the editor saves them. */
import type { AxiosInstance } from 'axios';
import type { Credential, Importer, N8n } from './n8n';
import { SAVES_WITH_ID } from './n8n-versions';
import type { Workflow } from './workflow-builders';

export class RestImporter implements Importer {
	/** The id n8n gave each credential, by the id the tests name it with. */
	private readonly credentialIds = new Map<string, string>();

	constructor(
		private readonly rest: AxiosInstance,
		private readonly n8n: N8n,
	) {}

	/**
	 * n8n gives each credential an id of its own. A workflow saved after names it by the tests' id
	 * and its name; n8n, finding no such id, takes the one credential of that type and name (as
	 * when a workflow is imported from a file). So the tests' credential names are unique per type.
	 */
	async credentials(credentials: Credential[]): Promise<void> {
		for (const { id, name, type, data } of credentials) {
			const res = await this.rest.post('/credentials', { name, type, data });
			if (res.status !== 200)
				throw new Error(`Saving credential ${name} failed: ${res.status} ${JSON.stringify(res.data).slice(0, 500)}`);
			this.credentialIds.set(id, res.data.data.id);
		}
	}

	/**
	 * Each under its own id: the others updated (a published one stays published, its new version
	 * a draft until activated again), new ones created; on n8n 1.x, whose API gives a new workflow
	 * an id of its own, created by one `n8n import:workflow`.
	 */
	async workflows(workflows: Workflow[]): Promise<void> {
		const byCli: Workflow[] = [];
		for (const workflow of workflows) {
			const { id, active: _active, ...fields } = workflow;
			const current = await this.rest.get(`/workflows/${id}`);
			if (current.status !== 200 && !SAVES_WITH_ID) {
				byCli.push(workflow);
				continue;
			}
			const res =
				current.status === 200
					? await this.rest.patch(`/workflows/${id}`, { ...fields, versionId: current.data.data.versionId })
					: await this.rest.post('/workflows', { ...fields, id });
			if (res.status !== 200)
				throw new Error(`Saving workflow ${id} failed: ${res.status} ${JSON.stringify(res.data).slice(0, 500)}`);
		}
		if (byCli.length) await this.n8n.importWorkflowsByCli(byCli);
	}

	/** A node's credentials as n8n knows them: the tests' ids changed to the ones n8n gave. */
	known(credentials: Record<string, { id: string; name: string }>): Record<string, { id: string; name: string }> {
		return Object.fromEntries(
			Object.entries(credentials).map(([type, { id, name }]) => [type, { id: this.credentialIds.get(id) ?? id, name }]),
		);
	}
}
