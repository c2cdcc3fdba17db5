// The sign-in callback page's one script (server/github-oauth.ts): a typed, linted function, serialised with
// toString() (as app/events/tab-switch.ts is) with its words and names given as its one argument. The page's policy
// allows it by its hash, which github-oauth.ts takes from the same text.
import { jsonLdScript } from "~/lib/json-ld";

/** What the page's script sends, and shows and hands the editor's window when the token address gives no answer. */
export type CallbackScriptOptions = {
  /** The header that marks the token address's call as this script's. */
  tokenHeader: { name: string; value: string };
  /** What the page posts its opener first, and the echo it waits for: "authorizing:github". */
  handshake: string;
  /** What the page says while the token address is asked. */
  waiting: { title: string; text: string };
  /** The answer when the token address cannot be reached or answers no JSON. */
  unanswered: TokenAnswer;
};

/** The token address's answer: the page's new words, and the message for the editor's window. */
export type TokenAnswer = { title: string; text: string; message: string };

/**
 * Runs in the callback page. It drops the code and state from the address bar and history. With an opener (the
 * editor's window), it posts the handshake to it and, on the editor's echo from our own origin, posts the page's
 * message: a refusal's (`data-message`), or the token address's answer (`data-token`), asked for only then, so no
 * token is made for a page that could not deliver it. Every post names our own origin as its target: no other site's
 * window can receive it. Without an opener it does nothing: the page already says what to do. Self-contained: it is
 * serialised, so it reads nothing from outside but its argument and the page.
 */
export function finishSignIn({ tokenHeader, handshake, waiting, unanswered }: CallbackScriptOptions): void {
  const main = document.getElementById("sign-in");
  const editor = window.opener as Window | null;
  if (!main) return;
  const { token, message } = main.dataset;
  const origin = location.origin;
  const query = location.search;
  const show = (title: string, text: string) => {
    const [heading, paragraph] = [main.querySelector("h1"), main.querySelector("p")];
    if (heading) heading.textContent = title;
    if (paragraph) paragraph.textContent = text;
  };
  history.replaceState(null, "", location.pathname);
  if (!editor) return;
  if (token) show(waiting.title, waiting.text);
  let asked = false;
  addEventListener("message", (event) => {
    if (asked || event.origin !== origin || event.source !== editor || event.data !== handshake) return;
    asked = true;
    if (!token) return editor.postMessage(message, origin);
    fetch(token + query, { headers: { [tokenHeader.name]: tokenHeader.value }, cache: "no-store" })
      .then((response) => response.json() as Promise<TokenAnswer>)
      .catch(() => unanswered)
      .then((answer) => {
        show(answer.title, answer.text);
        editor.postMessage(answer.message, origin);
      });
  });
  editor.postMessage(handshake, origin);
}

/** The script's text, as the page holds it (its "<" escaped, so no word can end the element). */
export function callbackScript(options: CallbackScriptOptions): string {
  return `(${finishSignIn.toString()})(${jsonLdScript(options)});`;
}
