// A TypeScript app of lesspost, typed from openapi.yaml: it signs two
// players in by email, renews a token, registers a webhook whose signed
// deliveries its own receiver verifies, plays a game of Less between them
// while following both players' live events (disconnecting and resuming
// midway), checks that errors arrive as the contract types them, and that
// the webhook's messages match the events, its delivery log, a secret
// rotation and the refusal of tampered messages.
//
// Settings come from the environment:
//   LESSPOST_URL          the server, e.g. http://127.0.0.1:8080
//   LESSPOST_MAILBOX_URL  where the players' email is read (GET /mail?to=…)
//   LESSPOST_PLAYER1, LESSPOST_PLAYER2  the players' addresses (optional)
// The webhook receiver listens on a free port of 127.0.0.1: the server must
// be allowed to deliver there (--webhook-allow-private).
//
// It exits 0 when every step passed, else 1 with the reason.

import { randomUUID } from "node:crypto";

import { CheckFailed, check, checkEqual, log } from "./check.js";
import { type Api, type Problem, type Schemas, Session, must, publicClient, refused } from "./client.js";
import { EventStream, type LiveEvent, type Resume, type StreamEvent } from "./events.js";
import { Mailbox } from "./mailbox.js";
import { findTurn } from "./play.js";
import { Receiver } from "./receiver.js";
import { deleteWebhook, deliveriesMatch, logMatches, registerWebhook, rotateSecret, tamperedRefused } from "./webhooks.js";

type LessGame = Schemas["LessGame"];
type Color = Schemas["Color"];
type Turn = Schemas["Turn"];

/** What a player's stream must deliver next: the event's fields that are known beforehand. */
interface Expected {
  kind: LiveEvent["kind"];
  game_id: string;
  color: string;
  ply: number;
  turn?: string;
}

/** A signed-in player, his event stream and the events it owes him. */
class Player {
  stream: EventStream | undefined;
  /** Events the server must still deliver on his stream, in order. */
  readonly expected: Expected[] = [];
  /** The ids of the events he received, in order. */
  readonly received: string[] = [];
  /** The events he received, in order. */
  readonly events: LiveEvent[] = [];

  constructor(
    readonly name: string,
    readonly session: Session,
  ) {}

  get api(): Api {
    return this.session.api;
  }

  async connect(resume?: Resume): Promise<void> {
    this.stream = await EventStream.open(this.api, this.name, resume);
  }

  disconnect(): void {
    this.stream?.close();
    this.stream = undefined;
  }

  /** Reads the events he is owed, checking each against what is expected. */
  async receive(): Promise<void> {
    const stream = this.stream;
    check(stream !== undefined, `${this.name} is not connected`);
    for (let want = this.expected.shift(); want !== undefined; want = this.expected.shift()) {
      const e = await stream.next();
      log(`  ${this.name} <- ${describe(e)}`);
      check(!this.received.includes(e.id), `${this.name}: event ${e.id} (${describe(e)}) arrived twice`);
      this.received.push(e.id);
      this.events.push(e.data);
      const got: Expected = { kind: e.data.kind, ...seatOf(e.data), ply: e.data.ply };
      if (want.turn !== undefined && e.data.kind === "turn_played") {
        got.turn = e.data.turn;
      }
      checkEqual(got, want, `${this.name}'s next event`);
      if (e.data.kind === "game_over") {
        check(e.data.result !== "" && e.data.result_line !== "", `${this.name}: game_over without its result: ${JSON.stringify(e.data)}`);
      }
    }
  }
}

/** The game and seat an event is about: none for a tournament's update or a bye. */
function seatOf(d: LiveEvent): { game_id: string; color: string } {
  return d.kind === "tournament_update" ? { game_id: "", color: "" } : { game_id: d.game_id ?? "", color: d.color ?? "" };
}

function describe(e: StreamEvent): string {
  const d = e.data;
  const turn = d.kind === "turn_played" ? ` ${d.turn}` : d.kind === "game_over" ? ` ${d.result}` : "";
  return `${d.kind} ${seatOf(d).color} ply ${d.ply}${turn} (id ${e.id})`;
}

function env(name: string, fallback?: string): string {
  const v = process.env[name] ?? fallback;
  if (v === undefined || v === "") {
    throw new CheckFailed(`${name} is not set`);
  }
  return v;
}

