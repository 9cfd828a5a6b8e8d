# Crestwatch in a container: compilers in the build stage only; the final image runs as `node`, not root.
#   docker build -t crestwatch .
#   docker run -p 3000:3000 -v crestwatch-data:/data crestwatch
# docs/operations.md covers configuration, scaling out (compose.yaml) and upgrades.

FROM node:20-bookworm-slim AS build
# better-sqlite3 is compiled here when no prebuilt binary fits the platform.
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# Dependencies first, so their layer survives source changes. Install scripts are skipped and the two
# packages that need theirs are rebuilt: `prepare` would build the dashboard before its sources are here.
COPY package.json package-lock.json ./
COPY packages/client/package.json packages/client/
RUN npm ci --ignore-scripts && npm rebuild better-sqlite3 esbuild
COPY . .
# The dashboard (web/dist) needs Vite, a dev dependency; then the dev dependencies go, and the link to the
# SDK workspace (packages/client, for API users; the service does not import it) that the image leaves out.
RUN npm run build:web && npm prune --omit=dev --ignore-scripts && rm -f node_modules/@crestwatch/client

FROM node:20-bookworm-slim
WORKDIR /app
# Owned by root, read-only for the service: only /data is its to write.
COPY --from=build /app/package.json /app/tsconfig.json /app/CHANGELOG.md ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/bin ./bin
COPY --from=build /app/src ./src
COPY --from=build /app/web/dist ./web/dist
RUN install -d -o node -g node -m 0700 /data
# HOST: listen on every interface of the container. DATA_DIR: the SQLite database (embedded mode), the
# generated secret key and the bootstrap key file.
ENV HOST=0.0.0.0 \
  PORT=3000 \
  DATA_DIR=/data
VOLUME ["/data"]
USER node
EXPOSE 3000
# /status answers 200 while the process serves (its body says which component is degraded); no curl here.
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/status`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# What `npm start` runs (tsx src/main.ts), without npm or the tsx CLI in between: SIGTERM reaches the
# service itself, which drains and exits within 10 s.
CMD ["node", "--import", "tsx", "src/main.ts"]
