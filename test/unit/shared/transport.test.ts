import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { INode } from 'n8n-workflow';
import { httpStatusOf } from '../../../nodes/shared/errors';
import { sendToFirstServedPath, otherSpelling } from '../../../nodes/shared/transport';

test("the provider configurations' two spellings (source and docs) lead to each other; other paths have none", () => {
	expect(otherSpelling('/telephony/provider-configurations/101/')).toBe('/telephony/providers-configurations/101/');
	expect(otherSpelling('/telephony/providers-configurations/')).toBe('/telephony/provider-configurations/');
	expect(otherSpelling('/telephony/bridges/')).toBeUndefined();
});

describe('sendToFirstServedPath', () => {
	const node: INode = {
		id: 'n',
		name: 'Unpod Task',
		type: 'n8n-nodes-unpod.unpodTask',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	const answering = (statuses: Record<string, number>) => {
		const asked: string[] = [];
		const send = async (path: string) => {
			asked.push(path);
			const status = statuses[path];
			if (status) throw new NodeApiError(node, {}, { httpCode: String(status), message: `${status} at ${path}` });
			return `served by ${path}`;
		};
		return { asked, send };
	};

	test('a path answering 404 or 405 did nothing: the next is tried, and the one that served is named', async () => {
		for (const status of [404, 405]) {
			const { asked, send } = answering({ 'tasks/': status });
			expect(await sendToFirstServedPath(node, ['tasks/', 'tasks/create/'], send)).toEqual({
				answer: 'served by tasks/create/',
				path: 'tasks/create/',
			});
			expect(asked).toEqual(['tasks/', 'tasks/create/']);
		}
	});

	test('any other failure is reported at once; when no path serves, the first failure', async () => {
		const refused = answering({ 'tasks/': 400 });
		await expect(sendToFirstServedPath(node, ['tasks/', 'tasks/create/'], refused.send)).rejects.toThrow(
			'400 at tasks/',
		);
		expect(refused.asked).toEqual(['tasks/']);
		// An error that is not n8n's (no answer came) is n8n's, for the item, and not tried elsewhere.
		const cut = sendToFirstServedPath(
			node,
			['tasks/', 'tasks/create/'],
			async () => {
				throw new Error('socket hang up');
			},
			2,
		);
		await expect(cut).rejects.toBeInstanceOf(NodeOperationError);
		await expect(cut).rejects.toMatchObject({ message: 'socket hang up', context: { itemIndex: 2 } });
		const nowhere = answering({ 'tasks/': 404, 'tasks/create/': 405 });
		await expect(sendToFirstServedPath(node, ['tasks/', 'tasks/create/'], nowhere.send)).rejects.toThrow(
			'404 at tasks/',
		);
		// The second path's own failure, when it is not "not served", says more than the first's 404.
		const invalid = answering({ 'tasks/': 404, 'tasks/create/': 400 });
		await expect(sendToFirstServedPath(node, ['tasks/', 'tasks/create/'], invalid.send)).rejects.toThrow(
			'400 at tasks/create/',
		);
	});
});

test('httpStatusOf reads the mapped status, and none from an error that never got an answer', () => {
	expect(httpStatusOf({ httpCode: '429' })).toBe(429);
	expect(httpStatusOf({ httpCode: 404 })).toBe(404);
	expect(httpStatusOf(new Error('socket hang up'))).toBeNaN();
	expect(httpStatusOf(undefined)).toBeNaN();
});
