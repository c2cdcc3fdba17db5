import { copyFileSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { cameraJpeg, copyOfContent, editFile, giveFirstFounderPhoto, PORTRAIT_HEIC } from "../../tests/support/content-fixture";
import { formatProblem, loadContent } from "./load.server";

/** The formatted problems of a content folder after one edit. */
async function problemsAfter(file: string, edit: (text: string) => string): Promise<string[]> {
  const dir = copyOfContent();
  editFile(dir, file, edit);
  return (await loadContent(dir)).problems.map(formatProblem);
}

describe("loadContent", () => {
  it("reads a changed tagline", async () => {
    const dir = copyOfContent();
    editFile(dir, "site.yaml", (t) => t.replace(/^tagline: .*$/m, "tagline: Where founders find their circle."));
    const { content, problems } = await loadContent(dir);
    expect(problems).toEqual([]);
    expect(content?.site.tagline).toBe("Where founders find their circle.");
  });

  it("names file, entry, field and line for a founder without a name", async () => {
    // The third founder (index 2) loses the line with their name; their entry starts on that line.
    const problems = await problemsAfter("founders.yaml", (t) => t.replace("  - name: Priya Nair\n    title:", "  - title:"));
    expect(problems).toEqual([expect.stringMatching(/^content\/founders\.yaml: founders\[2\]\.name: required \(line \d+\)$/)]);
    const dir = copyOfContent();
    editFile(dir, "founders.yaml", (t) => t.replace("  - name: Priya Nair\n    title:", "  - title:"));
    const { problems: [problem] } = await loadContent(dir);
    const lines = readFileSync(path.join(dir, "founders.yaml"), "utf8").split("\n");
    expect(lines[problem!.line! - 1]).toBe("  - title: Co-founder & CTO");
  });

  it.each([
    ["a seventh founder", "founders.yaml", (t: string) => `${t}\n  - name: A. Seventh\n    title: CEO\n    company: Extra\n    description: One too many.\n`, /^content\/founders\.yaml: founders: must list exactly 6 founders .*found 7/],
    ["a missing board member", "board.yaml", (t: string) => t.replace(/ {2}- name: Hannah Schwartz[\s\S]*$/, ""), /^content\/board\.yaml: board: must list exactly 7 board members .*found 6/],
    ["a fourth step", "steps.yaml", (t: string) => `${t}\n  - title: Extra\n    description: x\n    time: x\n    details: [x]\n`, /^content\/steps\.yaml: steps: must list exactly 3 steps/],
    ["a fifth-icon benefit missing", "benefits.yaml", (t: string) => t.replace(/ {2}- icon: graduation-cap[\s\S]*$/, ""), /^content\/benefits\.yaml: benefits: must list exactly 6 benefits/],
    ["a misspelt field", "site.yaml", (t: string) => t.replace("tagline:", "tagLine:"), /^content\/site\.yaml: tagline: required/],
    ["a bad e-mail", "site.yaml", (t: string) => t.replace(/^email: .*$/m, "email: not-an-email"), /^content\/site\.yaml: email: must be an e-mail address \(line 13\)$/],
    ["a non-http provider URL", "site.yaml", (t: string) => t.replace("loginUrl: https://members.example.org/login", "loginUrl: javascript:alert(1)"), /^content\/site\.yaml: provider\.loginUrl: must be an absolute http\(s\) URL \(line \d+\)$/],
    ["a made-up non-profit status", "site.yaml", (t: string) => t.replace("nonprofitStatus: Nonprofit501c3", "nonprofitStatus: Charity"), /^content\/site\.yaml: nonprofitStatus: must be a schema\.org NonprofitType/],
    ["an empty benefit title", "benefits.yaml", (t: string) => t.replace("title: Tailored events", 'title: " "'), /^content\/benefits\.yaml: benefits\[2\]\.title: must not be empty/],
    ["an unknown icon", "benefits.yaml", (t: string) => t.replace("icon: mic", "icon: microphone"), /^content\/benefits\.yaml: benefits\[3\]\.icon: must be one of: users, /],
    ["a photo outside images/", "board.yaml", (t: string) => t.replace("    title: Chair", "    title: Chair\n    photo: ../secret.jpg"), /^content\/board\.yaml: board\[0\]\.photo: must be a JPEG, PNG, WebP, HEIC or HEIF file under content\/images\//],
    ["a photo of another format", "board.yaml", (t: string) => t.replace("    title: Chair", "    title: Chair\n    photo: images/chair.gif"), /^content\/board\.yaml: board\[0\]\.photo: must be a JPEG, PNG, WebP, HEIC or HEIF file under content\/images\/, e\.g\. images\/jane-doe\.jpg \(line 9\)$/],
    ["broken YAML", "home.yaml", (t: string) => t.replace("heroHeading: Join", "heroHeading: [Join"), /^content\/home\.yaml: not valid YAML: .* \(line \d+\)$/],
  ])("rejects %s and says where", async (_label, file, edit, expected) => {
    const problems = await problemsAfter(file, edit);
    expect(problems.length, problems.join("\n")).toBeGreaterThan(0);
    expect(problems.some((p) => expected.test(p)), problems.join("\n")).toBe(true);
  });

  it("names a misspelt field at its own line", async () => {
    const problems = await problemsAfter("site.yaml", (t) => t.replace("tagline:", "tagLine:"));
    expect(problems).toContain("content/site.yaml: tagLine: is not a field this file has (check the spelling) (line 8)");
  });

  it("reads a founders file that is a bare list, with the same paths", async () => {
    const dir = copyOfContent();
    editFile(dir, "founders.yaml", (t) => t.replace(/^founders:\n/m, "").replace(/^ {2}/gm, ""));
    expect((await loadContent(dir)).problems).toEqual([]);
    editFile(dir, "founders.yaml", (t) => t.replace("- name: Priya Nair\n  title:", "- title:"));
    expect((await loadContent(dir)).problems.map(formatProblem)).toEqual([expect.stringMatching(/^content\/founders\.yaml: founders\[2\]\.name: required \(line \d+\)$/)]);
  });

  it("says which file is missing", async () => {
    const dir = copyOfContent();
    rmSync(path.join(dir, "apply.yaml"));
    expect((await loadContent(dir)).problems.map(formatProblem)).toEqual(["content/apply.yaml: file is missing"]);
  });

  it("accepts a photo that exists and is an image", async () => {
    const dir = copyOfContent();
    await cameraJpeg(path.join(dir, "images", "maya.jpg"), { width: 600, height: 400 });
    giveFirstFounderPhoto(dir, "images/maya.jpg");
    const { content, problems } = await loadContent(dir);
    expect(problems).toEqual([]);
    expect(content?.founders[0]?.photo).toBe("images/maya.jpg");
  });

  it("fails on a missing or unreadable photo, naming the entry", async () => {
    const dir = copyOfContent();
    giveFirstFounderPhoto(dir, "images/nobody.jpg");
    writeFileSync(path.join(dir, "images", "not-a-photo.jpg"), "this is text, not a JPEG");
    editFile(dir, "board.yaml", (t) => t.replace("    title: Chair", "    title: Chair\n    photo: images/not-a-photo.jpg"));
    expect((await loadContent(dir)).problems.map(formatProblem).sort()).toEqual([
      "content/board.yaml: board[0].photo: content/images/not-a-photo.jpg cannot be read as a JPEG, PNG, WebP, HEIC or HEIF image (line 9)",
      expect.stringMatching(/^content\/founders\.yaml: founders\[0\]\.photo: content\/images\/nobody\.jpg does not exist .*\(line \d+\)$/),
    ]);
  });

  it("accepts an iPhone's HEIC photo, whatever the case of its extension", async () => {
    const dir = copyOfContent();
    copyFileSync(PORTRAIT_HEIC, path.join(dir, "images", "img_2041.HEIC"));
    copyFileSync(PORTRAIT_HEIC, path.join(dir, "images", "jonah.heif"));
    giveFirstFounderPhoto(dir, "images/img_2041.HEIC");
    editFile(dir, "board.yaml", (t) => t.replace("    title: Chair", "    title: Chair\n    photo: images/jonah.heif"));
    const { content, problems } = await loadContent(dir);
    expect(problems).toEqual([]);
    expect([content?.founders[0]?.photo, content?.board[0]?.photo]).toEqual(["images/img_2041.HEIC", "images/jonah.heif"]);
  });

  it("fails on a HEIC that cannot be decoded (cut short, text, a false size), naming file, entry, field and line", async () => {
    const dir = copyOfContent();
    const whole = readFileSync(PORTRAIT_HEIC);
    // The header whole, the compressed picture cut off halfway.
    writeFileSync(path.join(dir, "images", "maya.heic"), whole.subarray(0, whole.indexOf("mdat") + 100));
    // A text file named .heic, as a failed export can leave.
    writeFileSync(path.join(dir, "images", "chair.heic"), "this is text, not a HEIC");
    // A header that libvips reads but whose stated size (ispe) is not the picture's: only a
    // decode finds it, so the check decodes a HEIC whole rather than trust its header.
    const ispe = whole.indexOf("ispe") + 8;
    const misstated = Buffer.concat([whole.subarray(0, ispe), whole.subarray(ispe + 4, ispe + 8), whole.subarray(ispe, ispe + 4), whole.subarray(ispe + 8)]);
    writeFileSync(path.join(dir, "images", "vice-chair.heic"), misstated);
    giveFirstFounderPhoto(dir, "images/maya.heic");
    editFile(dir, "board.yaml", (t) => t.replace("    title: Chair", "    title: Chair\n    photo: images/chair.heic").replace("    title: Vice Chair", "    title: Vice Chair\n    photo: images/vice-chair.heic"));
    const problems = (await loadContent(dir)).problems.map(formatProblem).sort();
    expect(problems).toEqual([
      "content/board.yaml: board[0].photo: content/images/chair.heic cannot be read as a JPEG, PNG, WebP, HEIC or HEIF image (line 9)",
      expect.stringMatching(/^content\/board\.yaml: board\[1\]\.photo: content\/images\/vice-chair\.heic cannot be read as a JPEG, PNG, WebP, HEIC or HEIF image \(line \d+\)$/),
      expect.stringMatching(/^content\/founders\.yaml: founders\[0\]\.photo: content\/images\/maya\.heic cannot be read as a JPEG, PNG, WebP, HEIC or HEIF image \(line \d+\)$/),
    ]);
  });
});
