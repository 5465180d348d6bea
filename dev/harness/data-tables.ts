/** n8n's Data Tables through its REST API, as a user works with them in the Data tables tab. */
import type { AxiosInstance } from 'axios';

export class DataTables {
	/** Where the owner's data tables live, once read. */
	private tablesPath?: string;

	constructor(private readonly rest: AxiosInstance) {}

	/** Where the owner's data tables live: their personal project, read once (a test reads rows every half second). */
	private async path(): Promise<string> {
		if (this.tablesPath) return this.tablesPath;
		const project = await this.rest.get('/projects/personal');
		if (project.status !== 200) throw new Error(`Reading the personal project failed: ${project.status}`);
		return (this.tablesPath = `/projects/${project.data.data.id}/data-tables`);
	}

	/** Creates an n8n Data Table with these columns and rows, as a user does in the Data tables tab; returns its id. */
	async create(
		name: string,
		columns: Array<{ name: string; type: 'string' | 'number' | 'boolean' | 'date' }>,
		rows: Array<Record<string, unknown>>,
	): Promise<string> {
		const path = await this.path();
		const created = await this.rest.post(path, { name, columns });
		if (created.status !== 200)
			throw new Error(`Creating data table ${name} failed: ${created.status} ${JSON.stringify(created.data)}`);
		const id = String(created.data.data.id);
		await this.insert(id, rows);
		return id;
	}

	/** Adds rows to a data table, as its Insert button (or an Insert Row node) does. */
	async insert(id: string, rows: Array<Record<string, unknown>>): Promise<void> {
		const path = await this.path();
		const inserted = await this.rest.post(`${path}/${id}/insert`, { data: rows, returnType: 'count' });
		if (inserted.status !== 200)
			throw new Error(`Inserting rows failed: ${inserted.status} ${JSON.stringify(inserted.data)}`);
	}

	/** Sets `data` on the rows whose columns equal `where`, as a user edits a row in the Data tables tab. */
	async update(id: string, where: Record<string, string>, data: Record<string, unknown>): Promise<void> {
		const path = await this.path();
		const filter = {
			type: 'and',
			filters: Object.entries(where).map(([columnName, value]) => ({ columnName, condition: 'eq', value })),
		};
		const updated = await this.rest.patch(`${path}/${id}/rows`, { filter, data });
		if (updated.status !== 200)
			throw new Error(`Updating rows failed: ${updated.status} ${JSON.stringify(updated.data)}`);
	}

	/** Every row of a data table, in insertion order (n8n's REST API gives 50 a page). */
	async rows(id: string): Promise<Array<Record<string, any>>> {
		const path = `${await this.path()}/${id}/rows`;
		const rows: Array<Record<string, any>> = [];
		for (;;) {
			const res = await this.rest.get(path, { params: { take: 50, skip: rows.length, sortBy: 'id:asc' } });
			if (res.status !== 200)
				throw new Error(`Reading data table rows failed: ${res.status} ${JSON.stringify(res.data)}`);
			const { count, data } = res.data.data as { count: number; data: Array<Record<string, any>> };
			rows.push(...data);
			if (!data.length || rows.length >= count) return rows;
		}
	}
}
