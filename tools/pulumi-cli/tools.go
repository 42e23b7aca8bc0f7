//go:build tools

// The Pulumi CLI is built from this module so that its dependencies are pinned by go.sum here:
// pkg/v3's own go.mod replaces sdk/v3 with a relative path, which only applies when pkg is the
// main module, so `go install .../cmd/pulumi@v3.248.0` refuses to build it.
package tools

import _ "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi"
