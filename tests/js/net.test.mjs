// When the page reconnects after its WebSocket closed, by the close code (docs/protocol.md).
import assert from "node:assert/strict";
import { test } from "node:test";

import { CLOSE_REPLACED, Connection, reconnectDelay } from "../../src/tilerummy/server/static/js/net.js";

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

// --- Going to the process that runs the room (room_server) ----------------------

class FakeSocket {
  static CONNECTING = 0;
  static OPEN = 1;
  static made = [];
  constructor(url) {
    this.url = url;
    this.readyState = FakeSocket.CONNECTING;
    this.sent = [];
    this.closed = false;
    FakeSocket.made.push(this);
  }
  send(text) {
    this.sent.push(JSON.parse(text));
  }
  close() {
    this.closed = true;
  }
  // The server's side: the socket opens and the hello is welcomed.
  async welcome() {
    this.readyState = FakeSocket.OPEN;
    const opened = this.onopen();
    const hello = this.sent.find((message) => message.type === "hello");
    this.onmessage({ data: JSON.stringify({ type: "welcome", reply_to: hello.id, name: "Ana" }) });
    await opened;
  }
  drop(code) {
    this.readyState = 3;
    this.onclose({ code });
  }
}

function connection() {
  globalThis.window = { addEventListener() {} };
  globalThis.location = { protocol: "http:", host: "front:8000" };
  globalThis.WebSocket = FakeSocket;
  FakeSocket.made = [];
  const statuses = [];
  const ready = { count: 0 };
  const made = new Connection({
    name: "Ana",
    onMessage() {},
    onStatus: (status) => statuses.push(status),
    onReady: async () => {
      ready.count += 1;
    },
  });
  return { made, statuses, ready };
}

test("told where its room runs, the page reconnects there and takes its seat back, quietly", async () => {
  const { made, statuses, ready } = connection();
  made.start();
  await FakeSocket.made[0].welcome();
  assert.equal(FakeSocket.made[0].url, "ws://front:8000/ws");
  assert.deepEqual(statuses, ["online"]);

  made.moveTo("ws://127.0.0.1:8101/ws");
  assert.ok(FakeSocket.made[0].closed);
  assert.equal(FakeSocket.made[1].url, "ws://127.0.0.1:8101/ws");
  await FakeSocket.made[1].welcome();
  assert.equal(ready.count, 2, "the seat is taken back on the new connection");
  assert.deepEqual(statuses, ["online"], "no reconnection is shown");

  // The same address again changes nothing.
  made.moveTo("ws://127.0.0.1:8101/ws");
  assert.equal(FakeSocket.made.length, 2);
  made.stopPings();
});

test("when that process stops, the page goes back to the usual address", async () => {
  const { made, statuses } = connection();
  made.start();
  await FakeSocket.made[0].welcome();
  made.moveTo("ws://127.0.0.1:8101/ws");
  await FakeSocket.made[1].welcome();
  FakeSocket.made[1].drop(1006);
  assert.equal(made.url(), "ws://front:8000/ws");
  assert.deepEqual(statuses, ["online", "offline"]);
  clearTimeout(made.retryTimer);
});

test("an address that cannot be reached from here is not tried again", async () => {
  const { made } = connection();
  made.start();
  await FakeSocket.made[0].welcome();
  made.moveTo("ws://10.0.0.9:8101/ws");
  FakeSocket.made[1].drop(1006);
  clearTimeout(made.retryTimer);
  assert.equal(made.url(), "ws://front:8000/ws");
  made.start();
  await FakeSocket.made[2].welcome();
  made.moveTo("ws://10.0.0.9:8101/ws");
  assert.equal(FakeSocket.made.length, 3);
  made.stopPings();
});
