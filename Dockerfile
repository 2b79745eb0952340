# syntax=docker/dockerfile:1
# Multi-stage build: compile with every dependency, run with production dependencies only, as a non-root user.

# Node 22 LTS (package.json engines: >= 20.19; CI and development machines run 20.19+).
ARG NODE_VERSION=22

FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# No dependency runs an install script: nothing here needs one, and a compromised package gets no foothold.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json nest-cli.json ./
COPY src ./src
RUN npx nest build

FROM node:${NODE_VERSION}-bookworm-slim AS runtime
# The old generation is capped (npm run bench: peak RSS about 200 MB under load instead of about 400, at the same
# throughput); the live heap is about 40 MB plus the bounded caches.
ENV NODE_ENV=production \
    PORT=3000 \
    DATA_DIR=/app/.data \
    NODE_OPTIONS=--max-old-space-size=192
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
# GET / links the guides, served at /guides/<file>.
COPY docs/*.md ./docs/
# The resolver CLI deploys the committed compiled contract.
COPY contracts/OffchainResolver.json ./contracts/
# The image's `node` user (uid 1000) owns only the data folder (embedded database, when DATABASE_URL is unset,
# which production allows only with ALLOW_EMBEDDED_DATABASE=true), private to it.
RUN mkdir -p /app/.data && chown node:node /app/.data && chmod 700 /app/.data
# Declared so that its content outlives the container even when nobody mounts a volume on purpose.
VOLUME ["/app/.data"]
USER node
EXPOSE 3000
# Liveness only: an orchestrator that restarts unhealthy containers must not restart every replica because the
# database is away. Readiness (/health/ready) is for the gateway; the image has no curl, so node's fetch asks.
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/health/live').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node is PID 1 and receives SIGTERM itself: readiness off, requests drained, pool closed, exit 0.
CMD ["node", "dist/main"]