function less(game: Schemas["Game"]): LessGame {
  check(game.game === "less", `a game of ${game.game}, want less`);
  return game;
}

const baseUrl = env("LESSPOST_URL");
const mailbox = new Mailbox(env("LESSPOST_MAILBOX_URL"));
const anonymous = publicClient(baseUrl);

/** Signs in by email, as a person does in an app: ask for the email, copy the code, exchange it with the address. */
async function signIn(email: string): Promise<Session> {
  const seen = (await mailbox.messages(email)).length;
  const sent = await must(anonymous.POST("/v1/auth/login", { body: { email } }), `ask for a login email to ${email}`);
  checkEqual(sent.status, "sent", "login answer");
  const code = await mailbox.find(email, seen, /enter this code in the app: (\S+)/, "the login email");
  const tokens = await must(anonymous.POST("/v1/auth/token", { body: { email, code } }), `exchange the login code of ${email}`);
  checkEqual(tokens.token_type, "Bearer", "token type");
  checkEqual(tokens.user.email, email, "signed-in address");
  // The code works once.
  await refused(anonymous.POST("/v1/auth/token", { body: { email, code } }), 401, "login_invalid", "the login code spent twice");
  return new Session(anonymous, baseUrl, tokens);
}

/**
 * Step 2: a refresh rotates both tokens; the spent refresh token, shown
 * again (as by a thief holding a copy), is refused and ends the session, so
 * the newest tokens stop working too.
 */
async function refreshRotates(session: Session): Promise<void> {
  const before = session.current;
  const after = await session.refresh();
  // The access token may come out the same within a second (a JWT of the
  // same session and expiry); the refresh token is always new.
  check(after.refresh_token !== before.refresh_token, "the refresh kept the refresh token");
  check(Date.parse(after.expires_at) >= Date.parse(before.expires_at), "the renewed access token expires earlier");
  checkEqual(after.user.email, session.email, "refreshed account");
  const me = await must(session.api.GET("/v1/me"), "who am I, with the renewed token");
  checkEqual(me.email, session.email, "GET /v1/me");

  await refused(
    anonymous.POST("/v1/auth/refresh", { body: { refresh_token: before.refresh_token } }),
    401,
    "refresh_invalid",
    "the spent refresh token presented again",
  );
  await refused(
    anonymous.POST("/v1/auth/refresh", { body: { refresh_token: after.refresh_token } }),
    401,
    "refresh_invalid",
    "the newest refresh token of the ended session",
  );
  await refused(session.api.GET("/v1/me"), 401, "unauthorized", "the newest access token of the ended session");
}

/** The players of a game, by the colour each holds. */
type Seats = Partial<Record<Color, Player>>;

function seat(seats: Seats, color: Color | null): Player {
  const p = color === null ? undefined : seats[color];
  check(p !== undefined, `nobody holds ${color}`);
  return p;
}

/**
 * expectAfter records the events a change owes each player: every turn it
 * played to both, then "your turn" to the player to move, or the end to
 * both.
 */
function expectAfter(game: LessGame, played: Turn[], seats: Seats): void {
  const players = Object.entries(seats) as [Color, Player][];
  for (const t of played) {
    for (const [, p] of players) {
      p.expected.push({ kind: "turn_played", game_id: game.id, color: t.color, ply: t.ply, turn: t.turn });
    }
  }
  if (game.status === "active") {
    seat(seats, game.to_move).expected.push({ kind: "your_turn", game_id: game.id, color: game.to_move ?? "", ply: game.ply });
    return;
  }
  for (const [color, p] of players) {
    p.expected.push({ kind: "game_over", game_id: game.id, color, ply: game.ply });
  }
}

/** Delivers what the connected players are owed. */
async function receiveAll(players: Player[]): Promise<void> {
  await Promise.all(players.filter((p) => p.stream !== undefined).map((p) => p.receive()));
}

