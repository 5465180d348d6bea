/** The call log: its paths, the filters as the spec names them (Direction included), and Simplify. */
import { callLogPaths, callLogQuery, callTypeQuery, simplifyCallLog } from '../../../nodes/shared/callLogs';

test('Direction All asks for every call; Inbound or Outbound ask Unpod by call_type', () => {
	expect(callTypeQuery('all')).toEqual({});
	expect(callTypeQuery(undefined)).toEqual({});
	expect(callTypeQuery('inbound')).toEqual({ call_type: 'inbound' });
	expect(callLogQuery({ direction: 'outbound' }).qs).toEqual({ call_type: 'outbound' });
	expect(callLogQuery({ direction: 'all' }).qs).toEqual({});
});

test("the filters are the spec's two: call_type and call_status, All sending neither", () => {
	expect(callLogQuery({ direction: 'inbound', status: 'notConnected' }).qs).toEqual({
		call_type: 'inbound',
		call_status: 'notConnected',
	});
	expect(callLogQuery({ status: 'all' }).qs).toEqual({});
	expect(callLogQuery({ status: '' }).qs).toEqual({});
	expect(callLogQuery({}).qs).toEqual({});
});

test("a Status from an expression that is none of the spec's values is an error naming the field and the values", () => {
	expect(() => callLogQuery({ status: 'not_connected' })).toThrow(
		'Status "not_connected" is not one of Completed (completed), Not Connected (notConnected), Failed (failed)',
	);
	expect(() => callLogQuery({ status: 'Completed' })).toThrow('Status "Completed" is not one of');
	expect(callLogQuery({ status: ' failed ' }).qs).toEqual({ call_status: 'failed' });
});

test('the paths: cdr/ first, call-logs/ after; the one that served first once known', () => {
	expect(callLogPaths()).toEqual(['/cdr/', '/call-logs/']);
	expect(callLogPaths('/call-logs/')).toEqual(['/call-logs/', '/cdr/']);
	expect(callLogPaths('/elsewhere/')).toEqual(['/cdr/', '/call-logs/']);
});

test("Simplify flattens a cdr/ record from the spec's fields: bridge by name and id, times ISO, whole seconds", () => {
	expect(
		simplifyCallLog({
			id: 33364,
			call_status: 'failed',
			end_reason: 'call.in-progress.sip-completed-call',
			call_type: 'outbound',
			bridge: { id: 12, name: 'Acme Primary Bridge' },
			creation_time: '2025-11-08T05:32:29Z',
			start_time: '2025-11-08T05:29:43Z',
			end_time: '2025-11-08T05:32:28.686639Z',
			call_duration: 165.686639,
			source_number: '+15551234567',
			destination_number: '+15559876543',
			failure_source: 'carrier',
			sip_cause: '503 Service Unavailable',
		}),
	).toEqual({
		call_log_id: 33364,
		direction: 'outbound',
		status: 'failed',
		end_reason: 'call.in-progress.sip-completed-call',
		failure_source: 'carrier',
		sip_cause: '503 Service Unavailable',
		source_number: '+15551234567',
		destination_number: '+15559876543',
		start_time: '2025-11-08T05:29:43.000Z',
		end_time: '2025-11-08T05:32:28.686Z',
		duration: 166,
		bridge: 'Acme Primary Bridge',
		bridge_id: 12,
		logged: '2025-11-08T05:32:29.000Z',
	});
});

test("Simplify of an older call-logs/ row: the same fields, the spec's missing ones null, agent and space left out", () => {
	const simple = simplifyCallLog({
		id: 39136,
		call_status: 'completed',
		end_reason: 'Customer Ended The Call',
		call_type: 'inbound',
		organization: { id: 1, name: 'Acme' },
		product_id: 'unpod.dev',
		bridge: null,
		agent: { id: 573, name: 'Support Bot' },
		space: null,
		creation_time: '2025-11-30T18:31:35Z',
		start_time: '2025-11-30T18:30:24.041916Z',
		end_time: '2025-11-30T18:31:20.669045Z',
		call_duration: 56.627129,
		source_number: '+919876543210',
		destination_number: '911234567890',
	});
	expect(simple).toMatchObject({
		call_log_id: 39136,
		failure_source: null,
		sip_cause: null,
		bridge: null,
		bridge_id: null,
		duration: 57,
		start_time: '2025-11-30T18:30:24.041Z',
	});
	expect(Object.keys(simple)).not.toContain('agent');
	expect(Object.keys(simple)).not.toContain('space');
});
