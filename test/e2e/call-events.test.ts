/**
 * The Unpod Call Events Trigger in a running n8n (`n8n start`), fed by the local server's
 * agent webhooks as Unpod's backend sends them: the agent's webhook form set through Unpod's
 * own pilot endpoint (a Studio login), deliveries with Unpod's retry rule. And what it relays:
 * Task > Call and Wait for Approval, a step that waits (status `waiting`, nothing running)
 * while the approver's call is open and resumes with `approved` once the trigger rings it, or
 * the Unpod Trigger's poll when the push is lost. A forged ring approves nothing; a wait past
 * its limit goes on without approval. Call and Wait "until Unpod reports" waits the same way.
 * One n8n for all of them; each subject's tests are in test/e2e/call-events/.
 */
import { agentHumanReview } from './call-events/agent-review';
import { callAndWaitReported } from './call-events/call-and-wait';
import { callEventDeliveries } from './call-events/deliveries';
import { CallEventsSuite } from './call-events/suite';
import { relayedWaits } from './call-events/waiting';

const suite = new CallEventsSuite();

// Before the subjects' own set-up: they read the suite's n8n.
beforeAll(() => suite.start());
afterAll(() => suite.stop());
afterEach(() => suite.settle());

callEventDeliveries(suite);
// The human review and Call and Wait run while the approval timeout's minute passes (its test last).
relayedWaits(suite, [agentHumanReview, callAndWaitReported]);