/** Creates a game of Less between the players, the first one White; both are invited. */
async function createGame(creator: Player, white: Player, black: Player, maxTurns: number): Promise<[LessGame, Seats]> {
  const { data, error, response } = await creator.api.POST("/v1/games", {
    body: {
      players: [
        { name: white.name, email: white.session.email },
        { name: black.name, email: black.session.email },
      ],
      board: { seed: "42" },
      options: { max_turns: maxTurns },
    },
  });
  check(data !== undefined, `create a game: ${response.status} ${JSON.stringify(error)}`);
  const game = less(data);
  checkEqual(response.status, 201, "create a game: status");
  checkEqual(response.headers.get("Location"), `/v1/games/${game.id}`, "create a game: Location");
  checkEqual(game.status, "active", "new game's status");
  checkEqual(game.to_move, "white", "new game's first mover");
  const seats: Seats = { white, black };
  for (const [color, p] of [["white", white], ["black", black]] as const) {
    p.expected.push({ kind: "invitation", game_id: game.id, color, ply: 0 });
  }
  return [game, seats];
}

/** Plays a turn for the player to move, found with listLegalMoves. */
async function playTurn(game: LessGame, seats: Seats, checkReplay: boolean): Promise<LessGame> {
  const mover = seat(seats, game.to_move);
  const moves = await findTurn(mover.api, game.id);
  check(moves !== undefined, `no legal turn found for ${game.to_move} at ply ${game.ply}`);
  const turn = moves.join(":");
  // A dry run first, as a play page shows the turn before it is sent.
  const preview = await must(
    mover.api.POST("/v1/games/{id}/preview", { params: { path: { id: game.id } }, body: { turn } }),
    `preview ${turn}`,
  );
  check(preview.game === "less", `a preview of ${preview.game}`);
  checkEqual(preview.turn, turn, "the previewed turn");
  checkEqual(preview.moves.map((m) => m.from + m.to), moves, "the previewed moves");
  const key = randomUUID();
  const submit = () =>
    mover.api.POST("/v1/games/{id}/turns", {
      params: { path: { id: game.id }, header: { "Idempotency-Key": key } },
      body: { turn, ply: game.ply },
    });
  const played = await must(submit(), `${mover.name} plays ${turn} at ply ${game.ply}`);
  log(`${mover.name} (${game.to_move}) played ${played.played.map((t) => `${t.ply}:${t.color}:${t.turn}`).join(", ")}`);
  checkEqual(played.played[0]?.turn, turn, "the turn played");
  if (checkReplay) {
    // A retry with the same key (say, the answer was lost) is answered
    // again, and plays nothing: the streams must not see it twice.
    const again = await submit();
    check(again.data !== undefined, `retry: ${again.response.status} ${JSON.stringify(again.error)}`);
    checkEqual(again.response.headers.get("Idempotent-Replayed"), "true", "the retry's Idempotent-Replayed");
    checkEqual(again.data.played, played.played, "the retry's turns");
  }
  const next = less(played.game);
  expectAfter(next, played.played, seats);
  return next;
}

/**
 * Step 4: a game played to its turn limit while both players follow their
 * events. Ann's app goes away for two turns and resumes with Last-Event-ID;
 * Bob's resumes with last_event_id, as clients that cannot set headers do.
 */
async function playAGame(ann: Player, bob: Player): Promise<void> {
  await ann.connect();
  await bob.connect();
  const [created, seats] = await createGame(ann, ann, bob, 4);
  let game = created;
  log(`game ${game.id} created: Ann white, Bob black, 4 turns each`);
  await receiveAll([ann, bob]);

  // What the apps do before the n-th turn is submitted.
  const schedule: Partial<Record<number, () => Promise<void>>> = {
    2: async () => {
      log("Ann's app goes away");
      ann.disconnect();
    },
    4: async () => {
      check(ann.expected.length > 0, "Ann missed nothing while away");
      log(`Ann's app comes back, resuming after event ${lastReceived(ann)} (Last-Event-ID)`);
      await ann.connect({ header: lastReceived(ann) });
    },
    5: async () => {
      log("Bob's app goes away");
      bob.disconnect();
    },
    7: async () => {
      check(bob.expected.length > 0, "Bob missed nothing while away");
      log(`Bob's app comes back, resuming after event ${lastReceived(bob)} (last_event_id)`);
      await bob.connect({ query: lastReceived(bob) });
    },
  };
  let n = 0;
  for (; game.status === "active"; n++) {
    await schedule[n]?.();
    game = await playTurn(game, seats, n === 0);
    await receiveAll([ann, bob]);
  }
  check(n > 7, `the game ended after ${n} turns, before the apps went away and came back`);

  const final = less(await must(ann.api.GET("/v1/games/{id}", { params: { path: { id: game.id } } }), "read the finished game"));
  checkEqual(final.status, "finished", "final status");
  checkEqual(final.to_move, null, "nobody to move once finished");
  check(final.result !== null, "a finished game has a result");
  check(["turn_limit", "complete"].includes(final.result.reason), `the game ended by ${final.result.reason}`);
  log(`game over: ${final.result.text} (${final.result.reason})`);
  const turns = await must(ann.api.GET("/v1/games/{id}/turns", { params: { path: { id: game.id } } }), "list the turns");
  checkEqual(turns.turns.length, final.ply, "turns listed");
}

