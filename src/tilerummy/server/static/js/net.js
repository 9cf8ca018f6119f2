// The WebSocket connection to the server: requests with replies, and reconnection after a drop.

import { parseKeepingSeeds } from "./fairdeal.js";

const PROTOCOL = 1;
const PING_SECONDS = 15;
const PONG_WAIT_SECONDS = 10;

export class Connection {
  constructor({ name, onMessage, onStatus, onReady }) {
    this.name = name;
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
    window.addEventListener("online", () => this.reconnectSoon(0));
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}/ws`;
  }

  setStatus(status) {
    if (this.status !== status) {
      this.status = status;
      this.onStatus(status);
    }
  }

  start() {
    clearTimeout(this.retryTimer);
    const socket = new WebSocket(this.url());
    this.socket = socket;
    socket.onopen = async () => {
      this.retries = 0;
      const welcome = await this.request({ type: "hello", protocol: PROTOCOL, name: this.name });
      if (welcome.type !== "welcome") {
        this.onMessage(welcome);
        return;
      }
      this.name = welcome.name;
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
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.stopPings();
      for (const waiting of this.pending.values()) waiting.resolve({ type: "error", reason: "offline", detail: "" });
      this.pending.clear();
      this.setStatus("offline");
      this.retries += 1;
      this.reconnectSoon(Math.min(5000, 400 * 2 ** Math.min(this.retries, 4)));
    };
  }

  reconnectSoon(delay) {
    if (this.socket && this.socket.readyState <= WebSocket.OPEN && this.status === "online") return;
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
