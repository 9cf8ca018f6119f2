// When the page reconnects after its WebSocket closed, by the close code (docs/protocol.md).
import assert from "node:assert/strict";
import { test } from "node:test";

import { CLOSE_REPLACED, reconnectDelay } from "../../src/tilerummy/server/static/js/net.js";

test("a seat taken by another window is never taken back on the page's own", () => {
  assert.equal(reconnectDelay(CLOSE_REPLACED, 1), null);
  assert.equal(reconnectDelay(4409, 9), null);
});

test("a dropped connection comes back quickly, then backs off up to five seconds", () => {
  assert.equal(reconnectDelay(1006, 1), 800);
  assert.equal(reconnectDelay(1006, 2), 1600);
  assert.equal(reconnectDelay(1006, 10), 5000);
  assert.equal(reconnectDelay(4408, 1), 800);
});

test("a busy server or a policy close waits at least fifteen seconds", () => {
  assert.equal(reconnectDelay(1013, 1), 15000);
  assert.equal(reconnectDelay(1008, 1), 15000);
});
