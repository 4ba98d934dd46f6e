// Choosing a turn the way a play page does: ask the server which moves are
// legal (listLegalMoves), follow one, ask again, until the turn may end.
// The client knows no rules of Less.

import { type Api, must } from "./client.js";

/** The longest turn searched for; a turn of Less has at most 3 points. */
const maxMoves = 6;

/**
 * findTurn returns a whole legal turn for the player to move, as its moves
 * (`e5e4`, …), spending as many points as it can: it follows the first
 * legal move while points are left and backs up from dead ends (moves after
 * which the turn can neither go on nor end). Undefined if none is found.
 */
export async function findTurn(api: Api, gameId: string, sofar: string[] = []): Promise<string[] | undefined> {
  const query = sofar.length > 0 ? { turn: sofar.join(":") } : {};
  const options = await must(
    api.GET("/v1/games/{id}/moves", { params: { path: { id: gameId }, query } }),
    `legal moves after "${sofar.join(":")}"`,
  );
  if (options.left > 0 && sofar.length < maxMoves) {
    for (const move of options.moves) {
      const turn = await findTurn(api, gameId, [...sofar, move.from + move.to]);
      if (turn !== undefined) {
        return turn;
      }
    }
  }
  return options.can_end && sofar.length > 0 ? sofar : undefined;
}