function lastReceived(p: Player): string {
  const id = p.received.at(-1);
  check(id !== undefined, `${p.name} has received nothing to resume after`);
  return id;
}

/** A square of the board with no piece on it, other than those in avoid. */
function emptySquare(game: LessGame, avoid: string[]): string {
  const taken = new Set([...Object.values(game.pieces).flat(), ...avoid]);
  for (const row of "abcdefgh".slice(0, game.board.size)) {
    for (let col = 1; col <= game.board.size; col++) {
      if (!taken.has(`${row}${col}`)) {
        return `${row}${col}`;
      }
    }
  }
  throw new CheckFailed("no empty square");
}

/**
 * Step 5: errors are problems whose members the contract types: an illegal
 * turn names its rule and the index of the bad move; a stale ply, a turn
 * out of order, a reused idempotency key and a bad token have their codes.
 * The game then ends by resignation.
 */
async function errorsAreTyped(ann: Player, bob: Player): Promise<void> {
  // The first events after the first game's end are this game's
  // invitations: nothing else came in between.
  const [created, seats] = await createGame(ann, ann, bob, 10);
  let game = created;
  await receiveAll([ann, bob]);
  const id = game.id;

  await refused(
    bob.api.POST("/v1/games/{id}/turns", { params: { path: { id } }, body: { turn: "a1a2", ply: 0 } }),
    403,
    "not_your_turn",
    "Black plays first",
  );

  const first = (await must(ann.api.GET("/v1/games/{id}/moves", { params: { path: { id } } }), "White's legal moves")).moves[0];
  check(first !== undefined, "White has no legal move");
  const from = emptySquare(game, [first.to]);
  const bad = `${first.from}${first.to}:${from}${from.slice(0, 1)}${from.slice(1) === "1" ? "2" : "1"}`;
  // Previewing and playing it are refused alike.
  const illegal = (what: string, p: Problem) => {
    // rule is the contract's enum of rule codes, index a number or null.
    const rule: Problem["rule"] = p.rule;
    checkEqual({ rule, index: p.index }, { rule: "empty_square", index: 1 }, `${what} ${bad}: rule and index`);
    check(typeof p.rule_ref === "string" && p.rule_ref !== "", `${what} ${bad}: no rule_ref`);
    log(`${what} ${bad}: ${p.code} ${p.rule} (${p.rule_ref}) at move ${p.index}: ${p.detail}`);
  };
  const preview = ann.api.POST("/v1/games/{id}/preview", { params: { path: { id } }, body: { turn: bad } });
  illegal("preview", await refused(preview, 422, "illegal_turn", `preview ${bad}`));
  const submit = ann.api.POST("/v1/games/{id}/turns", { params: { path: { id } }, body: { turn: bad, ply: 0 } });
  illegal("submit", await refused(submit, 422, "illegal_turn", `submit ${bad}`));

  game = await playTurn(game, seats, false);
  await receiveAll([ann, bob]);
  await refused(
    bob.api.POST("/v1/games/{id}/turns", { params: { path: { id } }, body: { turn: "a1a2", ply: 0 } }),
    409,
    "stale_ply",
    "a turn made on the position before White's",
  );

  // Bob's turn with a key, then that key again with another request.
  const moves = await findTurn(bob.api, id);
  check(moves !== undefined, "Black has no legal turn");
  const key = randomUUID();
  const played = await must(
    bob.api.POST("/v1/games/{id}/turns", {
      params: { path: { id }, header: { "Idempotency-Key": key } },
      body: { turn: moves.join(":"), ply: game.ply },
    }),
    "Black plays",
  );
  game = less(played.game);
  expectAfter(game, played.played, seats);
  await receiveAll([ann, bob]);
  await refused(
    bob.api.POST("/v1/games/{id}/resign", { params: { path: { id }, header: { "Idempotency-Key": key } }, body: {} }),
    409,
    "idempotency_key_reused",
    "a key used for a turn, sent with a resignation",
  );

  // The types keep a request the contract refuses from being written at
  // all; sent anyway, the server refuses it the same way.
  const noPly = { turn: "a1a2" };
  await refused(
    // @ts-expect-error: SubmitTurnRequest requires ply.
    ann.api.POST("/v1/games/{id}/turns", { params: { path: { id } }, body: noPly }),
    400,
    "invalid_request",
    "a turn without its ply",
  );
  const stranger = publicClient(baseUrl);
  await refused(
    stranger.GET("/v1/games/{id}", { params: { path: { id } }, headers: { Authorization: "Bearer not-a-token" } }),
    401,
    "unauthorized",
    "a forged token",
  );

  const resigned = await must(
    ann.api.POST("/v1/games/{id}/resign", { params: { path: { id }, header: { "Idempotency-Key": randomUUID() } }, body: {} }),
    "White resigns",
  );
  game = less(resigned.game);
  checkEqual(resigned.played, [], "a resignation plays no turn");
  checkEqual(game.result?.reason, "resignation", "the end's reason");
  checkEqual(game.result?.loser, "white", "the side that resigned");
  expectAfter(game, [], seats);
  await receiveAll([ann, bob]);
  await refused(
    bob.api.POST("/v1/games/{id}/resign", { params: { path: { id } }, body: {} }),
    409,
    "game_over",
    "resigning a finished game",
  );
}

