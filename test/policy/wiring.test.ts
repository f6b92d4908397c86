/**
 * The runtime's record and approval types accept what the policy layer produces, so the
 * lead can pass them straight through. These lines fail the type-check if the shapes drift.
 */
import { describe, expect, it } from "vitest";
import type { ApprovalRequest, CallRecord } from "../../src/runtime/types.js";
import { allow, ask } from "../../src/tools/types.js";
import { approvalRequest, callRecord, summarizeCalls } from "../../src/policy/index.js";
import { fromEmail, labeled, makeCall } from "./support.js";

describe("wiring into the runtime's types", () => {
  it("a decision record is a CallRecord and an approval prompt is an ApprovalRequest", () => {
    const call = makeCall("send_email", { to: labeled("eve@evil.com", fromEmail("eve@evil.com")) });
    const records: CallRecord[] = [callRecord(call, allow()), callRecord(call, ask("why"), true)];
    const request: ApprovalRequest = approvalRequest(call, ask("why"));
    expect(summarizeCalls(records)).toMatchObject({ calls: 2, allowed: 1, asked: 1, approved: 1 });
    expect(request.provenance?.[0].path).toBe("to");
  });
});
