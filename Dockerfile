# syntax=docker/dockerfile:1
# The Plant Store API as an image (README, "Running in a container").
#   docker build -t plantstore .
#   docker run -p 3000:3000 -v plantstore-data:/data plantstore
# Node 26, the active LTS line (supported into 2029; 24 is in maintenance), as the project's
# own Node in node_modules is. Both stages take the image as a build argument: a mirror, a
# pinned digest, or a locally made stand-in (apps/api/test/container) can replace it. The
# runtime stage runs on the slim image, which has no compilers or python: nothing is built there.
ARG NODE_IMAGE=node:26-bookworm
ARG RUNTIME_IMAGE=node:26-bookworm-slim

FROM ${NODE_IMAGE} AS build
ARG PNPM_VERSION=10.34.9
WORKDIR /src
ENV CI=true
RUN npm install --global --no-audit --no-fund "pnpm@${PNPM_VERSION}"
# Manifests first, so that a change of source reuses the installed dependencies.
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml .pnpmfile.cjs ./
COPY packages/domain/package.json packages/domain/
COPY packages/adapters-http/package.json packages/adapters-http/
COPY packages/adapters-persistence/package.json packages/adapters-persistence/
COPY packages/adapters-messaging/package.json packages/adapters-messaging/
COPY packages/adapters-redis/package.json packages/adapters-redis/
COPY packages/json-reader/package.json packages/json-reader/
COPY packages/client/package.json packages/client/
COPY apps/api/package.json apps/api/
# The CLI's bin is a committed file that pnpm links at install time.
COPY apps/cli/package.json apps/cli/
COPY apps/cli/bin apps/cli/bin
# The catalogue page: bundled at build time (esbuild), served by the API as static files.
COPY apps/web/package.json apps/web/
# A workspace member too (built by tsc -b), though not part of the image.
COPY examples/plant-catalogue/package.json examples/plant-catalogue/
# Nothing is compiled or downloaded beyond the registry's packages: better-sqlite3 13 ships its
# N-API binaries inside its package.
RUN pnpm install --frozen-lockfile
COPY . .
RUN pnpm run build
# Production dependencies only, each app with its own node_modules (workspace packages
# copied in). The image's Node runs them: the project's own Node (the root's optional
# node-<platform> packages, which deploy copies too) stays here. Of better-sqlite3 only this
# platform's shipped binary is run: the other platforms' binaries, the C++ sources and the
# SQLite amalgamation stay in this stage.
RUN pnpm --filter @plantstore/api deploy --legacy --prod /prod/api \
 && pnpm --filter @plantstore/cli deploy --legacy --prod /prod/cli \
 && rm -rf /prod/*/node_modules/.pnpm/node-linux-* /prod/*/node_modules/.pnpm/node-darwin-* \
      /prod/*/node_modules/.pnpm/node-bin-* /prod/*/node_modules/.bin/node \
 && for sqlite in /prod/*/node_modules/.pnpm/better-sqlite3@*/node_modules/better-sqlite3; do \
      rm -rf "$sqlite/deps" "$sqlite/src" "$sqlite/binding.gyp"; \
      find "$sqlite/prebuilds" -type f ! -name "linux-$(node -p process.arch).node" -delete; \
    done \
 && cd /prod/api/node_modules/@plantstore/adapters-persistence \
 && node -e "new (require('better-sqlite3'))(':memory:').close()" \
 && cd /prod/cli/node_modules/@plantstore/adapters-persistence \
 && node -e "new (require('better-sqlite3'))(':memory:').close()"

FROM ${RUNTIME_IMAGE} AS runtime
# Two malloc arenas instead of one per thread: the memory V8's compiler threads free stays
# reusable instead of resident in their own arenas, ~20 MB of peak RSS (docs/operations.md#memory).
ENV NODE_ENV=production \
    MALLOC_ARENA_MAX=2 \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATABASE_URL=sqlite:/data/plantstore.sqlite
WORKDIR /app/api
COPY --from=build /prod/api/package.json ./
COPY --from=build /prod/api/dist ./dist
COPY --from=build /prod/api/node_modules ./node_modules
COPY --from=build /prod/cli/package.json /app/cli/
COPY --from=build /prod/cli/dist /app/cli/dist
COPY --from=build /prod/cli/node_modules /app/cli/node_modules
# The built catalogue page, beside the API as in the checkout (apps/api/src/web-page-directory.ts):
# its index.html and hashed assets only, no dependency of its own at run time.
COPY --from=build /src/apps/web/dist/index.html /app/web/dist/
COPY --from=build /src/apps/web/dist/assets /app/web/dist/assets
# The admin CLI on PATH: `docker compose exec api plantstore token create --name NAME`.
# The data directory belongs to the unprivileged user the server runs as.
RUN chmod +x /app/cli/dist/main.js \
 && ln -s /app/cli/dist/main.js /usr/local/bin/plantstore \
 && mkdir -p /data \
 && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# node itself is PID 1: SIGTERM drains in-flight requests and exits 0 (no npm/pnpm wrapper).
CMD ["node", "dist/main.js"]
