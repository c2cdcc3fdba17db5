import { randomBytes } from "node:crypto";
import { gunzipSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { compileGzipTemplate } from "./gzip-template";

const HOLE = "PLACEHOLDER-0123456789ab";
const nonce = () => randomBytes(16).toString("base64");

function roundTrip(text: string) {
  const template = compileGzipTemplate(text, HOLE);
  if (!template) throw new Error("not compiled");
  for (let i = 0; i < 3; i++) {
    const value = nonce();
    // gunzip checks the CRC and length in the trailer.
    expect(gunzipSync(template.fill(value)).toString()).toBe(text.split(HOLE).join(value));
  }
  return template;
}

describe("gzip template", () => {
  it("decodes to the text with each request's value in every hole", () => {
    const page = `<!doctype html><script nonce="${HOLE}">start()</script>${"<li class=\"event\">Speaker evening</li>".repeat(400)}<script nonce="${HOLE}">x</script><style nonce="${HOLE}"></style>`;
    const template = roundTrip(page);
    // The holes cost their own bytes and a few more; the text compresses as well as in one piece.
    const holes = page.split(HOLE).length - 1;
    const whole = gzipSync(page.split(HOLE).join(nonce()), { level: 9 }).length;
    expect(template.fill(nonce()).length).toBeLessThanOrEqual(whole + holes * (HOLE.length + 10) + 10);
  });

  it.each([
    ["no hole", "just text, no hole at all"],
    ["a hole at each end", `${HOLE}middle${HOLE}`],
    ["adjacent holes", `a${HOLE}${HOLE}b`],
    ["only a hole", HOLE],
    ["empty text", ""],
    ["text repeating around holes", `${"abc".repeat(50)}${HOLE}${"abc".repeat(50)}${HOLE}abc`],
    ["multi-byte characters", `Café — ${HOLE} — naïve ✓ ${"é".repeat(3000)}${HOLE}`],
  ])("handles %s", (_name, text) => {
    roundTrip(text);
  });

  it("keeps back-references right beyond the 32 KiB window and with many holes", () => {
    const random = () => randomBytes(600).toString("hex");
    const parts = Array.from({ length: 120 }, (_, i) => (i % 3 === 0 ? random() : `<p class="repeated">${i % 7}</p>`.repeat(20)));
    roundTrip(parts.join(HOLE));
  });

  it("refuses what it cannot compile or fill safely", () => {
    expect(compileGzipTemplate("a\0b", HOLE)).toBeUndefined();
    expect(compileGzipTemplate("text", "ñonce")).toBeUndefined();
    const template = compileGzipTemplate(`a${HOLE}b`, HOLE);
    expect(() => template?.fill("short")).toThrow(RangeError);
    expect(() => template?.fill("é".repeat(HOLE.length))).toThrow(RangeError);
  });
});
