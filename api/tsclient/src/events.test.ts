// The Server-Sent Events parser, against the cases of the WHATWG
// event-stream format a server may send, however the bytes are split.
// Run with node --test (tsclient_test.go does).

import assert from "node:assert/strict";
import { test } from "node:test";

import { parseEventStream } from "./events.js";

function streamOf(chunks: (string | Uint8Array)[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const c of chunks) {
        controller.enqueue(typeof c === "string" ? encoder.encode(c) : c);
      }
      controller.close();
    },
  });
}

async function parse(chunks: (string | Uint8Array)[]): Promise<{ id: string; event: string; data: string }[]> {
  const out = [];
  for await (const e of parseEventStream(streamOf(chunks))) {
    out.push(e);
  }
  return out;
}

const whole = "id: 1-1\nevent: your_turn\ndata: {\"ply\":1}\n\n: keep-alive\n\nid: 1-2\nevent: game_over\ndata: {}\n\n";
const wholeWant = [
  { id: "1-1", event: "your_turn", data: '{"ply":1}' },
  { id: "1-2", event: "game_over", data: "{}" },
];
const utf8 = new TextEncoder().encode("data: Zoë\n\n");

const cases: { name: string; chunks: (string | Uint8Array)[]; want: { id: string; event: string; data: string }[] }[] = [
  { name: "events and a comment", chunks: [whole], want: wholeWant },
  { name: "one byte at a time", chunks: whole.split(""), want: wholeWant },
  {
    name: "CRLF line ends, split between CR and LF",
    chunks: ["id: 1-1\r", "\nevent: a\r\ndata: x\r", "\n\r", "\n"],
    want: [{ id: "1-1", event: "a", data: "x" }],
  },
  { name: "CR line ends", chunks: ["event: a\rdata: x\r\r"], want: [{ id: "", event: "a", data: "x" }] },
  {
    name: "data lines are joined; the space after the colon is optional",
    chunks: ["data:a\ndata:  b\n\n"],
    want: [{ id: "", event: "message", data: "a\n b" }],
  },
  {
    name: "the last id holds for later events",
    chunks: ["id: 7\ndata: a\n\ndata: b\n\n"],
    want: [
      { id: "7", event: "message", data: "a" },
      { id: "7", event: "message", data: "b" },
    ],
  },
  { name: "an event without data is not dispatched", chunks: ["event: a\n\n"], want: [] },
  { name: "an unfinished event at the end is dropped", chunks: ["data: a\n"], want: [] },
  {
    name: "a character split between chunks",
    chunks: [utf8.slice(0, 8), utf8.slice(8)],
    want: [{ id: "", event: "message", data: "Zoë" }],
  },
];

for (const c of cases) {
  test(c.name, async () => {
    assert.deepEqual(await parse(c.chunks), c.want);
  });
}
