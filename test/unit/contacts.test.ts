import { normalizePhone, toContactDocument } from '../../nodes/shared/contacts';
import { simplifyTask, transcriptText } from '../../nodes/shared/outcome';

describe('normalizePhone', () => {
	test.each([
		['(415) 555-0100', '', '4155550100'],
		['415.555.0100', '', '4155550100'],
		['+44 20 7946 0958', '', '+442079460958'],
		['0044 20 7946 0958', '', '+442079460958'],
		['(415) 555-0100', '+1', '+14155550100'],
		['1 415 555 0100', '1', '+14155550100'],
		['020 7946 0958', '+44', '+442079460958'],
		['+33 1 23 45 67 89', '+1', '+33123456789'],
		[4155550100, '', '4155550100'],
	])('%s (default %s) -> %s', (raw, cc, expected) => {
		expect(normalizePhone(raw, cc)).toBe(expected);
	});

	test.each(['abc', '12345', '', '   ', '+1234567890123456', '555-CALL-NOW', null, undefined])(
		'%s is not a phone number',
		(raw) => {
			expect(normalizePhone(raw)).toBeUndefined();
		},
	);
});

describe('toContactDocument', () => {
	test('keeps non-empty optional fields, splits labels, normalizes numbers', () => {
		expect(
			toContactDocument(
				{
					name: ' Ann ',
					contact_number: '(415) 555-0100',
					email: 'a@x.io',
					labels: 'a, b,',
					about: '',
					alternate_number: '415.555.0101',
				},
				'+1',
			),
		).toEqual({
			document: {
				name: 'Ann',
				contact_number: '+14155550100',
				email: 'a@x.io',
				labels: ['a', 'b'],
				alternate_number: '+14155550101',
			},
		});
	});
	test('names the field at fault', () => {
		expect(toContactDocument({ contact_number: '4155550100' })).toEqual({ field: 'name', message: 'name is missing' });
		expect(toContactDocument({ name: 'A' })).toEqual({ field: 'contact_number', message: 'contact_number is missing' });
		expect(toContactDocument({ name: 'A', contact_number: '12' })).toMatchObject({ field: 'contact_number' });
		expect(toContactDocument({ name: 'A', contact_number: '4155550100', alternate_number: 'x' })).toMatchObject({
			field: 'alternate_number',
		});
	});
});

describe('simplifyTask', () => {
	test('flattens a finished task for a CRM', () => {
		const flat = simplifyTask({
			task_id: 'T1',
			run_id: 'R1',
			status: 'completed',
			input: { name: 'Ann', contact_number: '+1415', email: 'a@x.io', company_name: 'Acme', labels: ['vip'] },
			output: {
				call_status: 'completed',
				call_end_reason: 'customer-ended-call',
				duration: 61,
				start_time: '2026-11-22 10:00:00.000000',
				end_time: '2026-11-22 10:01:01.000000',
				recording_url: 'https://r/1.mp3',
				call_summary: 'Interested.',
				transcript: [
					{ role: 'assistant', content: 'Hello Ann' },
					{ role: 'user', content: 'Hi' },
				],
				post_call_data: {
					classification: { labels: ['hot'] },
					profile_summary: {
						outcome: 'interested',
						interest_level: 'high',
						next_action: 'Demo',
						callback_requested: true,
						callback_time: '2026-11-29 10:00:00',
					},
				},
			},
		});
		expect(flat).toMatchObject({
			task_id: 'T1',
			run_id: 'R1',
			status: 'completed',
			contact_name: 'Ann',
			contact_email: 'a@x.io',
			contact_company: 'Acme',
			call_status: 'completed',
			duration: 61,
			call_summary: 'Interested.',
			outcome: 'interested',
			interest_level: 'high',
			next_action: 'Demo',
			callback_requested: true,
			callback_time: '2026-11-29 10:00:00',
			labels: ['hot'],
			transcript: 'Assistant: Hello Ann\nContact: Hi',
		});
	});
	test('a pending task has empty outcome fields, not errors', () => {
		expect(simplifyTask({ task_id: 'T2', status: 'pending', input: { name: 'B' }, output: {} })).toMatchObject({
			status: 'pending',
			call_status: null,
			transcript: '',
			labels: [],
		});
		expect(transcriptText(undefined)).toBe('');
	});
});
