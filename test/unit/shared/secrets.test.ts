import { withoutCarrierSecrets, withoutSecretText } from '../../../nodes/shared/secrets';

test("a carrier's secrets are dropped at any depth; everything else is kept as it was", () => {
	const answer = {
		data: [
			{
				id: 101,
				name: 'Twilio Main',
				api_key: 'AC-key',
				api_secret: 'secret',
				meta_json: [{ meta_key: 'auth_token', meta_value: 'token' }],
				provider_details: { id: 1, name: 'Twilio' },
			},
		],
		numbers: [{ number: '+1', provider_configuration: { id: 101, api_secret: 'secret' } }],
		count: 1,
	};
	expect(withoutCarrierSecrets(answer)).toEqual({
		data: [{ id: 101, name: 'Twilio Main', provider_details: { id: 1, name: 'Twilio' } }],
		numbers: [{ number: '+1', provider_configuration: { id: 101 } }],
		count: 1,
	});
	// The answer itself is left alone (n8n may hold it elsewhere).
	expect(answer.data[0].api_key).toBe('AC-key');
	expect(withoutCarrierSecrets(null)).toBeNull();
	expect(withoutCarrierSecrets('text')).toBe('text');
});

test('an answer without a secret is given back as it is, a part without one shared, not copied', () => {
	const page = { count: 2, data: [{ task_id: 'T1', input: { name: 'Ann' } }, { task_id: 'T2' }] };
	expect(withoutCarrierSecrets(page)).toBe(page);
	const mixed = { clean: { a: [1, 2] }, dirty: { api_key: 'k', b: 1 } };
	const out = withoutCarrierSecrets(mixed);
	expect(out).toEqual({ clean: { a: [1, 2] }, dirty: { b: 1 } });
	expect(out.clean).toBe(mixed.clean);
	expect(mixed.dirty.api_key).toBe('k');
});

test("OpenAPI 2.0.0's auth_token is dropped like the source's keys, wherever an answer carries it", () => {
	expect(withoutCarrierSecrets({ data: { id: 42, account_sid: 'AC1', auth_token: 'tok-123456' } })).toEqual({
		data: { id: 42, account_sid: 'AC1' },
	});
});

test('a secret quoted in text is hidden at any depth; one shorter than 6 characters is left alone', () => {
	const answer = { message: 'bad token tok-123456', errors: { auth_token: ['tok-123456 is invalid'] }, n: 1 };
	expect(withoutSecretText(answer, ['tok-123456'])).toEqual({
		message: 'bad token [hidden]',
		errors: { auth_token: ['[hidden] is invalid'] },
		n: 1,
	});
	expect(withoutSecretText(answer, ['tok'])).toBe(answer);
});
