/**
 * What the version matrix (`npm run test:compat`) runs: what differs between n8n versions.
 *
 * `onPinnedN8n` marks a test of the package's own logic through a real n8n whose n8n side
 * (activation, webhooks, waits, polls, Data Tables, AI tools) another test checks on every
 * version: `npm test` runs it on the pinned n8n; the matrix, which sets UNPOD_VERSION_MATRIX,
 * skips it.
 */
export const IN_VERSION_MATRIX = process.env.UNPOD_VERSION_MATRIX === '1';

export const onPinnedN8n: jest.It = IN_VERSION_MATRIX ? test.skip : test;
