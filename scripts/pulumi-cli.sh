#!/usr/bin/env bash
# Builds the Pulumi CLI at the SDK version this package pins, from Go modules only, into
# .pulumi-cli/<version>/bin: `pulumi`, a Node.js language host (tools/pulumi-cli/language-host) and the
# SDK's `pulumi-resource-pulumi-nodejs`, which runs dynamic providers. A second run finds the binaries
# and returns at once. The CLI has no offline installer; its Go modules are on the module proxy.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
version=v$(node -p "require('$root/node_modules/@pulumi/pulumi/package.json').version")
src="$root/tools/pulumi-cli"
bin="$root/.pulumi-cli/$version"
stamp="$bin/.stamp"
# dev/pulumiCli.ts (cliStale) computes the same stamp to refuse a stale build: keep the two in step.
want=$(cat "$src/go.mod" "$src/go.sum" "$src/language-host/main.go" | sha256sum | cut -d' ' -f1)

if [ -x "$bin/pulumi" ] && [ -x "$bin/pulumi-language-nodejs" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
  echo "Pulumi CLI $version is built: $bin"
  exit 0
fi
if ! command -v go >/dev/null; then
  # --if-go: `npm test` builds the CLI when it can, and otherwise runs what needs no CLI.
  if [ "${1:-}" = "--if-go" ]; then
    echo "No Go here, so no Pulumi CLI is built: the suites that deploy programs will skip (install Go 1.26+ and run npm run pulumi-cli)."
    exit 0
  fi
  echo "Building the Pulumi CLI needs Go 1.26 or later (https://go.dev/dl/)." >&2
  exit 1
fi
if ! grep -q "github.com/pulumi/pulumi/pkg/v3 $version\$" "$src/go.mod"; then
  echo "tools/pulumi-cli/go.mod does not pin github.com/pulumi/pulumi/pkg/v3 $version, the @pulumi/pulumi version installed." >&2
  exit 1
fi

mkdir -p "$bin"
cd "$src"
# go.sum pins every module's hash; the public checksum database is not reachable from every machine
# this runs on, so it is not asked.
# No VCS stamp: the binaries say their version through -ldflags, and a CI clone may not let git be asked.
export GOSUMDB=off GOFLAGS="-mod=readonly -buildvcs=false" CGO_ENABLED=0
start=$(date +%s)
echo "Building the Pulumi CLI $version from Go modules (a cold build takes 3 to 15 minutes on 2 cores; warm, under 20 seconds)..."
# The flags of Pulumi's own release builds; the Automation API checks the version string.
go build -trimpath -tags osusergo,grpcnotrace \
  -ldflags "-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=$version" \
  -o "$bin/pulumi" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi
go build -trimpath -ldflags "-X main.version=$version" -o "$bin/pulumi-language-nodejs" ./language-host
ln -sfn "$root/node_modules/@pulumi/pulumi/pulumi-resource-pulumi-nodejs" "$bin/pulumi-resource-pulumi-nodejs"
echo "$want" > "$stamp"
echo "Built Pulumi CLI $version in $(( $(date +%s) - start )) s: $bin"
