# syntax=docker/dockerfile:1
# graph-authz: the service only. Neo4j runs beside it (docker-compose.yml), so NEO4J_URI is
# always set here and the development-only resolution paths (testcontainers, the local
# launcher) are never taken.

# ---- build: compile TypeScript to dist/ ----
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY console ./console
RUN npm run build

# ---- runtime: production dependencies, compiled code, Cypher files ----
FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY cypher ./cypher
# The graph-authz command (docs/policy-as-code.md): `graph-authz ...` or `npx graph-authz ...` in /app.
COPY bin ./bin
RUN ln -s /app/bin/graph-authz.js /usr/local/bin/graph-authz
# DATA_DIR (default .neo4j) holds the generated admin key when ADMIN_API_KEY is not set.
RUN mkdir -p /app/.neo4j && chown node:node /app/.neo4j
USER node
EXPOSE 8080
# Ready = Neo4j answers and migrations are applied (slim images have no curl: use node).
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/readyz').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"]
# main.js handles SIGTERM: stops accepting connections, finishes requests, closes the driver.
STOPSIGNAL SIGTERM
CMD ["node", "dist/src/main.js"]
