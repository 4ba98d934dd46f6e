// Webhooks, as an app's backend uses them: it registers an endpoint that
// its receiver serves, sees a ping arrive signed, later checks that what
// arrived matches the account's event stream and the delivery log, rotates
// the secret, and makes sure a tampered message does not verify.

import { Webhook, WebhookVerificationError } from "standardwebhooks";

import { CheckFailed, check, checkEqual, log, waitFor } from "./check.js";
import { type Api, type Schemas, must } from "./client.js";
import type { LiveEvent } from "./events.js";
import type { Delivery, Receiver, SignedHeaders, WebhookMessage } from "./receiver.js";

type EventType = Schemas["WebhookEventType"];
type Endpoint = Schemas["WebhookEndpoint"];
type LogEntry = Schemas["WebhookDelivery"];

/** The event types the app wants: not invitation, whose absence is checked too. */
export const wanted: EventType[] = ["your_turn", "turn_played", "game_over"];

/** How long a message may take to arrive: the server is woken when one is queued. */
const arrival = 30_000;

/** A registered endpoint, its receiver and the secrets it was given. */
export class Hook {
  /** The secret before the last rotation, which still signs for a day. */
  previousSecret: string | undefined;

  constructor(
    readonly api: Api,
    readonly receiver: Receiver,
    public endpoint: Endpoint,
    public secret: string,
  ) {}

  get path(): { path: { id: number } } {
    return { path: { id: this.endpoint.id } };
  }

  /** Asks for a ping and returns it as received. */
  async ping(): Promise<Delivery> {
    const queued = await must(this.api.POST("/v1/me/webhooks/{id}/ping", { params: this.path }), "ping the webhook");
    checkEqual([queued.type, queued.status], ["ping", "pending"], "the queued ping");
    const got = await this.receiver.until(`the ping ${queued.webhook_id}`, arrival, () => this.receiver.messages.get(queued.webhook_id));
    check(got.message.type === "ping", `${queued.webhook_id} arrived as ${got.message.type}`);
    checkEqual(got.message.data.endpoint_id, this.endpoint.id, "the ping's endpoint_id");
    return got;
  }

  /** The whole delivery log, newest first, page by page. */
  async log(): Promise<LogEntry[]> {
    const all: LogEntry[] = [];
    let cursor: string | undefined;
    do {
      const query = cursor === undefined ? { limit: 10 } : { limit: 10, cursor };
      const page = await must(this.api.GET("/v1/me/webhooks/{id}/deliveries", { params: { ...this.path, query } }), "read the delivery log");
      all.push(...page.deliveries);
      cursor = page.next_cursor ?? undefined;
    } while (cursor !== undefined);
    return all;
  }
}

/**
 * Registers the receiver's URL for the wanted events, with the typed
 * client, and sees a ping arrive signed with the secret answered.
 */
export async function registerWebhook(api: Api, receiver: Receiver): Promise<Hook> {
  const { data, error, response } = await api.POST("/v1/me/webhooks", {
    // enabled defaults to true; openapi-typescript makes a member with a
    // default required, in requests too.
    body: { url: receiver.url, event_types: wanted, description: "the TypeScript client's receiver", enabled: true },
  });
  check(data !== undefined, `register a webhook: ${response.status} ${JSON.stringify(error)}`);
  checkEqual(response.status, 201, "register a webhook: status");
  checkEqual(response.headers.get("Location"), `/v1/me/webhooks/${data.id}`, "register a webhook: Location");
  checkEqual(response.headers.get("Cache-Control"), "no-store", "register a webhook: Cache-Control");
  // The server answers the types in the contract's order.
  checkEqual([data.url, data.event_types.toSorted(), data.enabled], [receiver.url, wanted.toSorted(), true], "the registered webhook");
  check(/^whsec_[A-Za-z0-9+/]+=*$/.test(data.secret), "the webhook's secret is not whsec_ and base64");
  const { secret, ...endpoint } = data;
  receiver.use(secret);
  const hook = new Hook(api, receiver, endpoint, secret);
  const ping = await hook.ping();
  log(`webhook ${endpoint.id} registered for ${wanted.join(", ")}; ping ${ping.headers["webhook-id"]} arrived and verified`);
  return hook;
}

/** What a message or an event says that both must agree on. */
type Fact = [kind: string, game: string, color: string, ply: number, detail: string, at: number];

