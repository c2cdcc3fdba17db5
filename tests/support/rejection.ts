import { expect } from "vitest";

/** The error a promise rejects with, asserted to be an instance of `type`. */
export async function rejectionOf<T extends Error>(promise: Promise<unknown>, type: new (...args: never[]) => T): Promise<T> {
  const error = await promise.then(
    () => {
      throw new Error("expected a failure");
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(type);
  return error as T;
}
