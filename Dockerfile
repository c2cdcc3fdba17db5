# syntax=docker/dockerfile:1
# The site as a container: built in one stage, run from another holding only the production
# dependencies, the build and server.js, as an unprivileged user. docs/deploying.md#the-container says how to run it:
#   docker build -t founders-site .
#   docker run --init -p 3000:3000 -e SITE_URL=https://founders.example.org -v site-data:/app/.data founders-site
# `npm run container:check` builds and runs it with podman, on a stand-in for the base image.

# The official Node image: 22, the version CI tests (.github/workflows/ci.yml runs in node:22-bookworm).
# Change both together. Named here, in a FROM, and only
# here: Dependabot's docker updates read FROM lines (not a build argument's default), and every stage
# below starts from this one by its stage name. (`npm run container:check` builds on a stand-in it gives this name.)
FROM node:22-bookworm-slim AS node-official
# An instruction of its own, so this stage is an image of its own: podman's builder without layers
# (container:check) removes a bare stage's image, which would be the base image itself.
WORKDIR /app

# Every dependency, exactly as the lockfile says, then the build (client, server, content, photos).
FROM node-official AS build
COPY package.json package-lock.json ./
# An optional .npmrc and certificate authority for a private registry or proxy, as build secrets (never
# in a layer). Without them npm uses its defaults.
RUN --mount=type=secret,id=npmrc,target=/root/.npmrc \
    --mount=type=secret,id=npmca,target=/run/secrets/npmca \
    --mount=type=cache,target=/root/.npm \
    npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# Production dependencies only.
FROM node-official AS production-dependencies
COPY package.json package-lock.json ./
RUN --mount=type=secret,id=npmrc,target=/root/.npmrc \
    --mount=type=secret,id=npmca,target=/run/secrets/npmca \
    --mount=type=cache,target=/root/.npm \
    npm ci --omit=dev --no-audit --no-fund

FROM node-official
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000
COPY --from=production-dependencies /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY package.json server.js ./
# The calendar's saved copy (its last good read, kept across restarts) lives in .data/: a
# volume, writable by the server's user.
RUN mkdir -p /app/.data && chown node:node /app/.data
VOLUME ["/app/.data"]
# The official images' unprivileged user.
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node is the process (not npm, which would not pass SIGTERM on); it stops gracefully on SIGTERM
# within 10 s. Run with --init (Docker, podman; `init: true` in Compose) so an init is PID 1.
STOPSIGNAL SIGTERM
CMD ["node", "server.js"]
