// Reading email the way the user of an app does: the test serves the
// messages its SMTP server received (GET /mail?to=<address>), and the app's
// user copies the code out of the newest login email.

import { CheckFailed, waitFor } from "./check.js";

export interface Mail {
  subject: string;
  text: string;
}

export class Mailbox {
  constructor(private readonly url: string) {}

  /** Every message delivered to the address so far, oldest first. */
  async messages(to: string): Promise<Mail[]> {
    const res = await fetch(`${this.url}/mail?to=${encodeURIComponent(to)}`);
    if (!res.ok) {
      throw new CheckFailed(`mailbox: ${res.status} ${await res.text()}`);
    }
    return (await res.json()) as Mail[];
  }

  /**
   * Waits for a message to the address after the first `seen` ones whose
   * text matches re, and returns the match's first group.
   */
  async find(to: string, seen: number, re: RegExp, what: string): Promise<string> {
    return waitFor(`${what} for ${to}`, 30_000, async () => {
      for (const m of (await this.messages(to)).slice(seen)) {
        const match = re.exec(m.text);
        if (match?.[1] !== undefined) {
          return match[1];
        }
      }
      return undefined;
    });
  }
}
