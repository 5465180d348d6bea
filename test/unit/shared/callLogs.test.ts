/** Call logs as Unpod lists them: the filters as Unpod reads them (Direction included), and Simplify. */
import { callLogQuery, callTypeQuery, simplifyCallLog, unpodDateTime } from '../../../nodes/shared/callLogs';

test('Direction All asks for every call; Inbound or Outbound ask Unpod by call_type', () => {
	expect(callTypeQuery('all')).toEqual({});
	expect(callTypeQuery(undefined)).toEqual({});
	expect(callTypeQuery('inbound')).toEqual({ call_type: 'inbound' });
	expect(callLogQuery({ direction: 'outbound' }).qs).toEqual({ call_type: 'outbound' });
	expect(callLogQuery({ direction: 'all' }).qs).toEqual({});
});

describe('callLogQuery', () => {
	test("times go in Unpod's day-first form and are checked by the node, which Unpod does by date only", () => {
		const { qs, match } = callLogQuery({
			from: '2026-11-20T09:30:00Z',
			to: '2026-11-21T18:00:05.000Z',
		});
		// Both of Unpod's forms: the source's start_time / end_time, the 2026 docs' start_date / end_date.
		expect(qs).toEqual({
			start_time: '20-11-2026 09:30:00',
			end_time: '21-11-2026 18:00:05',
			start_date: '2026-11-20',
			end_date: '2026-11-21',
		});
		const row = (start: string, end: string) => ({ id: 1, start_time: start, end_time: end });
		expect(match!(row('2026-11-20T09:30:00.000000Z', '2026-11-20T09:31:00Z'))).toBe(true);
		// Same day as the filter, earlier time: Unpod lists it, the node does not keep it.
		expect(match!(row('2026-11-20T08:00:00Z', '2026-11-20T08:01:00Z'))).toBe(false);
		expect(match!(row('2026-11-21T17:59:00Z', '2026-11-21T18:00:06Z'))).toBe(false);
	});

	test('the other filters are sent as Unpod names them; a call id must be the id itself', () => {
		const { qs, match } = callLogQuery({
			direction: 'inbound',
			status: ' completed ',
			sourceNumber: '+1415',
			destinationNumber: '+4420',
			bridgeName: 'Main',
			callId: '391',
		});
		expect(qs).toEqual({
			call_type: 'inbound',
			call_status: 'completed',
			source_number: '+1415',
			destination_number: '+4420',
			bridge: 'Main',
			call_id: '391',
		});
		// Unpod's call_id matches any id containing it.
		expect(match!({ id: 391 })).toBe(true);
		expect(match!({ id: 39136 })).toBe(false);
		expect(callLogQuery({}).match).toBeUndefined();
	});

	test('a date given without a zone is UTC', () => {
		expect(unpodDateTime(Date.UTC(2026, 0, 5, 7, 8, 9))).toBe('05-01-2026 07:08:09');
		expect(callLogQuery({ from: '2026-01-05' }).qs).toEqual({
			start_time: '05-01-2026 00:00:00',
			start_date: '2026-01-05',
		});
	});
});

test('Simplify flattens related records to names, times to ISO, the duration to whole seconds', () => {
	expect(
		simplifyCallLog({
			id: 39136,
			call_status: 'completed',
			end_reason: 'Customer Ended The Call',
			call_type: 'inbound',
			organization: { id: 1, name: 'Acme' },
			product_id: 'unpod.dev',
			bridge: { id: 1, name: 'Main Line' },
			agent: { id: 573, name: 'Support Bot' },
			space: null,
			creation_time: '2025-11-30T18:31:35Z',
			start_time: '2025-11-30T18:30:24.041916Z',
			end_time: '2025-11-30T18:31:20.669045Z',
			call_duration: 56.627129,
			source_number: '+919876543210',
			destination_number: '911234567890',
		}),
	).toEqual({
		call_log_id: 39136,
		direction: 'inbound',
		status: 'completed',
		end_reason: 'Customer Ended The Call',
		source_number: '+919876543210',
		destination_number: '911234567890',
		start_time: '2025-11-30T18:30:24.041Z',
		end_time: '2025-11-30T18:31:20.669Z',
		duration: 57,
		agent: 'Support Bot',
		space: null,
		bridge: 'Main Line',
		logged: '2025-11-30T18:31:35.000Z',
	});
});
