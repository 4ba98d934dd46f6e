// The webhook receiver against messages signed here with the
// standardwebhooks library, as lesspost signs them: what verifies is kept
// once by webhook-id, anything else is refused with nothing kept.
// Run with node --test (tsclient_test.go does).

import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { request } from "node:http";
import { after, before, test } from "node:test";

import { Webhook } from "standardwebhooks";

import { Receiver } from "./receiver.js";

const secret = () => `whsec_${randomBytes(24).toString("base64")}`;
const ours = secret();
const theirs = secret();

let receiver: Receiver;
before(async () => {
  receiver = await Receiver.start();
  receiver.use(ours);
});
after(async () => {
  await receiver.close();
});

const ping = (endpoint: number) => JSON.stringify({ type: "ping", timestamp: "2026-11-24T12:00:00Z", data: { endpoint_id: endpoint } });

interface Request {
  id?: string;
  body: string;
  /** The body the signature is made over, if not body. */
  signed?: string;
  /** The secrets that sign, space-separated as with a rotation. */
  secrets?: string[];
  at?: Date;
  contentType?: string;
  omit?: string;
}

async function post(r: Request): Promise<number> {
  const id = r.id ?? `msg_${randomBytes(8).toString("hex")}`;
  const at = r.at ?? new Date();
  const signature = (r.secrets ?? [ours]).map((s) => new Webhook(s).sign(id, at, r.signed ?? r.body)).join(" ");
  const headers: Record<string, string> = {
    "Content-Type": r.contentType ?? "application/json",
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": signature,
  };
  if (r.omit !== undefined) {
    delete headers[r.omit];
  }
  const res = await fetch(receiver.url, { method: "POST", headers, body: r.body });
  await res.arrayBuffer();
  return res.status;
}

const cases: { name: string; req: Request; status: number }[] = [
  { name: "signed with the secret", req: { body: ping(1) }, status: 204 },
  { name: "signed with the old and the new secret", req: { body: ping(2), secrets: [theirs, ours] }, status: 204 },
  { name: "a tampered body", req: { body: ping(3), signed: ping(4) }, status: 401 },
  { name: "another secret", req: { body: ping(5), secrets: [theirs] }, status: 401 },
  { name: "signed ten minutes ago", req: { body: ping(6), at: new Date(Date.now() - 600_000) }, status: 401 },
  { name: "no signature", req: { body: ping(7), omit: "webhook-signature" }, status: 400 },
  { name: "no id", req: { body: ping(8), omit: "webhook-id" }, status: 400 },
  { name: "not JSON", req: { body: ping(9), contentType: "text/plain" }, status: 415 },
  { name: "a type the contract does not name", req: { body: JSON.stringify({ type: "pong", timestamp: "2026-11-24T12:00:00Z", data: {} }) }, status: 400 },
  { name: "no data", req: { body: JSON.stringify({ type: "ping", timestamp: "2026-11-24T12:00:00Z" }) }, status: 400 },
];

for (const c of cases) {
  test(c.name, async () => {
    const kept = receiver.messages.size;
    assert.equal(await post(c.req), c.status);
    const refused = receiver.takeRefusals();
    if (c.status === 204) {
      assert.deepEqual(refused, []);
      assert.equal(receiver.messages.size, kept + 1);
    } else {
      assert.equal(refused.length, 1);
      assert.equal(refused[0]?.status, c.status);
      assert.equal(receiver.messages.size, kept);
    }
  });
}

test("a message arriving again is kept once; a forged copy of it is refused", async () => {
  const id = "msg_again";
  assert.equal(await post({ id, body: ping(10) }), 204);
  assert.equal(await post({ id, body: ping(10) }), 204);
  assert.equal(await post({ id, body: ping(11), signed: ping(10) }), 401);
  const kept = receiver.messages.get(id);
  assert.equal(kept?.arrivals, 2);
  assert.deepEqual(kept?.message, JSON.parse(ping(10)));
  assert.equal(receiver.takeRefusals().length, 1);
});

test("until fails at once when a request was refused", async () => {
  const waiting = assert.rejects(
    receiver.until("a message that never comes", 30_000, () => undefined),
    /refused 1 request/,
  );
  assert.equal(await post({ body: ping(12), secrets: [theirs] }), 401);
  await waiting;
});

test("a Standard Webhooks header sent twice is refused", async () => {
  const body = ping(13);
  const at = new Date();
  const headers = {
    "Content-Type": "application/json",
    "webhook-id": ["msg_one", "msg_two"],
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": new Webhook(ours).sign("msg_one", at, body),
  };
  const status = await new Promise<number | undefined>((resolve, reject) => {
    const req = request(receiver.url, { method: "POST", headers }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode));
    });
    req.on("error", reject);
    req.end(body);
  });
  assert.equal(status, 400);
  assert.equal(receiver.takeRefusals().length, 1);
});
