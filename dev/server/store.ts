/**
 * The local server's state: its tables (tables.ts), filled with the seed (seedTables.ts), whose
 * calls live as Unpod's do (callLifecycle.ts).
 */
import { CallLifecycle } from './callLifecycle';
import { seedTables } from './seedTables';

export class Store extends CallLifecycle {
	constructor(withSeed = true) {
		super();
		if (withSeed) seedTables(this);
	}
}
