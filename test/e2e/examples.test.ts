/**
 * Every example workflow imports into real n8n; those that can run offline run against the
 * local server, in one running n8n as the editor runs them: the CSV import, the bridge setup,
 * the recordings workflow, the AI-agent example and the Data Table campaign (on the local
 * server's fast clock), and each operation that calls keeping to calling hours. Each subject's tests are in test/e2e/examples/. The demo has a file of
 * its own (demo.test.ts).
 */
import { aiAgentExample } from './examples/ai-agent';
import { callingHoursInN8n } from './examples/calling-hours';
import { campaignExamples } from './examples/campaign';
import { campaignContactsExample } from './examples/campaign-contacts';
import { contactsAndBridges } from './examples/contacts-and-bridges';
import { dailyReportExample } from './examples/daily-report';
import { exampleImports } from './examples/imports';
import { ExamplesSuite } from './examples/suite';

const suite = new ExamplesSuite();

// Before the subjects' own set-up: they read the suite's n8n.
beforeAll(() => suite.start());
afterAll(() => suite.stop());
afterEach(() => suite.h.server.resetTraffic());

exampleImports(suite);
contactsAndBridges(suite);
aiAgentExample(suite);
campaignExamples(suite);
// Reads the tables the campaign ran: after it.
dailyReportExample(suite);
campaignContactsExample(suite);
callingHoursInN8n(suite);
