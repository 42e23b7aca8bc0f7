// pulumi-language-nodejs for the project's own builds of the Pulumi CLI.
//
// Pulumi's Node.js language host is its own Go module
// (github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3) with no version tags, and the
// Go module proxy reachable from our machines refuses every version of it (403 "This module version
// is not available"), while it serves the CLI (pkg/v3) and the SDK (sdk/v3) at v3.248.0. This host
// is written from the behaviour of Pulumi's at v3.248.0 (sdk/nodejs/cmd/pulumi-language-nodejs in
// pulumi/pulumi): for a program it does what that one does, so that a program behaves the same under
// either. Run reads the runtime options of Pulumi.yaml (`typescript`, `tsconfig`, `nodeargs`,
// `packagemanager`), sets PULUMI_NODEJS_TYPESCRIPT / PULUMI_NODEJS_TSCONFIG_PATH for the SDK's
// ts-node support, serves the program a resource-monitor proxy and the `--sync` invoke pipes, passes
// `--tracing`, stops the program with SIGINT when the engine cancels, attaches a debugger when asked,
// and answers plugin discovery, `pulumi install` and `pulumi about` from the program's node_modules
// and package manager. What it leaves out (the bun runtime, plugins and policy packs written in
// Node.js, code generation, `pulumi package add`, Node.js version tools) is listed, with why it does
// not change how a program runs, in README.md ("The Pulumi CLI here").
package main

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/blang/semver"
	"github.com/google/shlex"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/propagation"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/encoding/proto"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/config"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/cmdutil"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/logging"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	"github.com/pulumi/pulumi/sdk/v3/go/common/workspace"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi-internal/netutil"
	"github.com/pulumi/pulumi/sdk/v3/nodejs/npm"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

const (
	// What the engine runs the program with, resolved from the program's folder (so the program's own
	// @pulumi/pulumi runs it). PULUMI_LANGUAGE_NODEJS_RUN_PATH overrides it, as with Pulumi's host.
	defaultRunPath = "@pulumi/pulumi/cmd/run"
	// The exit code with which @pulumi/pulumi/cmd/run says it has already shown the user the error.
	exitAfterActionableMessage = 32
	// Where a debugger is looked for first: node's default for --inspect-brk.
	debugPort = 9229
)

// Set at build time with -ldflags "-X main.version=...".
var version = "v3.248.0"

type host struct {
	pulumirpc.UnimplementedLanguageRuntimeServer
	engineAddress string
	tracing       string
	otelEndpoint  string
	// Cancelled by the Cancel RPC: every running program is then interrupted.
	cancelled context.Context
	cancel    context.CancelFunc
	// The programs running, waited for before the host exits, so that none outlives it.
	running sync.WaitGroup
}

func main() {
	tracing := flag.String("tracing", "", "Emit tracing to a Zipkin-compatible tracing endpoint")
	runtimeName := flag.String("runtime", "nodejs", "The runtime that runs programs; only nodejs is built here")
	showVersion := flag.Bool("version", false, "Print the current plugin version and exit")
	flag.Parse()
	if *showVersion {
		fmt.Println(version)
		os.Exit(0)
	}
	logging.InitLogging(false, 0, false)
	otelEndpoint := os.Getenv("PULUMI_OTEL_EXPORTER_OTLP_ENDPOINT")
	if otelEndpoint == "" {
		cmdutil.InitTracing("pulumi-language-nodejs", "pulumi-language-nodejs", *tracing)
	} else {
		if err := cmdutil.InitOtelTracing("pulumi-language-nodejs", otelEndpoint); err != nil {
			logging.V(3).Infof("failed to initialize OTel tracing: %v", err)
		}
		defer cmdutil.CloseOtelTracing()
	}
	if *runtimeName != "nodejs" {
		cmdutil.Exit(fmt.Errorf("unsupported runtime: %s (this build of pulumi-language-nodejs runs nodejs only)", *runtimeName))
	}

	var engineAddress string
	if args := flag.Args(); len(args) > 0 {
		engineAddress = args[0]
	}
	// Pulumi starts plugins in process groups of their own, so a Ctrl-C or a group kill aimed at
	// `pulumi` never reaches the host: it goes on its own when its parent does (a killed `pulumi`,
	// a stopped test run), and takes its programs with it.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go watchParent(os.Getppid(), stop)
	cancelled, cancel := context.WithCancel(context.Background())
	h := &host{engineAddress: engineAddress, tracing: *tracing, otelEndpoint: otelEndpoint, cancelled: cancelled, cancel: cancel}
	serverCancel := make(chan bool)
	go func() {
		<-ctx.Done()
		stop()
		h.cancel()
		h.running.Wait()
		close(serverCancel)
	}()
	// The host goes when the engine does, instead of outliving a killed `pulumi`.
	if engineAddress != "" {
		if err := rpcutil.Healthcheck(ctx, engineAddress, 5*time.Minute, stop); err != nil {
			cmdutil.Exit(fmt.Errorf("could not start health check host RPC server: %w", err))
		}
	}

	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Cancel: serverCancel,
		Init: func(s *grpc.Server) error {
			pulumirpc.RegisterLanguageRuntimeServer(s, h)
			return nil
		},
		Options: rpcutil.TracingServerInterceptorOptions(nil),
	})
	if err != nil {
		cmdutil.Exit(fmt.Errorf("could not start language host RPC server: %w", err))
	}
	fmt.Printf("%d\n", handle.Port)
	if err := <-handle.Done; err != nil {
		cmdutil.Exit(fmt.Errorf("language host RPC stopped serving: %w", err))
	}
}

