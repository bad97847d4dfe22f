# toolsift gateway as a container: see docs/deploy.md. Not built in CI (no container engine there);
# test/deploy/dockerfile.test.ts checks its required parts.

# Build stage: dev dependencies, TypeScript build, then the same tarball `npm publish` would ship.
FROM node:20-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN npm run build && npm pack --ignore-scripts --pack-destination /tmp/pack

# Runtime stage: only the package, its runtime dependencies and the model clients (optional peers of the
# package, at the versions it is tested with), as the unprivileged `node` user.
FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    TOOLSIFT_HOME=/etc/toolsift \
    TOOLSIFT_STATE_DIR=/var/lib/toolsift
COPY --from=build /tmp/pack/ /tmp/pack/
RUN npm install --global --omit=dev --no-audit --no-fund /tmp/pack/toolsift-*.tgz \
    openai@6.49.0 @anthropic-ai/sdk@1.15.0 \
 && rm -rf /tmp/pack /root/.npm \
 && mkdir -p /etc/toolsift /var/lib/toolsift \
 && chown node:node /var/lib/toolsift
USER node
WORKDIR /var/lib/toolsift
# Session logs survive the container: mount a volume here.
VOLUME ["/var/lib/toolsift"]
EXPOSE 18789
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:18789/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
STOPSIGNAL SIGTERM
# The config is mounted at /etc/toolsift/toolsift.json5 (it must exist: a named config that is missing
# refuses the start). Binding 0.0.0.0 needs gateway.auth.token in it.
ENTRYPOINT ["toolsift"]
CMD ["gateway", "--bind", "0.0.0.0", "--port", "18789", "--config", "/etc/toolsift/toolsift.json5"]
