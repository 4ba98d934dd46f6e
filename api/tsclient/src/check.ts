// Assertions that fail the program with a message saying what was expected,
// and the program's log.

export class CheckFailed extends Error {
  override name = "CheckFailed";
}

export function check(ok: boolean, message: string): asserts ok {
  if (!ok) {
    throw new CheckFailed(message);
  }
}

export function checkEqual<T>(got: T, want: T, what: string): void {
  const g = JSON.stringify(got);
  const w = JSON.stringify(want);
  if (g !== w) {
    throw new CheckFailed(`${what}: got ${g}, want ${w}`);
  }
}

/** Waits until probe returns a value, looking every 100 ms, or fails after timeoutMs. */
export async function waitFor<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) {
      return v;
    }
    if (Date.now() > deadline) {
      throw new CheckFailed(`${what}: nothing after ${timeoutMs / 1000}s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Writes a line of the program's log (the Go test's output). */
export function log(line: string): void {
  process.stdout.write(line + "\n");
}
