# Every harness image from one file, built from the repository root. PROJECT is the project to publish; the target
# picks the image's shape: `service` for the stub and the two sample services, `runner` for the harness command.
#   docker build --build-arg PROJECT=services/Harness.SoapService --build-arg PORT=5081 --build-arg METRICS_PORT=5084 --target service -t harness/soap .
#   docker build --build-arg PROJECT=services/Harness.GrpcService --build-arg PORT=5082 --build-arg ADMIN_PORT=5083 --build-arg METRICS_PORT=5084 --target service -t harness/grpc .
#   docker build --build-arg PROJECT=services/Harness.ThirdPartyStub --build-arg PORT=5080 --target service -t harness/stub .
#   docker build --build-arg PROJECT=loadtests/Harness.LoadTests --target runner -t harness/runner .
# scripts/build-images.sh builds all four. Where no registry is reachable, pass the local base images
# (scripts/build-base-images.sh): --build-arg SDK_IMAGE=harness/dotnet-sdk:10.0
#   --build-arg RUNTIME_IMAGE=harness/dotnet-aspnet:10.0 --build-arg NODE_IMAGE=harness/node:20
ARG SDK_IMAGE=mcr.microsoft.com/dotnet/sdk:10.0
ARG RUNTIME_IMAGE=mcr.microsoft.com/dotnet/aspnet:10.0
ARG NODE_IMAGE=node:22-bookworm-slim

# The report inlines Chart.js from npm; fetch it where npm lives, so the SDK image needs no Node.js. Only the runner
# uses it, but the classic builder (the only one on engines without BuildKit) runs every stage before the target, so
# it comes first; its layer is cached after the first build.
FROM ${NODE_IMAGE} AS web
WORKDIR /web
COPY loadtests/Harness.LoadTests.Reporting/web/package.json loadtests/Harness.LoadTests.Reporting/web/package-lock.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts

FROM ${SDK_IMAGE} AS build
ARG PROJECT
WORKDIR /src
# Restore as its own layer: only the build files and the project files, so a source edit keeps the packages cached.
# global.json is left out on purpose: it pins the SDK installed on the developer's machine, not the image's.
# Every project an image can need is listed; a project missing here fails the restore with its path.
COPY Directory.Build.props Directory.Build.targets Directory.Packages.props .editorconfig ./
COPY services/Harness.Metrics/Harness.Metrics.csproj services/Harness.Metrics/
COPY services/Harness.Scheduling/Harness.Scheduling.csproj services/Harness.Scheduling/
COPY services/Harness.Workloads/Harness.Workloads.csproj services/Harness.Workloads/
COPY services/Harness.ServiceDefaults/Harness.ServiceDefaults.csproj services/Harness.ServiceDefaults/
COPY services/Harness.Scheduling.AspNetCore/Harness.Scheduling.AspNetCore.csproj services/Harness.Scheduling.AspNetCore/
COPY services/Harness.ServiceOperations/Harness.ServiceOperations.csproj services/Harness.ServiceOperations/
COPY services/Harness.Contracts/Harness.Contracts.csproj services/Harness.Contracts/
COPY services/Harness.Rpc.Soap/Harness.Rpc.Soap.csproj services/Harness.Rpc.Soap/
COPY services/Harness.ThirdPartyStub/Harness.ThirdPartyStub.csproj services/Harness.ThirdPartyStub/
COPY services/Harness.SoapService/Harness.SoapService.csproj services/Harness.SoapService/
COPY services/Harness.GrpcService/Harness.GrpcService.csproj services/Harness.GrpcService/
COPY loadtests/Harness.LoadTests.Clients/Harness.LoadTests.Clients.csproj loadtests/Harness.LoadTests.Clients/
COPY loadtests/Harness.LoadTests.Engine/Harness.LoadTests.Engine.csproj loadtests/Harness.LoadTests.Engine/
COPY loadtests/Harness.LoadTests.Recording/Harness.LoadTests.Recording.csproj loadtests/Harness.LoadTests.Recording/
COPY loadtests/Harness.LoadTests.Reporting/Harness.LoadTests.Reporting.csproj loadtests/Harness.LoadTests.Reporting/
COPY loadtests/Harness.LoadTests.Hosting/Harness.LoadTests.Hosting.csproj loadtests/Harness.LoadTests.Hosting/
COPY loadtests/Harness.LoadTests/Harness.LoadTests.csproj loadtests/Harness.LoadTests/
RUN test -n "$PROJECT" || { echo "error: pass --build-arg PROJECT=<folder of the project>, e.g. services/Harness.SoapService" >&2; exit 2; } \
 && dotnet restore "$PROJECT"
COPY services/ services/
COPY loadtests/ loadtests/
COPY --from=web /web/node_modules loadtests/Harness.LoadTests.Reporting/web/node_modules
# The stamp tells the Reporting build's npm step that node_modules matches package-lock.json. /app/start runs the
# project's assembly (exec: dotnet becomes PID 1 and gets the container's signals), whatever its name.
RUN touch loadtests/Harness.LoadTests.Reporting/web/node_modules/.harness-npm-ci.stamp \
 && dotnet publish "$PROJECT" -c Release --no-restore -o /app \
 && assembly=$(dotnet msbuild "$PROJECT" -getProperty:AssemblyName) \
 && printf '#!/bin/sh\nexec dotnet /app/%s.dll "$@"\n' "$assembly" >/app/start \
 && chmod 755 /app/start

# The harness command. Reports go to /reports; mount a host folder there (writable by APP_UID, 1654 by default).
# Before `service`, so that building this target (which runs every stage above it) leaves PORT unasked.
FROM ${RUNTIME_IMAGE} AS runner
WORKDIR /app
COPY --from=build /app .
WORKDIR /reports
USER $APP_UID
ENTRYPOINT ["/app/start"]
CMD ["--help"]

# The stub and the sample services: listen on every interface, on PORT (and ADMIN_PORT, the gRPC service's
# HTTP/1.1 port for /healthz and /metrics; METRICS_PORT, the /metrics that a starved ThreadPool cannot silence).
# The compose healthcheck reads these variables.
FROM ${RUNTIME_IMAGE} AS service
ARG PORT
ARG ADMIN_PORT=
ARG METRICS_PORT=
WORKDIR /app
RUN test -n "$PORT" || { echo "error: pass --build-arg PORT=<the service's port>, e.g. 5081" >&2; exit 2; }
COPY --from=build /app .
ENV Listen__Address=0.0.0.0 Listen__Port=${PORT} Listen__AdminPort=${ADMIN_PORT} Listen__MetricsPort=${METRICS_PORT}
EXPOSE ${PORT} ${ADMIN_PORT} ${METRICS_PORT}
USER $APP_UID
ENTRYPOINT ["/app/start"]
