// pulumi-language-nodejs for the project's own builds of the Pulumi CLI.
//
// Pulumi's Node.js language host is its own Go module
// (github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3) with no version tags, and the
// Go module proxy reachable from our machines refuses every version of it (403 "This module version
// is not available"), while it serves the CLI (pkg/v3) and the SDK (sdk/v3) at v3.248.0. This is
// the smallest host that runs a compiled JavaScript program the way the real one does: the engine
// starts it, it prints its port, and on Run it spawns `node @pulumi/pulumi/cmd/run` with the same
// flags and the same PULUMI_CONFIG / PULUMI_CONFIG_SECRET_KEYS environment. The program talks to
// the engine's resource monitor directly (the SDK needs no proxy for that), so every resource
// registration, check, diff, create, update, delete and read goes through the real engine and the
// SDK's real dynamic-provider host. What it leaves out (TypeScript via ts-node, dependency
// installation, plugin discovery in node_modules, code generation, debugging) is listed in
// README.md; nothing in this project needs it.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/config"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/emptypb"
)

// The exit code with which @pulumi/pulumi/cmd/run says it has already shown the user the error.
const exitAfterActionableMessage = 32

// Set at build time with -ldflags "-X main.version=...".
var version = "v3.248.0"

type host struct {
	pulumirpc.UnimplementedLanguageRuntimeServer
	engineAddress string
}

func main() {
	// The engine passes flags (-root, -tracing, ...) before the engine address; none changes what
	// this host does, so the first argument that is not a flag is the address.
	h := &host{}
	for _, arg := range os.Args[1:] {
		if !strings.HasPrefix(arg, "-") {
			h.engineAddress = arg
			break
		}
	}
	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Init: func(s *grpc.Server) error {
			pulumirpc.RegisterLanguageRuntimeServer(s, h)
			return nil
		},
		Options: rpcutil.OpenTracingServerInterceptorOptions(nil),
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-language-nodejs: could not start its RPC server: %v\n", err)
		os.Exit(1)
	}
	fmt.Printf("%d\n", handle.Port)
	if err := <-handle.Done; err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-language-nodejs: RPC server stopped: %v\n", err)
		os.Exit(1)
	}
}

func (h *host) Handshake(ctx context.Context, req *pulumirpc.LanguageHandshakeRequest) (*pulumirpc.LanguageHandshakeResponse, error) {
	if req.GetEngineAddress() != "" {
		h.engineAddress = req.GetEngineAddress()
	}
	return &pulumirpc.LanguageHandshakeResponse{}, nil
}

func (h *host) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: version}, nil
}

// Dynamic resources need no plugin but the engine's own pulumi-nodejs provider, which the engine
// finds by itself; packages with resource plugins are not looked for in node_modules.
func (h *host) GetRequiredPlugins(context.Context, *pulumirpc.GetRequiredPluginsRequest) (*pulumirpc.GetRequiredPluginsResponse, error) {
	return &pulumirpc.GetRequiredPluginsResponse{}, nil
}

func (h *host) GetRequiredPackages(context.Context, *pulumirpc.GetRequiredPackagesRequest) (*pulumirpc.GetRequiredPackagesResponse, error) {
	return &pulumirpc.GetRequiredPackagesResponse{}, nil
}

func (h *host) GetProgramDependencies(context.Context, *pulumirpc.GetProgramDependenciesRequest) (*pulumirpc.GetProgramDependenciesResponse, error) {
	return &pulumirpc.GetProgramDependenciesResponse{}, nil
}

func (h *host) RuntimeOptionsPrompts(context.Context, *pulumirpc.RuntimeOptionsRequest) (*pulumirpc.RuntimeOptionsResponse, error) {
	return &pulumirpc.RuntimeOptionsResponse{}, nil
}

// Dependencies are the project's to install (npm ci); `pulumi install` has nothing to do here.
func (h *host) InstallDependencies(req *pulumirpc.InstallDependenciesRequest, server pulumirpc.LanguageRuntime_InstallDependenciesServer) error {
	return nil
}

func (h *host) About(ctx context.Context, req *pulumirpc.AboutRequest) (*pulumirpc.AboutResponse, error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, err
	}
	out, err := exec.CommandContext(ctx, node, "--version").Output()
	if err != nil {
		return nil, err
	}
	return &pulumirpc.AboutResponse{Executable: node, Version: strings.TrimSpace(string(out))}, nil
}

func (h *host) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	info := req.GetInfo()
	if info == nil {
		return &pulumirpc.RunResponse{Error: "the engine sent no program info"}, nil
	}
	node, err := exec.LookPath("node")
	if err != nil {
		return &pulumirpc.RunResponse{Error: "could not find node on the $PATH"}, nil
	}
	// The SDK the program itself depends on runs it, as with the real host.
	resolve := exec.CommandContext(ctx, node, "-e", "console.log(require.resolve('@pulumi/pulumi/cmd/run'))")
	resolve.Dir = info.GetProgramDirectory()
	out, err := resolve.Output()
	if err != nil {
		return &pulumirpc.RunResponse{Error: "It looks like the Pulumi SDK has not been installed. Have you run npm install or yarn install?"}, nil
	}
	runPath := strings.TrimSpace(string(out))

	args := []string{runPath}
	flag := func(k, v string) {
		if v != "" {
			args = append(args, "--"+k, v)
		}
	}
	flag("monitor", req.GetMonitorAddress())
	flag("engine", h.engineAddress)
	flag("organization", req.GetOrganization())
	flag("project", req.GetProject())
	flag("root-directory", info.GetRootDirectory())
	flag("stack", req.GetStack())
	flag("pwd", info.GetProgramDirectory())
	if req.GetDryRun() {
		args = append(args, "--dry-run")
	}
	flag("parallel", strconv.Itoa(int(req.GetParallel())))
	entry := info.GetEntryPoint()
	if entry == "" {
		entry = "."
	}
	args = append(args, entry)
	args = append(args, req.GetArgs()...)

	// The SDK reads config keys in the old "<namespace>:config:<name>" form as well as the new one.
	cfg := map[string]string{}
	for k, v := range req.GetConfig() {
		key, err := config.ParseKey(k)
		if err != nil {
			return &pulumirpc.RunResponse{Error: fmt.Sprintf("failed to serialize configuration: %v", err)}, nil
		}
		cfg[key.Namespace()+":config:"+key.Name()] = v
	}
	cfgJSON, _ := json.Marshal(cfg)
	secretKeys := req.GetConfigSecretKeys()
	if secretKeys == nil {
		secretKeys = []string{}
	}
	secretJSON, _ := json.Marshal(secretKeys)

	cmd := exec.CommandContext(ctx, node, args...)
	cmd.Dir = info.GetProgramDirectory()
	cmd.Env = append(os.Environ(), "PULUMI_CONFIG="+string(cfgJSON), "PULUMI_CONFIG_SECRET_KEYS="+string(secretJSON))
	cmd.Stdout = os.Stdout
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			if exit.ExitCode() == exitAfterActionableMessage {
				return &pulumirpc.RunResponse{Bail: true}, nil
			}
			return &pulumirpc.RunResponse{Error: fmt.Sprintf("Program exited with non-zero exit code: %d", exit.ExitCode())}, nil
		}
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("Problem executing program (could not run language executor): %v", err)}, nil
	}
	return &pulumirpc.RunResponse{}, nil
}
