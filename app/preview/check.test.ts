// The preview pane's check of what a volunteer is typing: the value as the editor will save it, and the
// schema's messages named by the editor's labels.
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { loadValidContent } from "~/content/load.server";
import type { RawContent } from "~/content/schema";
import { asSaved, checkFile } from "./check";

let shipped: RawContent;
beforeAll(async () => {
  shipped = await loadValidContent(path.resolve("content"));
});

describe("asSaved", () => {
  it("trims texts and leaves emptied fields out, in lists and objects alike, as the editor saves them", () => {
    expect(asSaved({ name: "  Maya ", company: "", photo: null, tags: [" a ", { x: "  " }], count: 3 })).toEqual({
      name: "Maya",
      tags: ["a", {}],
      count: 3,
    });
  });
});

describe("checkFile", () => {
  it("gives the shipped files' values as the pages get them", () => {
    expect(checkFile("founders", { founders: shipped.founders })).toEqual({
      value: { founders: shipped.founders },
    });
    expect(checkFile("site", shipped.site).value).toEqual(shipped.site);
  });

  it("names an emptied required field by the editor's labels, items counted from 1, with the content check's word", () => {
    const founders = shipped.founders.map((founder, index) => (index === 2 ? { ...founder, name: "   " } : founder));
    expect(checkFile("founders", { founders })).toEqual({
      problems: [{ where: "Featured founders › Founder 3 › Name", message: "required" }],
    });
  });

  it("says what a list lacks and what an address must be, in the schema's words", () => {
    const { problems } = checkFile("founders", {
      founders: shipped.founders
        .slice(0, 5)
        .map((founder, index) => (index === 0 ? { ...founder, linkedinUrl: "linkedin.com/in/maya" } : founder)),
    });
    expect(problems).toEqual([
      { where: "Featured founders › Founder 1 › LinkedIn profile", message: "must be an absolute http(s) URL" },
      { where: "Featured founders", message: "must list exactly 6 founders (the site is designed for 6; found 5)" },
    ]);
  });

  it("takes a photo just picked (the editor's blob: URL until it is saved) as the file it will be, and keeps its URL", () => {
    const founders = shipped.founders.map((founder, index) =>
      index === 0 ? { ...founder, photo: "blob:http://127.0.0.1/1234" } : founder,
    );
    expect(checkFile("founders", { founders }).value?.founders[0]?.photo).toBe("blob:http://127.0.0.1/1234");
  });
});
