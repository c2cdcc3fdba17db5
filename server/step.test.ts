import type { IncomingMessage, ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { inOrder, type Step } from "./step";

const req = {} as IncomingMessage;
const res = {} as ServerResponse;

describe("inOrder", () => {
  it("runs the steps in order, then hands the request to the end", () => {
    const seen: string[] = [];
    const step =
      (name: string): Step =>
      (_req, _res, next) => {
        seen.push(name);
        next();
      };
    inOrder([step("a"), step("b")], (_req, _res, error) => seen.push(`done ${String(error)}`))(req, res);
    expect(seen).toEqual(["a", "b", "done undefined"]);
  });

  it("stops at a step that answers", () => {
    const seen: string[] = [];
    inOrder([() => seen.push("answered"), () => seen.push("never")], () => seen.push("done"))(req, res);
    expect(seen).toEqual(["answered"]);
  });

  it("hands an error passed to next, or thrown, to the end and skips the rest", () => {
    const errors: unknown[] = [];
    const failing = new Error("passed");
    inOrder([(_req, _res, next) => next(failing), () => errors.push("never")], (_req, _res, error) => errors.push(error))(req, res);
    inOrder(
      [
        () => {
          throw new Error("thrown");
        },
      ],
      (_req, _res, error) => errors.push(error),
    )(req, res);
    expect(errors).toEqual([failing, new Error("thrown")]);
  });
});