/** What an event of the stream says, as a webhook message would say it. */
function eventFact(e: LiveEvent): Fact {
  const at = Date.parse(e.at);
  switch (e.kind) {
    case "turn_played":
      return [e.kind, e.game_id, e.color, e.ply, e.turn, at];
    case "game_over":
      return [e.kind, e.game_id, e.color ?? "", e.ply, `${e.result} ${e.result_line}`, at];
    case "round_start":
      return [e.kind, e.game_id ?? "", e.color ?? "", e.ply, e.tournament_id, at];
    case "invitation":
    case "your_turn":
    case "deadline_near":
      return [e.kind, e.game_id, e.color, e.ply, "", at];
    case "tournament_update": // no webhook type: never among the wanted
      return [e.kind, "", "", e.ply, `${e.tournament_id} ${e.result_line}`, at];
    default:
      return unknownKind(e);
  }
}

/** What a message says; undefined for a ping, which is no event. */
function messageFact(m: WebhookMessage): Fact | undefined {
  const at = Date.parse(m.timestamp);
  switch (m.type) {
    case "turn_played":
      return [m.type, m.data.game_id, m.data.color, m.data.ply, m.data.turn, at];
    case "game_over":
      return [m.type, m.data.game_id, m.data.color, m.data.ply, `${m.data.result} ${m.data.line}`, at];
    case "round_start":
      return [m.type, m.data.game_id ?? "", m.data.color ?? "", m.data.ply, m.data.tournament_id, at];
    case "invitation":
    case "your_turn":
    case "deadline_near":
      return [m.type, m.data.game_id, m.data.color, m.data.ply, "", at];
    case "ping":
      return undefined;
    default:
      return unknownKind(m);
  }
}

/** Fails tsc when the contract adds a kind the switches above do not handle. */
function unknownKind(v: never): never {
  throw new CheckFailed(`a kind the program does not know: ${JSON.stringify(v)}`);
}

function sorted(facts: Fact[]): string[] {
  return facts.map((f) => JSON.stringify(f)).sort();
}

/**
 * The messages that arrived are the account's events of the wanted types,
 * each once by webhook-id (a message arriving again is the same message),
 * and nothing else: same kinds, games, seats, plies, turns, results and
 * times as the stream had.
 */
export async function deliveriesMatch(hook: Hook, events: LiveEvent[]): Promise<void> {
  const want = sorted(events.filter((e) => (wanted as string[]).includes(e.kind)).map(eventFact));
  const facts = (): Fact[] =>
    [...hook.receiver.messages.values()].map((d) => messageFact(d.message)).filter((f) => f !== undefined);
  await hook.receiver.until(`${want.length} messages of events`, arrival, () => (facts().length >= want.length ? true : undefined));
  checkEqual(sorted(facts()), want, "the webhook messages against the stream's events");
  const again = [...hook.receiver.messages.values()].filter((d) => d.arrivals > 1).length;
  log(`${want.length} messages of ${events.length} events arrived, each verified (${again} more than once, kept once)`);
}

/**
 * The delivery log has each message that arrived, delivered with a 2xx
 * answer, and says what each was about as the message did; a message
 * sent again (redelivered) counts its attempts.
 */
export async function logMatches(hook: Hook, redelivered?: string): Promise<LogEntry[]> {
  const received = hook.receiver.messages;
  // The receiver answers before the server records the answer.
  const entries = await waitFor("every delivery recorded as delivered", arrival, async () => {
    const l = await hook.log();
    return l.length >= received.size && l.every((e) => e.status === "delivered") ? l : undefined;
  });
  checkEqual(entries.map((e) => e.webhook_id).sort(), [...received.keys()].sort(), "the log's webhook-ids against those received");
  for (const e of entries) {
    const d = received.get(e.webhook_id);
    check(d !== undefined, `${e.webhook_id} is in the log, not received`);
    const status = e.last_status ?? 0;
    check(status >= 200 && status < 300 && e.last_error === null, `${e.webhook_id}: the log says ${status} ${e.last_error}`);
    const attempts = e.webhook_id === redelivered ? 2 : 1;
    check(e.attempts >= attempts && e.delivered_at !== null && e.next_attempt_at === null, `${e.webhook_id}: ${JSON.stringify(e)}`);
    checkEqual(e.type, d.message.type, `${e.webhook_id}: the log's type`);
    checkEqual(Date.parse(e.timestamp), Date.parse(d.message.timestamp), `${e.webhook_id}: the log's timestamp`);
    if (d.message.type !== "ping") {
      const m = d.message.data;
      const tournament = d.message.type === "round_start" ? d.message.data.tournament_id : null;
      checkEqual(e.data, { game_id: m.game_id ?? null, color: m.color ?? null, ply: m.ply, tournament_id: tournament }, `${e.webhook_id}: the log's data`);
    }
  }
  log(`the delivery log lists the ${entries.length} messages, each delivered (${entries[0]?.last_status})`);
  return entries;
}

