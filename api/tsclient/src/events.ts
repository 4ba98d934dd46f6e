// Following an account's live events (GET /v1/me/events, Server-Sent
// Events) with fetch streaming: browsers' EventSource cannot send the
// Authorization header, so an app reads the stream itself. The parser
// follows the WHATWG event-stream rules: fields `id`, `event`, `data`
// (lines joined), comments, and a blank line ending each event.

import type { Api, Schemas } from "./client.js";
import { CheckFailed, check } from "./check.js";

/** An event's data, as the contract's Event schema types it. */
export type LiveEvent = Schemas["Event"];

/** One event of a stream: its id (for Last-Event-ID) and data. */
export interface StreamEvent {
  id: string;
  data: LiveEvent;
}

/** How a reconnecting client names the last event it received. */
export type Resume = { header: string } | { query: string };

/** A raw event as the wire carries it. */
interface RawEvent {
  id: string;
  event: string;
  data: string;
}

/**
 * parseEventStream turns the bytes of a text/event-stream into its events.
 * An event is dispatched at the blank line after it; a stream that ends
 * within an event drops it, as the standard says.
 */
export async function* parseEventStream(body: ReadableStream<Uint8Array>): AsyncGenerator<RawEvent> {
  let buffer = "";
  let event = "";
  let data: string[] = [];
  let lastId = "";
  const decoder = new TextDecoder();
  const reader = body.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      if (done && buffer.endsWith("\r")) {
        buffer += "\n"; // nothing follows: the \r ends its line
      }
      // A line ends at \r\n, \n or \r; a \r at the end of the buffer may be
      // the first half of \r\n, so it waits for more.
      let m: RegExpExecArray | null;
      while ((m = /\r\n|\n|\r(?=[^\n])/.exec(buffer)) !== null) {
        const line = buffer.slice(0, m.index);
        buffer = buffer.slice(m.index + m[0].length);
        if (line === "") {
          if (data.length > 0) {
            yield { id: lastId, event: event || "message", data: data.join("\n") };
          }
          event = "";
          data = [];
          continue;
        }
        if (line.startsWith(":")) {
          continue; // a comment: keep-alive
        }
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        let val = colon < 0 ? "" : line.slice(colon + 1);
        if (val.startsWith(" ")) {
          val = val.slice(1);
        }
        switch (field) {
          case "event":
            event = val;
            break;
          case "data":
            data.push(val);
            break;
          case "id":
            if (!val.includes("\0")) {
              lastId = val;
            }
            break;
          default: // retry and unknown fields: nothing to do here
        }
      }
      if (done) {
        return;
      }
    }
  } finally {
    reader.releaseLock();
  }
}

/**
 * EventStream is one open stream of an account's events. Events queue up
 * until the program asks for them with next.
 */
export class EventStream {
  private readonly queue: StreamEvent[] = [];
  private waiter: (() => void) | undefined;
  private ended: Error | undefined;
  private readonly abort = new AbortController();
  /** The id of the last event taken with next: where to resume. */
  lastId: string | undefined;

  private constructor(readonly name: string) {}

  /**
   * open starts a stream of the account's events with its client; with
   * resume, just after the event it names (as a header or, for clients
   * that cannot send headers, as the query parameter).
   */
  static async open(api: Api, name: string, resume?: Resume): Promise<EventStream> {
    const s = new EventStream(name);
    const header = resume !== undefined && "header" in resume ? { "Last-Event-ID": resume.header } : {};
    const query = resume !== undefined && "query" in resume ? { last_event_id: resume.query } : {};
    const { data, error, response } = await api.GET("/v1/me/events", {
      params: { header, query },
      parseAs: "stream",
      signal: s.abort.signal,
    });
    if (error !== undefined) {
      throw new CheckFailed(`open the event stream of ${name}: ${response.status} ${JSON.stringify(error)}`);
    }
    check(
      response.headers.get("Content-Type") === "text/event-stream",
      `event stream of ${name}: Content-Type ${response.headers.get("Content-Type")}`,
    );
    check(data !== null, `event stream of ${name}: no body`);
    s.lastId = resume === undefined ? undefined : "header" in resume ? resume.header : resume.query;
    void s.read(data);
    return s;
  }

  private async read(body: ReadableStream<Uint8Array>): Promise<void> {
    try {
      for await (const raw of parseEventStream(body)) {
        const data = JSON.parse(raw.data) as LiveEvent;
        if (data.kind !== raw.event) {
          throw new CheckFailed(`${this.name}: event ${raw.event} carries data of kind ${data.kind}`);
        }
        if (raw.id === "") {
          throw new CheckFailed(`${this.name}: event ${raw.event} without an id`);
        }
        this.queue.push({ id: raw.id, data });
        this.wake();
      }
      this.ended = new CheckFailed(`${this.name}: the server ended the stream`);
    } catch (err) {
      this.ended = this.abort.signal.aborted ? new CheckFailed(`${this.name}: the stream was closed`) : toError(err);
    }
    this.wake();
  }

  private wake(): void {
    const w = this.waiter;
    this.waiter = undefined;
    w?.();
  }

  /** The next event, waiting up to timeoutMs for it. */
  async next(timeoutMs = 30_000): Promise<StreamEvent> {
    const deadline = Date.now() + timeoutMs;
    while (this.queue.length === 0) {
      if (this.ended !== undefined) {
        throw this.ended;
      }
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new CheckFailed(`${this.name}: no event for ${timeoutMs / 1000}s`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiter = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    const e = this.queue.shift();
    check(e !== undefined, "queue");
    this.lastId = e.id;
    return e;
  }

  /** Disconnects, as an app that goes away does. Events not taken yet are dropped. */
  close(): void {
    this.abort.abort();
    this.queue.length = 0;
  }
}

function toError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}