// watchParent calls gone once the process that started the host has exited (the host is then
// re-parented, so its parent's ID changes). Polled: no portable notice exists, and Pdeathsig would
// follow the thread of `pulumi` that started the host rather than the process.
func watchParent(parent int, gone func()) {
	for range time.Tick(250 * time.Millisecond) {
		if os.Getppid() != parent {
			gone()
			return
		}
	}
}

// options are the runtime options of Pulumi.yaml (`runtime: {name: nodejs, options: {...}}`).
type options struct {
	typescript     bool
	tsconfig       string
	nodeargs       string
	packagemanager npm.PackageManagerType
}

// The same defaults, and the same messages for a wrong type, as Pulumi's host.
func parseOptions(raw map[string]any) (options, error) {
	o := options{typescript: true, packagemanager: npm.AutoPackageManager}
	if v, ok := raw["typescript"]; ok {
		b, isBool := v.(bool)
		if !isBool {
			return o, errors.New("typescript option must be a boolean")
		}
		o.typescript = b
	}
	if v, ok := raw["tsconfig"]; ok {
		s, isString := v.(string)
		if !isString {
			return o, errors.New("tsconfigpath option must be a string")
		}
		o.tsconfig = s
	}
	if v, ok := raw["nodeargs"]; ok {
		s, isString := v.(string)
		if !isString {
			return o, errors.New("nodeargs option must be a string")
		}
		o.nodeargs = s
	}
	if v, ok := raw["packagemanager"]; ok {
		s, isString := v.(string)
		if !isString {
			return o, errors.New("packagemanager option must be a string")
		}
		switch pm := npm.PackageManagerType(s); pm {
		case npm.AutoPackageManager, npm.NpmPackageManager, npm.YarnPackageManager, npm.PnpmPackageManager, npm.BunPackageManager:
			o.packagemanager = pm
		default:
			return o, fmt.Errorf("packagemanager option must be one of auto, npm, yarn, pnpm or bun, got %q", s)
		}
	}
	return o, nil
}

func optionsOf(info *pulumirpc.ProgramInfo) (options, error) {
	if info == nil || info.GetOptions() == nil {
		return parseOptions(nil)
	}
	return parseOptions(info.GetOptions().AsMap())
}

func (h *host) Handshake(ctx context.Context, req *pulumirpc.LanguageHandshakeRequest) (*pulumirpc.LanguageHandshakeResponse, error) {
	h.engineAddress = req.GetEngineAddress()
	hc, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	if err := rpcutil.Healthcheck(hc, h.engineAddress, 5*time.Minute, stop); err != nil {
		return nil, fmt.Errorf("could not start health check host RPC server: %w", err)
	}
	return &pulumirpc.LanguageHandshakeResponse{}, nil
}

func (h *host) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: version}, nil
}

func (h *host) Cancel(context.Context, *emptypb.Empty) (*emptypb.Empty, error) {
	h.cancel()
	return &emptypb.Empty{}, nil
}

func (h *host) Template(context.Context, *pulumirpc.TemplateRequest) (*pulumirpc.TemplateResponse, error) {
	return &pulumirpc.TemplateResponse{}, nil
}

