import { createRequestHandler } from "@react-router/express";
import express from "express";
import { getEnv } from "~/env.server";

// Parsed at import so a bad configuration stops start-up, not the first request.
export const env = getEnv();

export const app = express();
app.disable("x-powered-by");

app.use(
  createRequestHandler({
    build: () => import("virtual:react-router/server-build"),
  }),
);
