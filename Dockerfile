# durable-agent worker image. docker-compose.yml runs it as `durable-agent worker`; any number of
# these, on any machines, can poll the same Temporal task queue.

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# Scripts are off so that `prepare` does not build before the sources are copied.
RUN npm ci --ignore-scripts
COPY . .
RUN npm run build

FROM node:20-bookworm-slim
# The agent's run_shell_command tool commonly needs git.
RUN apt-get update \
  && apt-get install -y --no-install-recommends git ca-certificates \
  && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    DURABLE_AGENT_HOME=/data
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY bin ./bin
RUN mkdir -p /data /workspace && chown node:node /data /workspace
USER node
VOLUME ["/data"]
# Run with an init process (compose: `init: true`; docker run: `--init`) so that the shell
# commands the agent starts are reaped and SIGTERM reaches the worker for a graceful shutdown.
ENTRYPOINT ["node", "bin/durable-agent.js"]
CMD ["worker"]
