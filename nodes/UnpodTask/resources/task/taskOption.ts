import type { INodePropertyOptions } from 'n8n-workflow';
import type { Operation } from '../../../shared/itemLoop';
import type { Waiting } from '../../waitForCalls/park';

/** A Task operation as its file declares it: what the editor lists, how it runs, how it resumes. */
export interface TaskOption extends INodePropertyOptions {
	value: string;
	action: string;
	description: string;
	/** Create, Call and Wait, Follow Up and the approval take all items at once (many contacts a request). */
	run: Operation;
	/** How an operation that puts the execution to wait is resumed. */
	waits?: Waiting;
}
