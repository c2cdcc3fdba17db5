// React Router builds the client, then the server, in one process, with an instance of every Vite plugin for each: what
// a plugin makes in the client's pass reaches its server pass through the process's globals, under a name of its own.

/** A value one build pass hands the next, named `name` (e.g. "precompress.warming"). */
export function buildHandOff<T>(name: string): { get: () => T | undefined; set: (value: T) => void; take: () => T | undefined } {
  const key = Symbol.for(`founders-circle.${name}`);
  const holder = globalThis as { [key]?: T };
  return {
    get: () => holder[key],
    set: (value) => {
      holder[key] = value;
    },
    /** The value, no longer held. */
    take: () => {
      const value = holder[key];
      delete holder[key];
      return value;
    },
  };
}
