import type { IDataObject } from 'n8n-workflow';
import { collectPages, toPage } from './pagination';
import type { RowMatch } from './pagination';
import type { WaitBudget } from './retry';
import { runTasksPath } from './tasks';
import { unpodApiRequest } from './transport';
import type { UnpodContext } from './transport';

/**
 * Every task of one run, read with the one paginator: how Call and Wait follows its calls,
 * Follow Up reads documents back and an approval reads its calls. With `stopAfter`, reading
 * stops once that many rows matched.
 */
export async function readRunTasks(
	context: UnpodContext,
	space: string,
	runId: string,
	options: { itemIndex?: number; budget?: WaitBudget; stopAfter?: { count: number; match: RowMatch } } = {},
): Promise<IDataObject[]> {
	const { stopAfter } = options;
	return await collectPages(
		async (page, pageSize) =>
			toPage(
				await unpodApiRequest.call(context, {
					method: 'GET',
					path: runTasksPath(space, runId),
					qs: { page, page_size: pageSize },
					subject: `run ${runId}`,
					itemIndex: options.itemIndex,
					budget: options.budget,
				}),
			),
		stopAfter?.count,
		stopAfter ? 'task_id' : undefined,
		stopAfter?.match,
	);
}
