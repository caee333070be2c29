// A short run of the chaos bench (bench/coedit/chaos.mjs; `./build.sh bench` runs it for 60 s): agents
// commit and people type while the server is SIGKILLed at random moments and restarted; every
// acknowledged change must come back from the disk alone.
import { test } from "node:test";
import assert from "node:assert/strict";
import { chaos } from "../../../bench/coedit/chaos.mjs";

test("kill -9 at random moments under load: every acknowledged change survives", { timeout: 60_000 }, async (t) => {
  const r = await chaos({ seconds: 5 });
  t.diagnostic(JSON.stringify(r));
  assert.ok(r.kills >= 2, `the server was killed ${r.kills} times`);
  assert.ok(r.commits > 0 && r.acknowledgedTyping > 0, "there was load to lose");
  assert.ok(r.reportedStored > 0, "commits were answered as stored (and each was found after every restart)");
  assert.equal(r.lostAcknowledged, 0);
});
