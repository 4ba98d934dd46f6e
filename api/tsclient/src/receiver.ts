// A webhook receiver, as a bot or a game app's backend runs one: a small
// HTTP server that takes lesspost's Standard Webhooks messages, verifies
// each with the standardwebhooks library over the raw body and the three
// headers, refuses what does not verify, and keeps each message once by its
// webhook-id (delivery is at least once). The messages are typed with the
// contract's WebhookMessage schema (the createWebhook callback's body), so
// a change of the contract that the program does not follow breaks tsc.

import { type IncomingMessage, type Server, type ServerResponse, createServer } from "node:http";
import type { AddressInfo } from "node:net";

import { Webhook, WebhookVerificationError } from "standardwebhooks";

import { CheckFailed } from "./check.js";
import type { Schemas } from "./client.js";

/** The body of a webhook message, as the contract types it. */
export type WebhookMessage = Schemas["WebhookMessage"];

/**
 * Every type of message the contract names, and no other: a type added to
 * or removed from the contract fails tsc here.
 */
const messageTypes: Record<WebhookMessage["type"], true> = {
  turn_played: true,
  your_turn: true,
  game_over: true,
  invitation: true,
  round_start: true,
  deadline_near: true,
  ping: true,
};

/** The Standard Webhooks headers, as sent. */
export interface SignedHeaders {
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
}

/** A verified message, as it arrived the first time. */
export interface Delivery {
  headers: SignedHeaders;
  /** The raw body the signature covers. */
  body: Buffer;
  message: WebhookMessage;
  /** How many times it arrived (redeliveries and retries by webhook-id). */
  arrivals: number;
}

/** A request the receiver refused, and why. */
export interface Refusal {
  id: string;
  status: number;
  reason: string;
}

/** The most a message's body may be; lesspost's are well under 1 KiB. */
const maxBody = 64 << 10;

export class Receiver {
  /** The verified messages by webhook-id, in the order they first arrived. */
  readonly messages = new Map<string, Delivery>();
  /** What was refused since the last takeRefusals. */
  private refusals: Refusal[] = [];
  private verifier: Webhook | undefined;
  private readonly listeners = new Set<() => void>();

  private constructor(
    private readonly server: Server,
    /** Where lesspost is to POST the messages. */
    readonly url: string,
  ) {
    server.on("request", (req: IncomingMessage, res: ServerResponse) => {
      this.handle(req, res).catch((err: unknown) => this.refuse(res, "", 500, `the receiver failed: ${String(err)}`));
    });
  }

  /** Starts a receiver on a free port of 127.0.0.1, at the path /hooks. */
  static async start(): Promise<Receiver> {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    return new Receiver(server, `http://127.0.0.1:${port}/hooks`);
  }

  /**
   * use sets the secret messages must be signed with: the one createWebhook
   * answered, then the one a rotation answered. Only the current secret
   * verifies, as in a receiver that switched.
   */
  use(secret: string): void {
    this.verifier = new Webhook(secret);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const id = header(req, "webhook-id") ?? "";
    if (req.method !== "POST" || req.url !== "/hooks") {
      this.refuse(res, id, 404, `${req.method} ${req.url}`);
      return;
    }
    // The media type, whatever parameters (charset) follow it.
    if (req.headers["content-type"]?.split(";")[0]?.trim().toLowerCase() !== "application/json") {
      this.refuse(res, id, 415, `Content-Type ${req.headers["content-type"]}`);
      return;
    }
    const body = await readBody(req);
    if (body === undefined) {
      this.refuse(res, id, 413, `a body over ${maxBody} bytes`);
      return;
    }
    const timestamp = header(req, "webhook-timestamp");
    const signature = header(req, "webhook-signature");
    if (id === "" || timestamp === undefined || signature === undefined) {
      this.refuse(res, id, 400, "a Standard Webhooks header is missing or repeated");
      return;
    }
    const headers: SignedHeaders = { "webhook-id": id, "webhook-timestamp": timestamp, "webhook-signature": signature };
    if (this.verifier === undefined) {
      this.refuse(res, id, 503, "no secret yet");
      return;
    }
    // Verified before anything else is believed, the webhook-id included:
    // a forged copy of a message seen before is refused, not deduplicated.
    let parsed: unknown;
    try {
      parsed = this.verifier.verify(body, { ...headers });
    } catch (err) {
      if (err instanceof WebhookVerificationError) {
        this.refuse(res, id, 401, `not verified: ${err.message}`);
        return;
      }
      this.refuse(res, id, 400, `not JSON: ${String(err)}`);
      return;
    }
    const message = asMessage(parsed);
    if (message === undefined) {
      this.refuse(res, id, 400, `not a message of the contract: ${body.toString()}`);
      return;
    }
    const seen = this.messages.get(id);
    if (seen !== undefined) {
      seen.arrivals++;
    } else {
      this.messages.set(id, { headers, body, message, arrivals: 1 });
    }
    res.writeHead(204).end();
    this.changed();
  }