/**
 * Resuming after an event replays exactly what followed it: Ann's whole
 * history after her first event, across her reconnection, in order.
 */
async function historyReplays(ann: Player): Promise<void> {
  const [first, ...rest] = ann.received;
  check(first !== undefined, "Ann received nothing");
  ann.disconnect();
  const replay = await EventStream.open(ann.api, "Ann (replay)", { header: first });
  const got: string[] = [];
  for (const _ of rest) {
    got.push((await replay.next()).id);
  }
  replay.close();
  checkEqual(got, rest, "Ann's events replayed after her first");
}

async function main(): Promise<void> {
  const annEmail = env("LESSPOST_PLAYER1", "ann@example.org");
  const bobEmail = env("LESSPOST_PLAYER2", "bob@example.org");

  log("step 1: sign in by email");
  const annFirst = await signIn(annEmail);
  const bob = new Player("Bob", await signIn(bobEmail));

  log("step 2: refresh rotates the tokens; reusing a spent refresh token ends the session");
  await refreshRotates(annFirst);
  const ann = new Player("Ann", await signIn(annEmail));

  log("step 3: register a webhook; its receiver verifies a ping");
  const receiver = await Receiver.start();
  const hook = await registerWebhook(ann.api, receiver);

  log("step 4: play a game while following the events");
  await playAGame(ann, bob);

  log("step 5: errors are typed problems; a game ends by resignation");
  await errorsAreTyped(ann, bob);
  await historyReplays(ann);

  log("step 6: the webhook's messages are the events; the delivery log; a new secret; tampering");
  await deliveriesMatch(hook, ann.events);
  const entries = await logMatches(hook);
  const yourTurn = entries.find((e) => e.type === "your_turn");
  check(yourTurn !== undefined, "no your_turn in the delivery log");
  const ping = await rotateSecret(hook, yourTurn);
  await tamperedRefused(hook, ping);
  await logMatches(hook, yourTurn.webhook_id);
  await deleteWebhook(hook);
  await receiver.close();

  ann.disconnect();
  bob.disconnect();
  log("PASS");
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    const msg = err instanceof CheckFailed ? err.message : err instanceof Error ? (err.stack ?? err.message) : String(err);
    process.stderr.write(`FAIL: ${msg}\n`);
    process.exit(1);
  },
);
