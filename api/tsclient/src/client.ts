// The typed client: openapi-fetch over the types openapi-typescript
// generates from openapi.yaml (src/api.ts, made at build time), and a
// session that keeps an account's tokens fresh the way an app should.

import createClient, { type Client, type Middleware } from "openapi-fetch";

import type { components, paths } from "./api.js";
import { CheckFailed, check } from "./check.js";

export type Api = Client<paths>;
export type Schemas = components["schemas"];
export type Problem = Schemas["Problem"];
export type TokenResponse = Schemas["TokenResponse"];

/** A client without credentials: for signing in and refreshing. */
export function publicClient(baseUrl: string): Api {
  return createClient<paths>({ baseUrl });
}

/** The answer of an openapi-fetch call: data on success, the problem otherwise. */
type Answer<D, E> = { data: D; error?: never; response: Response } | { data?: never; error: E; response: Response };

/**
 * must returns the data of a successful answer, or fails with the
 * problem the server sent.
 */
export async function must<D, E>(call: Promise<Answer<D, E>>, what: string): Promise<D> {
  const { data, error, response } = await call;
  if (error !== undefined || data === undefined) {
    throw new CheckFailed(`${what}: ${response.status} ${JSON.stringify(error)}`);
  }
  return data;
}

/**
 * refused returns the problem of an answer that must be an error with the
 * status and code, typed as the contract's Problem: `rule`, `index` and
 * the list of codes come from openapi.yaml.
 */
export async function refused<D>(
  call: Promise<Answer<D, Problem>>,
  status: number,
  code: Problem["code"],
  what: string,
): Promise<Problem> {
  const { data, error, response } = await call;
  if (error === undefined) {
    throw new CheckFailed(`${what}: answered ${response.status} ${JSON.stringify(data)}, want ${status} ${code}`);
  }
  check(
    response.status === status && error.code === code && error.status === status,
    `${what}: answered ${response.status} ${JSON.stringify(error)}, want ${status} ${code}`,
  );
  check(
    response.headers.get("Content-Type")?.startsWith("application/problem+json") === true,
    `${what}: Content-Type ${response.headers.get("Content-Type")}, want application/problem+json`,
  );
  return error;
}

/**
 * Session holds the tokens of one sign-in. It renews the access token with
 * the refresh token shortly before it expires, one refresh at a time (a
 * refresh token works once; spending it twice ends the session), and keeps
 * only the newest refresh token.
 */
export class Session {
  readonly api: Api;
  readonly email: string;
  private tokens: TokenResponse;
  private renewing: Promise<TokenResponse> | undefined;

  constructor(
    private readonly anonymous: Api,
    baseUrl: string,
    tokens: TokenResponse,
  ) {
    this.tokens = tokens;
    this.email = tokens.user.email;
    this.api = createClient<paths>({ baseUrl });
    const auth: Middleware = {
      onRequest: async ({ request }) => {
        request.headers.set("Authorization", `Bearer ${await this.accessToken()}`);
        return request;
      },
    };
    this.api.use(auth);
  }

  get current(): TokenResponse {
    return this.tokens;
  }

  /** The access token, renewed first if it expires within a minute. */
  async accessToken(): Promise<string> {
    if (Date.parse(this.tokens.expires_at) - Date.now() < 60_000) {
      await this.refresh();
    }
    return this.tokens.access_token;
  }

  /** Spends the refresh token for the session's next pair of tokens. */
  async refresh(): Promise<TokenResponse> {
    this.renewing ??= must(
      this.anonymous.POST("/v1/auth/refresh", { body: { refresh_token: this.tokens.refresh_token } }),
      `refresh the tokens of ${this.email}`,
    ).finally(() => {
      this.renewing = undefined;
    });
    this.tokens = await this.renewing;
    return this.tokens;
  }
}
