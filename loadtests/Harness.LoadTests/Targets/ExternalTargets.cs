using System.Globalization;
using Harness.Contracts;
using Harness.LoadTests.Diagnostics;

namespace Harness.LoadTests.Targets;

/// <summary>
/// Services that are already running (compose, Kubernetes, containers the runner started), grouped by mode: each
/// target's own <c>mode=</c>, else <c>--mode-label</c>. Modes run one after another, in the order first named.
/// </summary>
internal sealed class ExternalTargets(IReadOnlyList<ServiceTarget> targets) : ITargetProvider
{
    // sun_path holds 108 bytes on Linux, the terminating NUL included.
    private const int MaxSocketPathBytes = 107;

    public Task<IReadOnlyList<ServiceTarget>> AcquireAsync(string mode, CancellationToken cancellationToken) =>
        Task.FromResult<IReadOnlyList<ServiceTarget>>([.. targets.Where(t => t.Mode == mode)]);

    public Task ReleaseAsync(string mode) => Task.CompletedTask;

    public ValueTask DisposeAsync() => ValueTask.CompletedTask;

    /// <summary>What may follow a target's address, as its refusals list them.</summary>
    internal const string Keys =
        "metrics=http://host:port, mode=name (letters, digits, '-', '_', at most 40), pid=PID (a .NET process to attach to over EventPipe) and diag=/path/to/dotnet-diagnostic-…-socket (its diagnostics socket, for a process in a container)";

    /// <summary>
    /// Parses <c>--target stack=url[,metrics=url][,mode=name][,pid=PID|,diag=PATH]</c>, for either stack. Without <c>metrics=</c>, SOAP is
    /// scraped at its own address and gRPC at the next port up, the services' default admin port; compose, matrix and
    /// Kubernetes point <c>metrics=</c> at the services' <c>Listen__MetricsPort</c>. Without <c>mode=</c>, the target
    /// belongs to <paramref name="modeLabel"/>. A gRPC target may be a Unix domain socket, <c>grpc=unix:///path</c>
    /// (the services' <c>Listen__UnixSocket</c>), which has no port to guess the metrics' from, so it needs <c>metrics=</c>.
    /// <c>pid=</c> or <c>diag=</c> says where its .NET runtime takes an EventPipe session (<see cref="RuntimeEndpoint"/>);
    /// the process is not looked for here: one that is not there, or not .NET, is a note when its series starts.
    /// An <c>https://</c> address is reached over TLS (<c>--cacert</c>, <c>--cert</c>, <c>--key</c>, <c>--insecure</c>).
    /// </summary>
    /// <exception cref="FormatException">The value names no known stack, no absolute http URL or no usable socket.</exception>
    public static ServiceTarget Parse(string value, string modeLabel)
    {
        var parts = value.Split(',', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries);
        var head = parts.Length > 0 ? parts[0].Split('=', 2) : [];
        var isSocket = head.Length == 2 && head[1].StartsWith(LoadChannel.UnixScheme + ":", StringComparison.OrdinalIgnoreCase);
        Uri? address = null;
        if (head.Length != 2 || !Stacks.All.Contains(head[0]) || !(isSocket ? TrySocket(value, head[0], head[1], out address) : TryHttpUri(head[1], out address)))
        {
            throw new FormatException(
                $"--target '{value}' must look like soap=http://host:port, grpc=http://host:port (https:// for TLS) or grpc=unix:///path/to.sock, then optionally ,key=value with the keys {Keys}; stacks: {string.Join(", ", Stacks.All)}.");
        }

        Uri? metrics = null;
        var mode = modeLabel;
        RuntimeEndpoint? runtime = null;
        foreach (var part in parts.Skip(1))
        {
            var pair = part.Split('=', 2);
            var ok = pair.Length == 2 && pair[0] switch
            {
                "metrics" => TryHttpUri(pair[1], out metrics),
                "mode" => IsLabel(mode = pair[1]),
                "pid" or "diag" when runtime is not null => throw new FormatException($"--target '{value}': give one of pid= and diag=, once: both name the process to attach to."),
                "pid" => TryProcessId(pair[1], out runtime),
                "diag" => TryDiagnosticsSocket(value, pair[1], out runtime),
                _ => false,
            };
            if (!ok)
            {
                throw new FormatException($"--target '{value}': after the address the keys are {Keys}; got '{part}'.");
            }
        }

        if (isSocket && metrics is null)
        {
            throw new FormatException(
                $"--target '{value}': a Unix socket target has no port to find its /metrics by; add ,metrics=http://host:port (the service's Listen__MetricsPort or Listen__AdminPort).");
        }

        var guessed = metrics is null;
        metrics ??= head[0] == Stacks.Grpc ? new UriBuilder(address) { Port = address.Port + 1 }.Uri : address;
        return new ServiceTarget(head[0], mode, address, metrics) { MetricsGuessed = guessed, Runtime = runtime };
    }

    private static bool TryProcessId(string text, out RuntimeEndpoint? runtime)
    {
        runtime = int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out var pid) && pid > 0 ? RuntimeEndpoint.ForProcess(pid) : null;
        return runtime is not null;
    }

    /// <summary>An absolute path to a socket that exists: a runtime's <c>dotnet-diagnostic-PID-…-socket</c>.</summary>
    private static bool TryDiagnosticsSocket(string value, string path, out RuntimeEndpoint? runtime)
    {
        runtime = null;
        if (!Path.IsPathFullyQualified(path))
        {
            return false;
        }

        if (!File.Exists(path))
        {
            throw new FormatException(
                $"--target '{value}': no socket at '{path}'; a .NET process publishes $TMPDIR/dotnet-diagnostic-PID-…-socket (ls /tmp/dotnet-diagnostic-*); for a container, share its /tmp, or set its TMPDIR to a shared volume.");
        }

        runtime = RuntimeEndpoint.ForSocket(path);
        return true;
    }

    // A mode becomes part of series ids and file names (docs/raw-format.md).
    internal static bool IsLabel(string text) =>
        text.Length is > 0 and <= 40 && text.All(c => char.IsAsciiLetterOrDigit(c) || c is '-' or '_');

    /// <summary><c>unix:///absolute/path</c> to a socket that exists, for gRPC; anything else is refused with its reason.</summary>
    private static bool TrySocket(string value, string stack, string text, out Uri address)
    {
        address = null!;
        if (stack != Stacks.Grpc)
        {
            throw new FormatException($"--target '{value}': a Unix socket target is for gRPC only (grpc=unix:///path/to.sock).");
        }

        if (!Uri.TryCreate(text, UriKind.Absolute, out var uri) || uri.Host.Length > 0 || uri.AbsolutePath.Length < 2)
        {
            return false;
        }

        var path = Uri.UnescapeDataString(uri.AbsolutePath);
        if (System.Text.Encoding.UTF8.GetByteCount(path) > MaxSocketPathBytes)
        {
            throw new FormatException($"--target '{value}': a Unix socket path may be at most {MaxSocketPathBytes} bytes long (sun_path); '{path}' is longer.");
        }

        if (!File.Exists(path))
        {
            throw new FormatException($"--target '{value}': no socket at '{path}'; start the service with Listen__UnixSocket={path}, or give the path it listens on (unix:// then the absolute path: three slashes).");
        }

        address = uri;
        return true;
    }

    private static bool TryHttpUri(string text, out Uri uri) =>
        Uri.TryCreate(text, UriKind.Absolute, out uri!) && uri.Scheme is "http" or "https";
}
