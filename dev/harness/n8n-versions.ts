/** What differs between the n8n versions the tests run, read from the installed runtime. */
import { existsSync, readFileSync } from 'fs';
import { join } from 'path';
import { N8N_VERSION, RUNTIME } from './paths';

const MAJOR = Number(N8N_VERSION.split('.')[0]);

/** Whether a trigger keeps its state across re-activation, so that tests can ask for a poll (n8n 2.x). */
export const POLL_BY_REACTIVATION = MAJOR >= 2;

/** Whether n8n's REST API creates a workflow under the id it is given (2.x; 1.x gives a new one). */
export const SAVES_WITH_ID = MAJOR >= 2;

/**
 * Whether a poll's emission loads the workflow's published version before it runs (n8n 2.41;
 * 2.8 runs the version it activated). There a poll in flight while a test unpublishes the
 * workflow to force the next poll loses what it emitted, its state already saved: such a test
 * waits for n8n's own next poll instead, or for a quiet moment before it forces one.
 */
export const EMISSION_LOADS_PUBLISHED = (() => {
	const factory = join(
		RUNTIME,
		'node_modules',
		'n8n',
		'dist',
		'workflows',
		'triggers',
		'trigger-execution-context.factory.js',
	);
	return existsSync(factory) && readFileSync(factory, 'utf8').includes('loadPublishedWorkflowData');
})();

/**
 * Where n8n takes a poll schedule under a minute, the one the tests give a trigger that polls
 * every minute, so that a test waiting for n8n's own next poll (nextPoll) waits up to 15 s, not
 * up to 60. n8n 1.x refuses only a seconds field with `*`; 2.41 refuses any; on 2.8 a test asks
 * for a poll by re-activation (POLL_BY_REACTIVATION).
 */
export const EVERY_MINUTE_POLLS_AS = MAJOR < 2 ? { mode: 'custom', cronExpression: '0-59/15 * * * * *' } : undefined;
