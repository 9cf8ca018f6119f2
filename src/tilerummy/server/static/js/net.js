// The WebSocket connection to the server: requests with replies, and reconnection after a drop.

import { parseKeepingSeeds } from "./fairdeal.js";

const PROTOCOL = 1;
const PING_SECONDS = 15;
const PONG_WAIT_SECONDS = 10;

// Close codes (docs/protocol.md): another connection took the seat; try again later; policy.
export const CLOSE_REPLACED = 4409;
const CLOSE_TRY_LATER = 1013;
const CLOSE_POLICY = 1008;

// How long to wait before reconnecting after a close with this code; null: not on our own.
export function reconnectDelay(code, retries) {
  if (code === CLOSE_REPLACED) return null;
  const backoff = Math.min(5000, 400 * 2 ** Math.min(retries, 4));
  if (code === CLOSE_TRY_LATER || code === CLOSE_POLICY) return Math.max(backoff, 15000);
  return backoff;
}

export class Connection {
  constructor({ name, key = null, onMessage, onStatus, onReady, onKeyRefused = () => {} }) {
    this.name = name;
    // A profile's device key, said in hello (docs/protocol.md#profiles); refused, the page goes on as a guest.
    this.key = key;
    this.onKeyRefused = onKeyRefused;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    // Called after each successful hello: the place to take one's seat back.
    this.onReady = onReady;
    this.socket = null;
    this.nextId = 1;
    this.pending = new Map();
    this.retries = 0;
    this.status = "connecting";
    this.pingTimer = null;
    this.pongTimer = null;
    // In a cluster, the address of the process that runs our room (room_server), and those that
    // could not be reached from here: after a drop, or if it cannot be reached, the usual address.
    this.direct = null;
    this.unreachable = new Set();
    this.moving = false;
    window.addEventListener("online", () => this.reconnectSoon(0));
  }

  url() {
    if (this.direct) return this.direct;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}/ws`;
  }

  // Reconnect straight to the process that runs our room; onReady takes the seat back there.
  moveTo(url) {
    if (url === this.direct || this.unreachable.has(url) || this.status !== "online") return;
    this.direct = url;
    if (this.socket) {
      this.socket.onclose = null;
      this.socket.close();
    }
    this.stopPings();
    this.abandonPending();
    // Not shown as a reconnection: the page stays as it is while the seat is taken back there.
    this.status = "connecting";
    this.moving = true;
    this.start();
  }

  abandonPending() {
    for (const waiting of this.pending.values()) waiting.resolve({ type: "error", reason: "offline", detail: "" });
    this.pending.clear();
  }

  setStatus(status) {
    if (this.status !== status) {
      this.status = status;
      this.onStatus(status);
    }
  }

  start() {
    clearTimeout(this.retryTimer);
    const url = this.url();
    const socket = new WebSocket(url);
    this.socket = socket;
    let opened = false;
    socket.onopen = async () => {
      opened = true;
      this.retries = 0;
      const hello = { type: "hello", protocol: PROTOCOL, name: this.name };
      let welcome = await this.request(this.key ? { ...hello, key: this.key } : hello);
      if (welcome.type === "error" && welcome.reason === "bad_key") {
        this.key = null;
        this.onKeyRefused();
        welcome = await this.request(hello);
      }
      if (welcome.type !== "welcome") {
        this.onMessage(welcome);
        return;
      }
      this.name = welcome.name;
      // The server's limits (the chat's length and pace among them).
      this.limits = welcome.limits || null;
      if (this.moving) this.status = "online";
      this.moving = false;
      this.setStatus("online");
      this.startPings();
      await this.onReady();
    };
    socket.onmessage = (event) => {
      const message = parseKeepingSeeds(event.data);
      if (message.type === "pong") clearTimeout(this.pongTimer);
      const waiting = message.reply_to != null ? this.pending.get(message.reply_to) : undefined;
      if (waiting) {
        this.pending.delete(message.reply_to);
        waiting.resolve(message);
      }
      this.onMessage(message);
    };
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.stopPings();
      this.moving = false;
      if (url === this.direct) {
        // Its process may have stopped: the usual address reaches whoever runs the room now.
        if (!opened) this.unreachable.add(url);
        this.direct = null;
      }
      this.abandonPending();
      this.retries += 1;
      const delay = reconnectDelay(event.code, this.retries);
      if (delay === null) {
        // Another window plays this seat now: taking it back on our own would take it from them in turn.
        this.setStatus("replaced");
        return;
      }
      this.setStatus("offline");
      this.reconnectSoon(delay);
    };
  }

  // The person asked to play here again (after another window took the seat).
  resume() {
    this.retries = 0;
    this.reconnectSoon(0, { evenIfReplaced: true });
  }

  reconnectSoon(delay, { evenIfReplaced = false } = {}) {
    if (this.socket && this.socket.readyState <= WebSocket.OPEN && this.status === "online") return;
    if (this.status === "replaced" && !evenIfReplaced) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      if (this.socket) {
        this.socket.onclose = null;
        this.socket.close();
      }
      this.setStatus("connecting");
      this.start();
    }, delay);
  }

  startPings() {
    this.stopPings();
    // A dropped network does not always close the socket: a missing pong does.
    this.pingTimer = setInterval(() => {
      this.send({ type: "ping" });
      this.pongTimer = setTimeout(() => this.socket && this.socket.close(), PONG_WAIT_SECONDS * 1000);
    }, PING_SECONDS * 1000);
  }

  stopPings() {
    clearInterval(this.pingTimer);
    clearTimeout(this.pongTimer);
  }

  send(message) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  // Sends with an id; resolves with whatever message answers it (an error included).
  request(message) {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, { resolve });
      if (!this.send({ ...message, id })) {
        this.pending.delete(id);
        resolve({ type: "error", reason: "offline", detail: "" });
      }
    });
  }

  // For tests and for leaving: drop the connection as a network failure would.
  drop() {
    if (this.socket) this.socket.close();
  }
}
