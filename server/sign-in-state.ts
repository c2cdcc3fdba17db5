// The `state` of a GitHub sign-in, which no server keeps: a random nonce and its expiry, signed with
// an HMAC whose key every instance derives from the OAuth app's secret (HKDF, so the secret itself
// never signs anything and no new variable is needed). Any instance can check a state another one
// gave; the browser's own cookie carries the same value (the callback compares the two, as the
// stateless Sveltia and Decap authenticators do), and GitHub's code is good for one exchange only.
import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";

/** How long a sign-in may take on GitHub's screen: the state's and its cookie's life. */
export const STATE_TTL_SECONDS = 600;

/** What the key is for: another use of the same secret derives another key. */
const KEY_LABEL = "founders-circle admin sign-in state v1";

export type StateCheck = "good" | "malformed" | "forged" | "expired";

export type SignInStates = {
  /** A new state, good for STATE_TTL_SECONDS from `now` (milliseconds). */
  issue(now: number): string;
  /** Whether a state is one an instance with this secret gave, and still within its life at `now`. */
  check(state: string, now: number): StateCheck;
};

const SHAPE = /^([\w-]{32})\.(\d{1,12})\.([\w-]{43})$/;

export function signInStates(clientSecret: string): SignInStates {
  const key = Buffer.from(hkdfSync("sha256", clientSecret, Buffer.alloc(0), KEY_LABEL, 32));
  const mac = (payload: string) => createHmac("sha256", key).update(payload).digest("base64url");
  return {
    issue(now) {
      const payload = `${randomBytes(24).toString("base64url")}.${Math.floor(now / 1000) + STATE_TTL_SECONDS}`;
      return `${payload}.${mac(payload)}`;
    },
    check(state, now) {
      const parts = SHAPE.exec(state);
      if (!parts) return "malformed";
      const [, nonce, expires, signature] = parts as unknown as [string, string, string, string];
      const expected = Buffer.from(mac(`${nonce}.${expires}`));
      if (!timingSafeEqual(expected, Buffer.from(signature))) return "forged";
      return Number(expires) * 1000 > now ? "good" : "expired";
    },
  };
}