// `pulumi new` asks for the package manager when the template does not name one.
func (h *host) RuntimeOptionsPrompts(ctx context.Context, req *pulumirpc.RuntimeOptionsRequest) (*pulumirpc.RuntimeOptionsResponse, error) {
	if _, named := req.GetInfo().GetOptions().AsMap()["packagemanager"]; named {
		return &pulumirpc.RuntimeOptionsResponse{}, nil
	}
	return &pulumirpc.RuntimeOptionsResponse{Prompts: []*pulumirpc.RuntimeOptionPrompt{{
		Key:         "packagemanager",
		Description: "The package manager to use for installing dependencies",
		PromptType:  pulumirpc.RuntimeOptionPrompt_STRING,
		Choices:     plugin.MakeExecutablePromptChoices("npm", "pnpm", "yarn", "bun"),
		Default:     &pulumirpc.RuntimeOptionPrompt_RuntimeOptionValue{PromptType: pulumirpc.RuntimeOptionPrompt_STRING, StringValue: "npm"},
	}}}, nil
}

// GetRequiredPackages finds the resource plugins the program's packages declare
// (`"pulumi": {"resource": true}` in a package.json under node_modules), so that `pulumi up`
// installs them before the program runs, and warns when two copies of @pulumi/pulumi cannot work
// together.
func (h *host) GetRequiredPackages(ctx context.Context, req *pulumirpc.GetRequiredPackagesRequest) (*pulumirpc.GetRequiredPackagesResponse, error) {
	s := &pluginScan{seen: map[string]bool{}, sdks: map[string]semver.Version{}}
	s.walk(req.GetInfo().GetProgramDirectory(), false)
	if len(s.errs) > 0 {
		logging.V(3).Infof("one or more errors while discovering plugins: %v", errors.Join(s.errs...))
	}
	var first string
	for p, v := range s.sdks {
		if first == "" {
			first = p
			continue
		}
		if why := incompatible(v, s.sdks[first]); why != "" {
			fmt.Fprintf(os.Stderr, "Found incompatible versions of @pulumi/pulumi. %s\n  Version %s referenced at %s\n  Version %s referenced at %s\n",
				why, s.sdks[first], first, v, p)
			break
		}
	}
	return &pulumirpc.GetRequiredPackagesResponse{Packages: s.found}, nil
}

type pluginScan struct {
	seen  map[string]bool
	sdks  map[string]semver.Version
	found []*pulumirpc.PackageDependency
	errs  []error
}

func (s *pluginScan) walk(dir string, inNodeModules bool) {
	dir, err := filepath.Abs(dir)
	if err != nil || s.seen[dir] {
		return
	}
	s.seen[dir] = true
	entries, err := os.ReadDir(dir)
	if err != nil {
		s.errs = append(s.errs, err)
		return
	}
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		isDir := e.IsDir()
		if e.Type()&os.ModeSymlink != 0 {
			if p, err = filepath.EvalSymlinks(p); err != nil {
				s.errs = append(s.errs, err)
				continue
			}
			fi, err := os.Stat(p)
			if err != nil {
				s.errs = append(s.errs, err)
				continue
			}
			isDir = fi.IsDir()
		}
		switch {
		case isDir:
			// A policy pack's plugins are not the program's.
			if pack, err := workspace.DetectPolicyPackPathAt(p); err != nil {
				s.errs = append(s.errs, err)
				continue
			} else if pack != "" {
				continue
			}
			s.walk(p, inNodeModules || filepath.Base(dir) == "node_modules")
		case inNodeModules && e.Name() == "package.json":
			s.readManifest(p)
		}
	}
}

