/**
 * The examples for where users keep their contacts, in one real n8n with n8n's own node for each
 * service, its requests led by HTTPS_PROXY to local twins of those APIs (nothing leaves the
 * machine): contacts become calls, each ending lands once in the right record, a redelivery or
 * the safety net's copy changes nothing, a 429 is retried without a second record; the Google
 * Sheets campaign runs to its end, and the two small sheet examples a user starts with run; the SuperDialog tool answers a lookup mid-call. Each
 * service's tests are in test/e2e/crm/.
 */
import { refusedHosts, TwinSuite } from '../helpers/twins';
import { hubspotExamples } from './crm/hubspot';
import { pipedriveExamples } from './crm/pipedrive';
import { salesforceExamples } from './crm/salesforce';
import { highlevelExamples } from './crm/highlevel';
import { sheetsCampaign } from './crm/sheets';
import { sheetFirstCalls } from './crm/sheet-first-calls';

const suite = new TwinSuite();

// Before the services' own set-up: they read the suite's n8n.
beforeAll(() => suite.start());
afterAll(() => suite.stop());
afterEach(() => {
	// Every request n8n's nodes made went to Unpod's local server or a twin: the proxy refused none.
	expect(refusedHosts(suite.t)).toEqual([]);
	suite.h.server.resetTraffic();
});

hubspotExamples(suite);
pipedriveExamples(suite);
salesforceExamples(suite);
highlevelExamples(suite);
sheetsCampaign(suite);
sheetFirstCalls(suite);
