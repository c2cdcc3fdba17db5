// A throw-away copy of this checkout (its tracked and new files; not build/, and node_modules/
// linked, not copied), for tests that edit content and build, so the real build/ and content/ are
// never touched.
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** Copies the checkout into a fresh temporary folder; `beforeLink` runs before node_modules is linked (e.g. `git init`). */
export function freshCheckout(prefix = "checkout-", beforeLink?: (root: string) => void): string {
  const root = mkdtempSync(path.join(tmpdir(), prefix));
  const files = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z"], { encoding: "utf8" })
    .split("\0")
    .filter(Boolean);
  for (const file of files) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    try {
      cpSync(file, path.join(root, file));
    } catch {
      // A file deleted in the working tree but not yet in the index.
    }
  }
  beforeLink?.(root);
  symlinkSync(path.resolve("node_modules"), path.join(root, "node_modules"));
  return root;
}
