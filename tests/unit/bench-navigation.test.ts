import { describe, expect, it } from "vitest";
import { frameOf, screenChange } from "../../scripts/bench/navigation.js";

const frames = (...pairs: [number, string][]) => pairs.map(([at, hash]) => ({ at, hash }));

describe("the navigation bench's screen change (Xvfb frames)", () => {
  it("times the first changed frame after the click and the frame the screen then stays at", () => {
    // Old page, click at 100, a view transition's fade (b, c), then the new page (d) from 180 on.
    const film = frames([90, "a"], [99, "a"], [110, "a"], [150, "b"], [160, "c"], [180, "d"], [190, "d"], [900, "d"]);
    expect(screenChange(film, 100)).toEqual({ changedAt: 150, completeAt: 180 });
  });

  it("compares with the last frame before the click, not the first one filmed", () => {
    // The pointer's hover had already changed the old page before the click.
    const film = frames([10, "hover-off"], [50, "hover-on"], [120, "hover-on"], [200, "new"]);
    expect(screenChange(film, 100)).toEqual({ changedAt: 200, completeAt: 200 });
  });

  it("says nothing changed when the screen never left the old page, or came back to it", () => {
    expect(screenChange(frames([50, "a"], [150, "a"], [250, "a"]), 100)).toEqual({ changedAt: null, completeAt: null });
    expect(screenChange(frames([50, "a"], [150, "flash"], [250, "a"]), 100)).toEqual({ changedAt: 150, completeAt: null });
  });

  it("takes the last arrival of the final picture when it was shown, left and shown again", () => {
    const film = frames([50, "a"], [150, "d"], [160, "e"], [170, "d"], [400, "d"]);
    expect(screenChange(film, 100)).toEqual({ changedAt: 150, completeAt: 170 });
  });

  it("reads ffmpeg's framemd5 lines in its time base, and nothing else", () => {
    const microseconds = { num: 1, den: 1_000_000 };
    expect(frameOf("0, 1795571490682583, 1795571490682583, 1, 384000, 0123456789abcdef0123456789abcdef", microseconds)).toEqual({
      at: 1795571490682.583,
      hash: "0123456789abcdef0123456789abcdef",
    });
    expect(frameOf("0, 7, 7, 1, 384000, 0123456789abcdef0123456789abcdef", { num: 1, den: 100 })?.at).toBe(70);
    expect(frameOf("#tb 0: 1/1000000", microseconds)).toBeNull();
    expect(frameOf("#stream#, dts, pts, duration, size, hash", microseconds)).toBeNull();
    expect(frameOf("", microseconds)).toBeNull();
  });
});