  private refuse(res: ServerResponse, id: string, status: number, reason: string): void {
    this.refusals.push({ id, status, reason });
    if (!res.headersSent) {
      res.writeHead(status, { "Content-Type": "text/plain" }).end(reason + "\n");
    }
    this.changed();
  }

  private changed(): void {
    for (const l of this.listeners) {
      l();
    }
  }

  /** Returns and forgets what was refused. */
  takeRefusals(): Refusal[] {
    const r = this.refusals;
    this.refusals = [];
    return r;
  }

  /** Fails if anything was refused: lesspost sends only verified messages. */
  checkNothingRefused(): void {
    const r = this.takeRefusals();
    if (r.length > 0) {
      throw new CheckFailed(`the receiver refused ${r.length} request(s): ${JSON.stringify(r)}`);
    }
  }

  /**
   * until waits for probe to return a value, trying again at every request
   * the receiver handles, and fails after timeoutMs or at once when a
   * request was refused.
   */
  async until<T>(what: string, timeoutMs: number, probe: () => T | undefined): Promise<T> {
    let wake = (): void => {};
    const listener = (): void => wake();
    this.listeners.add(listener);
    const deadline = Date.now() + timeoutMs;
    try {
      for (;;) {
        this.checkNothingRefused();
        const v = probe();
        if (v !== undefined) {
          return v;
        }
        const left = deadline - Date.now();
        if (left <= 0) {
          throw new CheckFailed(`${what}: not within ${timeoutMs / 1000}s`);
        }
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    } finally {
      this.listeners.delete(listener);
    }
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * A header sent exactly once, or undefined: node would join a repeated
 * one with commas, which must not pass for a value.
 */
function header(req: IncomingMessage, name: string): string | undefined {
  const [at, ...more] = req.rawHeaders.flatMap((h, n) => (n % 2 === 0 && h.toLowerCase() === name ? [n + 1] : []));
  return at !== undefined && more.length === 0 ? req.rawHeaders[at] : undefined;
}

/** The body, or undefined if it is longer than maxBody. */
async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const b = chunk as Buffer;
    size += b.length;
    if (size > maxBody) {
      return undefined;
    }
    chunks.push(b);
  }
  return Buffer.concat(chunks);
}

/**
 * asMessage checks the envelope that every message has (a type the contract
 * names, a timestamp, a data object) before the value is trusted as the
 * contract's type; each type's data is checked where it is used.
 */
export function asMessage(v: unknown): WebhookMessage | undefined {
  if (typeof v !== "object" || v === null) {
    return undefined;
  }
  const m = v as Record<string, unknown>;
  const ok =
    typeof m["type"] === "string" &&
    Object.hasOwn(messageTypes, m["type"]) &&
    typeof m["timestamp"] === "string" &&
    !Number.isNaN(Date.parse(m["timestamp"])) &&
    typeof m["data"] === "object" &&
    m["data"] !== null;
  return ok ? (v as WebhookMessage) : undefined;
}
