# syntax=docker/dockerfile:1
# Parley's image, built by the same steps CI runs and tests (`npm run test:package`): build the
# workspace, pack the server package (the compiled server with the widget and the console
# inside), install that tarball with --omit=dev into an empty folder, run `parley start`.
# There is no Docker engine on the machines that test Parley: these steps are tested there as
# commands, and compose.yaml by a test that checks every name it relies on
# (packages/server/__integration-tests__/deployment.test.ts).

FROM node:20-slim AS build
WORKDIR /src
COPY . .
RUN npm ci --no-audit --no-fund \
 && npm run build \
 && mkdir /pkg && npm pack -w packages/server --pack-destination /pkg

# better-sqlite3 compiles when no prebuilt binary fits: the tools stay in this stage.
FROM node:20-slim AS install
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY --from=build /pkg /pkg
RUN echo '{"name":"parley-app","private":true}' > package.json \
 && npm install --omit=dev --no-audit --no-fund /pkg/*.tgz

# PARLEY_SECRET must be given at run time (docker run -e, compose's .env): a production start
# without it is refused, naming the command that makes one. Other settings: the README's table.
FROM node:20-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    PARLEY_DATA_DIR=/data
WORKDIR /app
COPY --from=install /app /app
RUN mkdir /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:' + process.env.PORT + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
ENTRYPOINT ["/app/node_modules/.bin/parley"]
CMD ["start"]