func (s *pluginScan) readManifest(p string) {
	b, err := os.ReadFile(p)
	if err != nil {
		s.errs = append(s.errs, err)
		return
	}
	var m struct {
		Name    string                  `json:"name"`
		Version string                  `json:"version"`
		Pulumi  plugin.PulumiPluginJSON `json:"pulumi"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		s.errs = append(s.errs, fmt.Errorf("%s: %w", p, err))
		return
	}
	if m.Name == "@pulumi/pulumi" {
		if v, err := semver.Parse(m.Version); err == nil {
			s.sdks[p] = v
		} else {
			s.errs = append(s.errs, fmt.Errorf("could not understand version %s in '%s': %w", m.Version, p, err))
		}
	}
	if !m.Pulumi.Resource {
		return
	}
	name := m.Pulumi.Name
	if name == "" {
		if !strings.HasPrefix(m.Name, "@pulumi/") {
			s.errs = append(s.errs, fmt.Errorf("%s: the package %q has a resource plugin but no \"pulumi\": {\"name\"}", p, m.Name))
			return
		}
		name = strings.TrimPrefix(m.Name, "@pulumi/")
	}
	v := m.Pulumi.Version
	if v == "" {
		v = m.Version
	}
	if v != "" && !strings.HasPrefix(v, "v") {
		v = "v" + v
	}
	dep := &pulumirpc.PackageDependency{Name: name, Kind: "resource", Version: v, Server: m.Pulumi.Server}
	if pz := m.Pulumi.Parameterization; pz != nil {
		dep.Parameterization = &pulumirpc.PackageParameterization{Name: pz.Name, Version: pz.Version, Value: pz.Value}
	}
	s.found = append(s.found, dep)
}

// Why two @pulumi/pulumi versions cannot share a program ("" when they can): the same major
// version from 3 on.
func incompatible(a, b semver.Version) string {
	switch {
	case a.Major == 0 && b.Major == 0:
		if a.Minor != b.Minor {
			return "Differing major or minor versions are not supported."
		}
	case a.Major >= 1 && a.Major <= 2 && b.Major >= 1 && b.Major <= 2:
	case a.Major > 2 || b.Major > 2:
		if a.Major != b.Major {
			return "Differing major versions are not supported."
		}
	case (a.Major == 1 && b.Major == 0 && b.Minor == 17) || (b.Major == 1 && a.Major == 0 && a.Minor == 17):
	default:
		return "Differing major or minor versions are not supported."
	}
	return ""
}

func (h *host) GetProgramDependencies(ctx context.Context, req *pulumirpc.GetProgramDependenciesRequest) (*pulumirpc.GetProgramDependenciesResponse, error) {
	opts, err := optionsOf(req.GetInfo())
	if err != nil {
		return nil, fmt.Errorf("failed to parse options: %w", err)
	}
	pm, err := npm.ResolvePackageManager(opts.packagemanager, req.GetInfo().GetProgramDirectory())
	if err != nil {
		return nil, fmt.Errorf("failed to determine package manager: %w", err)
	}
	pkgs, err := pm.ListPackages(ctx, req.GetInfo().GetProgramDirectory(), req.GetTransitiveDependencies())
	if err != nil {
		return nil, fmt.Errorf("failed to get node dependencies: %w", err)
	}
	deps := make([]*pulumirpc.DependencyInfo, len(pkgs))
	for i, p := range pkgs {
		deps[i] = &pulumirpc.DependencyInfo{Name: p.Name, Version: p.Version}
	}
	return &pulumirpc.GetProgramDependenciesResponse{Dependencies: deps}, nil
}

// `pulumi install` (and `pulumi new`): the package manager the options or the lock file name
// installs the program's dependencies, from the workspace root when the program is in one.
func (h *host) InstallDependencies(req *pulumirpc.InstallDependenciesRequest, server pulumirpc.LanguageRuntime_InstallDependenciesServer) error {
	closer, stdout, stderr, err := rpcutil.MakeInstallDependenciesStreams(server, req.GetIsTerminal())
	if err != nil {
		return err
	}
	defer closer.Close()
	opts, err := optionsOf(req.GetInfo())
	if err != nil {
		return fmt.Errorf("failed to parse options: %w", err)
	}
	fmt.Fprintf(stdout, "Installing dependencies...\n\n")
	root := req.GetInfo().GetProgramDirectory()
	if ws, err := npm.FindWorkspaceRoot(root); err == nil {
		fmt.Fprintf(stdout, "Detected workspace root at %s\n", ws)
		root = ws
	} else if !errors.Is(err, npm.ErrNotInWorkspace) {
		return fmt.Errorf("failure while trying to find workspace root: %w", err)
	}
	if _, err := npm.Install(server.Context(), opts.packagemanager, root, false, stdout, stderr); err != nil {
		return fmt.Errorf("installing dependencies: %w", err)
	}
	fmt.Fprintf(stdout, "Finished installing dependencies\n\n")
	return closer.Close()
}

func (h *host) About(ctx context.Context, req *pulumirpc.AboutRequest) (*pulumirpc.AboutResponse, error) {
	opts, err := optionsOf(req.GetInfo())
	if err != nil {
		return nil, fmt.Errorf("failed to parse options: %w", err)
	}
	pm, err := npm.ResolvePackageManager(opts.packagemanager, req.GetInfo().GetProgramDirectory())
	if err != nil {
		return nil, fmt.Errorf("could not resolve packagemanager: %w", err)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, fmt.Errorf("could not find executable \"node\": %w", err)
	}
	resp := &pulumirpc.AboutResponse{Executable: node, Metadata: map[string]string{"packagemanager": pm.Name()}}
	if out, err := exec.CommandContext(ctx, node, "--version").Output(); err == nil {
		resp.Version = strings.TrimSpace(string(out))
	}
	if v, err := pm.Version(); err == nil {
		resp.Metadata["packagemanagerVersion"] = v.String()
	}
	return resp, nil
}

// locate resolves a module from the program's folder, with the message Pulumi's host gives when
// the SDK is not installed.
func locate(module, dir, node string) (string, error) {
	script := fmt.Sprintf(`try { console.log(require.resolve(%q)); } catch (error) { `+
		`if (error.code === 'MODULE_NOT_FOUND') { console.error("It looks like the Pulumi SDK has not been installed. Have you run pulumi install?") } `+
		`else { console.error(error.message); } process.exit(1); }`, module)
	cmd := exec.Command(node, "-e", script)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return "", errors.New(string(exit.Stderr))
		}
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

func (h *host) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	info := req.GetInfo()
	if info == nil {
		return &pulumirpc.RunResponse{Error: "the engine sent no program info"}, nil
	}
	if h.engineAddress == "" {
		return nil, errors.New("when debugging or running explicitly, must call Handshake before Run")
	}
	dial := append(rpcutil.TracingInterceptorDialOptions(), grpc.WithTransportCredentials(insecure.NewCredentials()), rpcutil.GrpcChannelOptions())
	engineConn, err := grpc.NewClient(h.engineAddress, dial...)
	if err != nil {
		return nil, fmt.Errorf("language host could not make connection to engine: %w", err)
	}
	defer engineConn.Close()
	monitorConn, err := grpc.NewClient(req.GetMonitorAddress(), dial...)
	if err != nil {
		return nil, err
	}
	defer monitorConn.Close()
	monitor := pulumirpc.NewResourceMonitorClient(monitorConn)

	// The program talks to the engine's monitor through this proxy, as under Pulumi's host.
	stopProxy := make(chan bool)
	defer close(stopProxy)
	proxy, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Cancel: stopProxy,
		Init: func(s *grpc.Server) error {
			pulumirpc.RegisterResourceMonitorServer(s, &monitorProxy{target: monitor})
			return nil
		},
		Options: rpcutil.TracingServerInterceptorOptions(nil),
	})
	if err != nil {
		return nil, err
	}
	pipes, err := newInvokePipes()
	if err != nil {
		return nil, err
	}
	defer pipes.close()
	pipesDone := pipes.serve(ctx, monitor)

	node, err := exec.LookPath("node")
	if err != nil {
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("could not find node on the $PATH: %s", err.Error())}, nil
	}
	runPath := os.Getenv("PULUMI_LANGUAGE_NODEJS_RUN_PATH")
	if runPath == "" {
		runPath = defaultRunPath
	}
	if runPath, err = locate(runPath, info.GetProgramDirectory(), node); err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}

	result := make(chan *pulumirpc.RunResponse, 1)
	go func() {
		result <- h.runProgram(ctx, req, pulumirpc.NewEngineClient(engineConn), node, runPath, fmt.Sprintf("127.0.0.1:%d", proxy.Port), pipes.dir)
	}()
	proxyDone := proxy.Done
	for {
		select {
		case err := <-proxyDone:
			if err != nil {
				return &pulumirpc.RunResponse{Error: err.Error()}, nil
			}
			proxyDone = nil
		case err := <-pipesDone:
			if err != nil {
				return &pulumirpc.RunResponse{Error: err.Error()}, nil
			}
			pipesDone = nil
		case r := <-result:
			return r, nil
		}
	}
}

func (h *host) runProgram(ctx context.Context, req *pulumirpc.RunRequest, engine pulumirpc.EngineClient, node, runPath, monitor, syncDir string) *pulumirpc.RunResponse {
	info := req.GetInfo()
	args := []string{runPath}
	flagArg := func(k, v string) {
		if v != "" {
			args = append(args, "--"+k, v)
		}
	}
	flagArg("monitor", monitor)
	flagArg("engine", h.engineAddress)
	flagArg("sync", syncDir)
	flagArg("organization", req.GetOrganization())
	flagArg("project", req.GetProject())
	flagArg("root-directory", info.GetRootDirectory())
	flagArg("stack", req.GetStack())
	flagArg("pwd", info.GetProgramDirectory())
	if req.GetDryRun() {
		args = append(args, "--dry-run")
	}
	flagArg("parallel", strconv.Itoa(int(req.GetParallel())))
	flagArg("tracing", h.tracing)
	// The engine always names an entry point, "." for the program's folder.
	args = append(args, info.GetEntryPoint())
	args = append(args, req.GetArgs()...)

	// The SDK reads config keys in the old "<namespace>:config:<name>" form as well as the new one.
	cfg := map[string]string{}
	for k, v := range req.GetConfig() {
		key, err := config.ParseKey(k)
		if err != nil {
			return &pulumirpc.RunResponse{Error: fmt.Sprintf("failed to serialize configuration: %v", err)}
		}
		cfg[key.Namespace()+":config:"+key.Name()] = v
	}
	cfgJSON, _ := json.Marshal(cfg)
	secretKeys := req.GetConfigSecretKeys()
	if secretKeys == nil {
		secretKeys = []string{}
	}
	secretJSON, _ := json.Marshal(secretKeys)
	env := append(os.Environ(), "PULUMI_CONFIG="+string(cfgJSON), "PULUMI_CONFIG_SECRET_KEYS="+string(secretJSON))

	opts, err := optionsOf(info)
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}
	}
	// The SDK's run entry registers ts-node (the program's own, else the one it vendors) with the
	// program's typescript when this is set: the default, as with Pulumi's host.
	if opts.typescript {
		env = append(env, "PULUMI_NODEJS_TYPESCRIPT=true")
	}
	if opts.tsconfig != "" {
		env = append(env, "PULUMI_NODEJS_TSCONFIG_PATH="+opts.tsconfig)
	}
	nodeArgs, err := shlex.Split(opts.nodeargs)
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}
	}
	var port int
	if req.GetAttachDebugger() {
		if port, err = netutil.FindNextAvailablePort(debugPort); err != nil {
			return &pulumirpc.RunResponse{Error: fmt.Sprintf("failed to find available port for debugger: %v", err)}
		}
		// --inspect-publish-uid=http keeps "Debugger listening on..." off the program's output.
		nodeArgs = append(nodeArgs, fmt.Sprintf("--inspect-brk=%d", port), "--inspect-publish-uid=http")
	}
	nodeArgs = append(nodeArgs, args...)
	carrier := propagation.MapCarrier{}
	otel.GetTextMapPropagator().Inject(ctx, carrier)
	if tp := carrier.Get("traceparent"); tp != "" {
		env = append(env, "TRACEPARENT="+tp)
	}
	if h.otelEndpoint != "" {
		env = append(env, "PULUMI_OTEL_EXPORTER_OTLP_ENDPOINT="+h.otelEndpoint)
	}
	logging.V(5).Infoln("Language host launching process: ", node, strings.Join(nodeArgs, " "))

	// Stopped by the Cancel RPC or the end of the request: SIGINT first, so the SDK can wind down.
	cmdCtx, cmdCancel := context.WithCancel(h.cancelled)
	defer cmdCancel()
	context.AfterFunc(ctx, cmdCancel)
	cmd := exec.CommandContext(cmdCtx, node, nodeArgs...)
	cmd.Cancel = func() error {
		if err := cmd.Process.Signal(os.Interrupt); err != nil {
			return cmd.Process.Kill()
		}
		return nil
	}
	cmd.WaitDelay = 5 * time.Second
	cmd.Env = env
	// Wrapped, so that exec copies through a pipe: node may make its stdout non-blocking, which must
	// not leak into the engine's own.
	cmd.Stdout = struct{ io.Writer }{os.Stdout}
	oom := &oomWatch{}
	cmd.Stderr = oom.tee(os.Stderr)

	h.running.Add(1)
	defer h.running.Done()
	err = cmd.Start()
	if err == nil && req.GetAttachDebugger() {
		err = startDebugging(ctx, engine, cmd, port)
	}
	if err == nil {
		err = cmd.Wait()
	}
	oom.done()
	if err == nil {
		return &pulumirpc.RunResponse{}
	}
	_ = os.Stdout.Sync()
	_ = os.Stderr.Sync()
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("Problem executing program (could not run language executor): %v", err)}
	}
	switch code := exit.ExitCode(); code {
	case 0:
		return &pulumirpc.RunResponse{Error: fmt.Sprintf("Program exited unexpectedly: %v", exit)}
	case exitAfterActionableMessage:
		return &pulumirpc.RunResponse{Bail: true}
	default:
		msg := fmt.Sprintf("Program exited with non-zero exit code: %d", code)
		if oom.seen() {
			msg += ". Detected a possible out of memory error. Consider increasing the memory available to the nodejs process " +
				"by setting the `nodeargs` runtime option in Pulumi.yaml to `nodeargs: --max-old-space-size=<size>` where " +
				"`<size>` is the maximum memory in megabytes that can be allocated to nodejs. " +
				"See https://www.pulumi.com/docs/concepts/projects/project-file/#runtime-options"
		}
		return &pulumirpc.RunResponse{Error: msg}
	}
}

// Tells the engine (and so the user's IDE) where to attach to the paused program.
func startDebugging(ctx context.Context, engine pulumirpc.EngineClient, cmd *exec.Cmd, port int) error {
	cfg := map[string]any{
		"name":             "Pulumi: Program (nodejs)",
		"type":             "node",
		"request":          "attach",
		"processId":        cmd.Process.Pid,
		"continueOnAttach": true,
		"skipFiles":        []any{"<node_internals>/**"},
	}
	message := fmt.Sprintf("on process id %d", cmd.Process.Pid)
	if port != debugPort {
		cfg["port"] = port
		message += fmt.Sprintf(" and port %d", port)
	}
	s, err := structpb.NewStruct(cfg)
	if err != nil {
		return err
	}
	if _, err := engine.StartDebugging(ctx, &pulumirpc.StartDebuggingRequest{Config: s, Message: message}); err != nil {
		return fmt.Errorf("unable to start debugging: %w", err)
	}
	return nil
}

// oomWatch passes the program's stderr through and notes V8's out-of-memory report, so that the
// error can say which runtime option raises the limit.
type oomWatch struct {
	mu       sync.Mutex
	detected bool
	w        *io.PipeWriter
	finished chan struct{}
}

func (o *oomWatch) tee(out io.Writer) io.Writer {
	r, w := io.Pipe()
	o.w, o.finished = w, make(chan struct{})
	go func() {
		defer close(o.finished)
		scanner := bufio.NewScanner(io.TeeReader(r, out))
		scanner.Buffer(make([]byte, 64*1024), 1024*1024)
		for scanner.Scan() {
			line := scanner.Text()
			// The second form is how the report looks when the inspector hook fails first (pulumi/pulumi#16596).
			if strings.Contains(line, "<--- Last few GCs --->") || strings.Contains(line, "Check failed: needs_context && current_scope_ == closure_scope_") {
				o.mu.Lock()
				o.detected = true
				o.mu.Unlock()
			}
		}
		// Keep draining after a scanner error, so that the program never blocks on its stderr.
		_, _ = io.Copy(out, r)
	}()
	return w
}

func (o *oomWatch) done() {
	_ = o.w.Close()
	<-o.finished
}

func (o *oomWatch) seen() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.detected
}

// monitorProxy forwards every resource-monitor call of the program to the engine. RegisterResource
// carries the "pulumi-runtime: nodejs" header, by which the engine applies its alias fix-ups for
// older Node.js SDKs.
type monitorProxy struct {
	pulumirpc.UnsafeResourceMonitorServer
	target pulumirpc.ResourceMonitorClient
}

func (p *monitorProxy) GetDeploymentInfo(ctx context.Context, r *emptypb.Empty) (*pulumirpc.DeploymentInfo, error) {
	return p.target.GetDeploymentInfo(ctx, r)
}

func (p *monitorProxy) SupportsFeature(ctx context.Context, r *pulumirpc.SupportsFeatureRequest) (*pulumirpc.SupportsFeatureResponse, error) {
	return p.target.SupportsFeature(ctx, r)
}

func (p *monitorProxy) Invoke(ctx context.Context, r *pulumirpc.ResourceInvokeRequest) (*pulumirpc.InvokeResponse, error) {
	return p.target.Invoke(ctx, r)
}

func (p *monitorProxy) Call(ctx context.Context, r *pulumirpc.ResourceCallRequest) (*pulumirpc.CallResponse, error) {
	return p.target.Call(ctx, r)
}

func (p *monitorProxy) ReadResource(ctx context.Context, r *pulumirpc.ReadResourceRequest) (*pulumirpc.ReadResourceResponse, error) {
	return p.target.ReadResource(ctx, r)
}

func (p *monitorProxy) RegisterResource(ctx context.Context, r *pulumirpc.RegisterResourceRequest) (*pulumirpc.RegisterResourceResponse, error) {
	return p.target.RegisterResource(metadata.AppendToOutgoingContext(ctx, "pulumi-runtime", "nodejs"), r)
}

func (p *monitorProxy) RegisterResourceOutputs(ctx context.Context, r *pulumirpc.RegisterResourceOutputsRequest) (*emptypb.Empty, error) {
	return p.target.RegisterResourceOutputs(ctx, r)
}

func (p *monitorProxy) RegisterStackTransform(ctx context.Context, r *pulumirpc.Callback) (*emptypb.Empty, error) {
	return p.target.RegisterStackTransform(ctx, r)
}

func (p *monitorProxy) RegisterStackInvokeTransform(ctx context.Context, r *pulumirpc.Callback) (*emptypb.Empty, error) {
	return p.target.RegisterStackInvokeTransform(ctx, r)
}

func (p *monitorProxy) RegisterResourceHook(ctx context.Context, r *pulumirpc.RegisterResourceHookRequest) (*emptypb.Empty, error) {
	return p.target.RegisterResourceHook(ctx, r)
}

func (p *monitorProxy) RegisterErrorHook(ctx context.Context, r *pulumirpc.RegisterErrorHookRequest) (*emptypb.Empty, error) {
	return p.target.RegisterErrorHook(ctx, r)
}

func (p *monitorProxy) RegisterPackage(ctx context.Context, r *pulumirpc.RegisterPackageRequest) (*pulumirpc.RegisterPackageResponse, error) {
	return p.target.RegisterPackage(ctx, r)
}

func (p *monitorProxy) SignalAndWaitForShutdown(ctx context.Context, r *emptypb.Empty) (*emptypb.Empty, error) {
	return p.target.SignalAndWaitForShutdown(ctx, r)
}

// invokePipes is the `--sync` channel: two FIFOs in a fresh folder over which an SDK that invokes
// synchronously (runtime.tryGetSyncInvokes; older SDKs' invokeSync) writes length-prefixed
// ResourceInvokeRequests and reads InvokeResponses. The FIFOs are made when serving starts; the SDK
// opens them only when it first invokes synchronously.
type invokePipes struct {
	dir      string
	mu       sync.Mutex
	req, res *os.File
}

func newInvokePipes() (*invokePipes, error) {
	dir, err := os.MkdirTemp("", "pulumi-node-pipes")
	if err != nil {
		return nil, err
	}
	return &invokePipes{dir: dir}, nil
}

func (p *invokePipes) serve(ctx context.Context, monitor pulumirpc.ResourceMonitorClient) <-chan error {
	done := make(chan error, 1)
	go func() {
		done <- p.loop(ctx, monitor)
	}()
	return done
}

func (p *invokePipes) loop(ctx context.Context, monitor pulumirpc.ResourceMonitorClient) error {
	reqPath, resPath := filepath.Join(p.dir, "invoke_req"), filepath.Join(p.dir, "invoke_res")
	if err := syscall.Mkfifo(reqPath, 0o600); err != nil {
		return err
	}
	if err := syscall.Mkfifo(resPath, 0o600); err != nil {
		return err
	}
	// Each open blocks until the program opens the other end, which it may never do.
	req, err := p.open(reqPath, os.O_RDONLY)
	if err != nil {
		return err
	}
	res, err := p.open(resPath, os.O_WRONLY)
	if err != nil {
		return err
	}
	codec := encoding.GetCodec(proto.Name)
	for {
		var n uint32
		if err := binary.Read(req, binary.BigEndian, &n); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		buf := make([]byte, n)
		if _, err := io.ReadFull(req, buf); err != nil {
			return err
		}
		var invoke pulumirpc.ResourceInvokeRequest
		if err := codec.Unmarshal(buf, &invoke); err != nil {
			return err
		}
		answer, err := monitor.Invoke(ctx, &invoke)
		// The pipe can carry only a response: a failed invoke travels as a failure in it, which the
		// SDK throws, as it would the RPC error.
		if err != nil {
			if answer == nil {
				answer = &pulumirpc.InvokeResponse{}
			}
			answer.Failures = append(answer.Failures, &pulumirpc.CheckFailure{Reason: err.Error()})
		}
		out, err := codec.Marshal(answer)
		if err != nil {
			return err
		}
		if err := binary.Write(res, binary.BigEndian, uint32(len(out))); err != nil {
			return err
		}
		if _, err := res.Write(out); err != nil {
			return err
		}
	}
}

func (p *invokePipes) open(path string, flag int) (*os.File, error) {
	f, err := os.OpenFile(path, flag, 0)
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if flag == os.O_RDONLY {
		p.req = f
	} else {
		p.res = f
	}
	return f, nil
}

func (p *invokePipes) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.req != nil {
		_ = p.req.Close()
	}
	if p.res != nil {
		_ = p.res.Close()
	}
	_ = os.RemoveAll(p.dir)
}
