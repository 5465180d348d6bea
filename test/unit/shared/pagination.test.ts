import { collectPages, Page, toPage } from '../../../nodes/shared/pagination';

function list(total: number, opts: { cap?: number; withCount?: boolean } = {}) {
	const rows = Array.from({ length: total }, (_, i) => ({ id: i }));
	const calls: Array<[number, number]> = [];
	const fetch = async (page: number, pageSize: number): Promise<Page> => {
		calls.push([page, pageSize]);
		const size = Math.min(pageSize, opts.cap ?? pageSize);
		return { count: opts.withCount === false ? undefined : total, data: rows.slice((page - 1) * size, page * size) };
	};
	return { fetch, calls };
}

test('Return All walks pages of 100 and stops when count is reached', async () => {
	const { fetch, calls } = list(300);
	expect(await collectPages(fetch)).toHaveLength(300);
	expect(calls).toEqual([
		[1, 100],
		[2, 100],
		[3, 100],
	]);
});

test('without a count it stops on a short page', async () => {
	const { fetch, calls } = list(250, { withCount: false });
	expect(await collectPages(fetch)).toHaveLength(250);
	expect(calls).toHaveLength(3);
});

test('Limit asks for no more than it needs', async () => {
	const five = list(1000);
	expect(await collectPages(five.fetch, 5)).toEqual([0, 1, 2, 3, 4].map((id) => ({ id })));
	expect(five.calls).toEqual([[1, 5]]);
	const many = list(1000);
	expect(await collectPages(many.fetch, 150)).toHaveLength(150);
	expect(many.calls).toEqual([
		[1, 100],
		[2, 100],
	]);
});

test('a server that serves smaller pages than asked is still read to the end', async () => {
	const { fetch, calls } = list(120, { cap: 50 });
	expect(await collectPages(fetch)).toHaveLength(120);
	expect(calls).toHaveLength(3);
});

test('an empty list costs one request', async () => {
	const { fetch, calls } = list(0);
	expect(await collectPages(fetch)).toEqual([]);
	expect(calls).toHaveLength(1);
});

test('items seen twice in a shifting list are kept once by key', async () => {
	const pages = [[{ id: 'b' }, { id: 'a' }], [{ id: 'a' }]];
	const items = await collectPages(async (page) => ({ count: 3, data: pages[page - 1] ?? [] }), undefined, 'id');
	expect(items).toEqual([{ id: 'b' }, { id: 'a' }]);
});

describe('a filter the node applies itself', () => {
	test('the paginator reads full pages until Limit rows matched', async () => {
		const all = Array.from({ length: 450 }, (_, i) => ({
			task_id: `T${i}`,
			status: i % 50 === 0 ? 'failed' : 'completed',
		}));
		const asked: string[] = [];
		const rows = await collectPages(
			async (page, size) => {
				asked.push(`${page}/${size}`);
				return { count: all.length, data: all.slice((page - 1) * size, page * size) };
			},
			5,
			'task_id',
			(t) => t.status === 'failed',
		);
		expect(rows.map((r) => r.task_id)).toEqual(['T0', 'T50', 'T100', 'T150', 'T200']);
		expect(asked).toEqual(['1/100', '2/100', '3/100']);
	});
});

test('a page reads either envelope: data or results', () => {
	expect(toPage({ count: 2, data: [{ a: 1 }] })).toEqual({ count: 2, data: [{ a: 1 }] });
	expect(toPage({ count: 12, results: [{ id: 101 }] })).toEqual({ count: 12, data: [{ id: 101 }] });
});
