import { QueryClient, type QueryFunction } from "@tanstack/react-query";

export type UnauthorizedBehavior = "returnNull" | "throw";

/** Any non-2xx answer becomes `Error("<status>: <body or status text>")` (spec §8). */
export async function throwIfResNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  const body = await res.text();
  throw new Error(`${res.status}: ${body || res.statusText}`);
}

type QueryFnOptions = {
  on401: UnauthorizedBehavior;
  /** For tests and non-browser callers; defaults to the global fetch. */
  fetch?: typeof fetch;
};

/** GETs the query key's segments joined with "/", with credentials, and reads JSON (spec §7). */
export function getQueryFn<T>({ on401, fetch: fetchImpl = globalThis.fetch }: QueryFnOptions): QueryFunction<T | null> {
  return async ({ queryKey, signal }) => {
    const res = await fetchImpl(queryKey.join("/"), { credentials: "include", signal });
    if (on401 === "returnNull" && res.status === 401) return null;
    await throwIfResNotOk(res);
    return (await res.json()) as T;
  };
}

/** Spec §9: data never stale, no refetch on focus or interval, no retries. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: "throw" }),
        staleTime: Infinity,
        refetchOnWindowFocus: false,
        refetchInterval: false,
        retry: false,
      },
      mutations: { retry: false },
    },
  });
}

let browserClient: QueryClient | undefined;

/** A fresh client per server render; in the browser one for the whole visit, so cached data outlives navigation. */
export function getQueryClient(): QueryClient {
  if (typeof document === "undefined") return createQueryClient();
  return (browserClient ??= createQueryClient());
}
