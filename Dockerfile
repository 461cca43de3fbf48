# The core-migrate image: `core-migrate` as the entrypoint, made to run `login-migration serve` (docs/infra.md).
#
#   docker build --build-arg BASE_IMAGE=node:24-bookworm-slim@sha256:<digest> -t <registry>/core-migrate:<tag> .
#
# The base is an argument with no default: a build pins the Node 24 image it trusts (by digest), and a machine that
# reaches no registry passes a local one (the containers suite imports one made from Debian). It must be a Debian-like
# image with Node 24 and npm on PATH and `useradd`, as the official node:24-*-slim images are.
ARG BASE_IMAGE

FROM ${BASE_IMAGE} AS build
ENV NPM_CONFIG_UPDATE_NOTIFIER=false NPM_CONFIG_FUND=false NPM_CONFIG_AUDIT=false
WORKDIR /src
# The manifests first, so the dependency layer is rebuilt only when they change. npm ci checks the lockfile against
# every workspace's package.json, so all four come, but only the two packed workspaces (and the root's build tools)
# are installed; no install script is needed to compile.
COPY package.json package-lock.json tsconfig.json ./
COPY core-client/package.json core-client/
COPY tui/package.json tui/
COPY infra/package.json infra/
COPY test/package.json test/
RUN npm ci --workspace core-client --workspace core-migrate --include-workspace-root --ignore-scripts
COPY core-client/ core-client/
COPY tui/ tui/
# The README's pack command (each prepack builds its dist/), then the two tarballs installed as an operator installs
# them, into a folder of their own: side by side, so core-migrate's core-client is this one, never a registry's.
RUN mkdir /packs \
 && npm pack --workspace core-client --workspace core-migrate --pack-destination /packs \
 && mkdir /opt/core-migrate \
 && cd /opt/core-migrate \
 && echo '{"name":"core-migrate-image","private":true}' > package.json \
 && npm install --omit=dev /packs/core-client-*.tgz /packs/core-migrate-*.tgz \
 && npm cache clean --force

FROM ${BASE_IMAGE}
# A user and a group of its own, both with a fixed id (10001:10001), so a volume or a bind mount can be handed to it by
# number (`chown -R 10001:10001 <folder>`, docs/infra.md); `useradd --user-group` alone would give the group whatever
# system id is free (999 on Debian).
RUN groupadd --system --gid 10001 core-migrate \
 && useradd --system --uid 10001 --gid 10001 --home-dir /var/lib/core-migrate --shell /usr/sbin/nologin core-migrate \
 && mkdir -p /var/lib/core-migrate \
 && chown core-migrate:core-migrate /var/lib/core-migrate \
 && chmod 700 /var/lib/core-migrate
# Owned by root: the service's user can run the code but not change it.
COPY --from=build /opt/core-migrate /opt/core-migrate
ENV PATH=/opt/core-migrate/node_modules/.bin:$PATH \
    NODE_ENV=production \
    LOGIN_MIGRATION_STORE=/var/lib/core-migrate/login-store.sqlite \
    LOGIN_MIGRATION_PORT=3568
WORKDIR /var/lib/core-migrate
# The waiting users and their legacy hashes (the SQLite store) outlive the container. Declared after the chown, so a
# new volume starts owned by the service's user.
VOLUME ["/var/lib/core-migrate"]
# By number, so that an orchestrator can see it is not root (Kubernetes' runAsNonRoot) without reading /etc/passwd.
USER 10001:10001
EXPOSE 3568
# `serve` finishes the sign-ins under way on SIGTERM, then exits 0.
STOPSIGNAL SIGTERM
# GET /health with the image's own Node (no curl in a slim image), on the port the service reads from the same variable.
HEALTHCHECK --interval=10s --timeout=5s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.LOGIN_MIGRATION_PORT}/health`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["core-migrate"]
# Every interface inside the container: on a bridge network the published port decides who reaches it; with
# `--network host` nothing is published and 0.0.0.0 is every interface of the host, so pass `--host 127.0.0.1` there
# (docs/infra.md). The core, its api-key and the service's key come from CORE_URL, CORE_API_KEY and
# LOGIN_MIGRATION_SERVICE_KEY.
CMD ["login-migration", "serve", "--host", "0.0.0.0"]