/**
 * A new secret: the receiver switches to it at once, and for a day every
 * message is signed with both, so a message verifies with either; a
 * redelivered message comes again with its webhook-id and is kept once.
 */
export async function rotateSecret(hook: Hook, redeliver: LogEntry): Promise<Delivery> {
  const before = Date.now();
  const rotated = await must(hook.api.POST("/v1/me/webhooks/{id}/rotate-secret", { params: hook.path }), "rotate the secret");
  check(rotated.secret !== hook.secret, "the rotation kept the secret");
  const expires = Date.parse(rotated.previous_secret_expires_at ?? "");
  const day = 24 * 3600_000;
  check(expires >= before + day - 60_000 && expires <= Date.now() + day + 60_000, `the old secret signs until ${rotated.previous_secret_expires_at}`);
  const { secret, ...endpoint } = rotated;
  hook.previousSecret = hook.secret;
  hook.secret = secret;
  hook.endpoint = endpoint;
  hook.receiver.use(secret);

  const ping = await hook.ping();
  const signatures = ping.headers["webhook-signature"].split(" ");
  checkEqual(signatures.length, 2, "signatures of a message in the day after a rotation");
  for (const [which, s] of [["new", hook.secret], ["old", hook.previousSecret]] as const) {
    const got = new Webhook(s).verify(ping.body, { ...ping.headers });
    checkEqual(got, ping.message, `the ping verified with the ${which} secret alone`);
  }
  log(`secret rotated: ping ${ping.headers["webhook-id"]} carries ${signatures.length} signatures and verifies with the new secret and the old`);

  const id = redeliver.webhook_id;
  const kept = hook.receiver.messages.size;
  const queued = await must(
    hook.api.POST("/v1/me/webhooks/{id}/deliveries/{delivery_id}/redeliver", { params: { path: { id: hook.endpoint.id, delivery_id: redeliver.id } } }),
    `redeliver ${id}`,
  );
  checkEqual([queued.webhook_id, queued.status], [id, "pending"], "the redelivery queued");
  await hook.receiver.until(`${id} again`, arrival, () => ((hook.receiver.messages.get(id)?.arrivals ?? 0) > 1 ? true : undefined));
  checkEqual(hook.receiver.messages.size, kept, "messages kept after a redelivery");
  log(`${redeliver.type} ${id} redelivered, verified with the new secret, kept once`);
  return ping;
}

/**
 * A message whose body or id was changed after signing does not verify,
 * with either secret, and the receiver refuses it (401) and keeps nothing.
 */
export async function tamperedRefused(hook: Hook, genuine: Delivery): Promise<void> {
  const body = Buffer.from(genuine.body.toString().replace(/"endpoint_id":(\d+)/, (_, n: string) => `"endpoint_id":${Number(n) + 1}`));
  check(!body.equals(genuine.body), "the body was not changed");
  const forgeries: [string, Buffer, SignedHeaders][] = [
    ["a changed body", body, genuine.headers],
    ["another webhook-id", genuine.body, { ...genuine.headers, "webhook-id": "msg_forged" }],
  ];
  for (const [what, b, headers] of forgeries) {
    for (const s of [hook.secret, hook.previousSecret ?? hook.secret]) {
      let refused: unknown;
      try {
        new Webhook(s).verify(b, { ...headers });
      } catch (err) {
        refused = err;
      }
      check(refused instanceof WebhookVerificationError, `${what} verified: ${String(refused)}`);
    }
    const kept = [...hook.receiver.messages.entries()].map(([id, d]) => [id, d.arrivals]);
    const res = await fetch(hook.receiver.url, { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body: b });
    await res.arrayBuffer();
    checkEqual(res.status, 401, `the receiver's answer to ${what}`);
    const refusals = hook.receiver.takeRefusals();
    checkEqual(refusals.map((r) => [r.id, r.status]), [[headers["webhook-id"], 401]], `the receiver's refusals of ${what}`);
    checkEqual([...hook.receiver.messages.entries()].map(([id, d]) => [id, d.arrivals]), kept, `messages kept after ${what}`);
  }
  log("a message with a changed body or webhook-id fails verification and is refused");
}

/** Deletes the endpoint: it is gone from the list. */
export async function deleteWebhook(hook: Hook): Promise<void> {
  const { error, response } = await hook.api.DELETE("/v1/me/webhooks/{id}", { params: hook.path });
  check(error === undefined && response.status === 204, `delete the webhook: ${response.status} ${JSON.stringify(error)}`);
  const list = await must(hook.api.GET("/v1/me/webhooks"), "list the webhooks");
  checkEqual(list.webhooks, [], "webhooks after the delete");
  hook.receiver.checkNothingRefused();
}
