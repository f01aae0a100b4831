using System.CommandLine;
using System.Globalization;
using Harness.LoadTests.Common;
using Harness.LoadTests.Containers;
using Harness.LoadTests.Running;

namespace Harness.LoadTests.Commands;

/// <summary>
/// <c>harness matrix</c>: the options of <c>run</c> (profile, operations, thresholds...) plus the containers' limits,
/// image tag, Docker endpoint and fault. <c>--target</c> does not apply: matrix starts its own services.
/// </summary>
internal sealed class MatrixCommandOptions
{
    private const long MinMemoryBytes = 64L << 20;

    public RunCommandOptions Run { get; } = new();

    // 2 by default, as compose and k8s/ give: the runtime sizes iocp and the ThreadPool by the limit, so every
    // place that runs the services runs the same experiment (capped at this machine's cores).
    public Option<double> Cpus { get; } = new("--cpus") { Description = "CPU limit of every service container, in cores (as docker run --cpus); default 2, or this machine's cores when fewer.", DefaultValueFactory = _ => DefaultCpus };

    // The default a reader sees (--help, docs/cli.md) is the same on every machine; the cap applies when binding.
    private const double DefaultCpus = 2.0;

    public Option<string> Memory { get; } = new("--memory") { Description = "Memory limit of every service container, e.g. 512m or 1g.", DefaultValueFactory = _ => "512m" };

    public Option<string> ImageTag { get; } = new("--image-tag") { Description = "Tag of the harness/stub, harness/soap and harness/grpc images (scripts/build-images.sh).", DefaultValueFactory = _ => "local" };

    public Option<string> DockerHost { get; } = new("--docker-host") { Description = "The Docker engine's endpoint; default DOCKER_HOST, else unix:///var/run/docker.sock." };

    public Option<string?> Fault { get; } = new("--fault") { Description = $"Inject a fault into each series' service container: {FaultPlan.Syntax}." };

    public void AddTo(Command command)
    {
        Run.AddTo(command);
        foreach (var option in (Option[])[Cpus, Memory, ImageTag, DockerHost, Fault])
        {
            command.Options.Add(option);
        }
    }

    /// <exception cref="UsageException">A value is out of range; the message names the option and its limits.</exception>
    public (RunOptions Run, MatrixSettings Matrix) Bind(ParseResult parse, string commandLine)
    {
        var run = Run.Bind(parse, commandLine);
        if (run.Targets.Count > 0)
        {
            throw new UsageException("matrix starts its own containers; --target is for 'run' against services already running.");
        }

        var cpus = parse.GetResult(Cpus) is { Implicit: false } ? parse.GetValue(Cpus) : Math.Min(DefaultCpus, Environment.ProcessorCount);
        if (double.IsNaN(cpus) || cpus < 0.1 || cpus > Environment.ProcessorCount)
        {
            throw new UsageException(string.Create(
                CultureInfo.InvariantCulture, $"--cpus must be between 0.1 and {Environment.ProcessorCount} (this machine's cores); got {cpus}."));
        }

        var memoryText = parse.GetValue(Memory)!;
        if (!TryParseBytes(memoryText, out var memory) || memory < MinMemoryBytes)
        {
            throw new UsageException($"--memory '{memoryText}' must be a size of at least 64m, written like 512m or 1g.");
        }

        var hostText = parse.GetValue(DockerHost) ?? Environment.GetEnvironmentVariable("DOCKER_HOST") ?? "unix:///var/run/docker.sock";
        if (!Uri.TryCreate(hostText, UriKind.Absolute, out var host) || host.Scheme is not ("unix" or "tcp" or "http" or "npipe"))
        {
            throw new UsageException($"--docker-host '{hostText}' must be a unix:///path/to/docker.sock or tcp://host:port address.");
        }

        FaultPlan? fault = null;
        if (parse.GetValue(Fault) is { } faultText)
        {
            try
            {
                fault = FaultPlan.Parse(faultText);
            }
            catch (FormatException ex)
            {
                throw new UsageException(ex.Message);
            }
        }

        return (run, new MatrixSettings(host, run.Stacks, parse.GetValue(ImageTag)!, cpus, memory, fault));
    }

    /// <summary>
    /// Docker's size syntax: a number with an optional b, k, m or g suffix (powers of 1024); also KiB, MiB and GiB, as
    /// the runner's own bounds are written.
    /// </summary>
    public static bool TryParseBytes(string text, out long bytes)
    {
        bytes = 0;
        var trimmed = text.Trim().ToLowerInvariant();
        if (trimmed.Length > 3 && trimmed.EndsWith("ib", StringComparison.Ordinal) && trimmed[^3] is 'k' or 'm' or 'g')
        {
            trimmed = trimmed[..^2];
        }

        if (trimmed.Length == 0)
        {
            return false;
        }

        var (digits, shift) = trimmed[^1] switch
        {
            'g' => (trimmed[..^1], 30),
            'm' => (trimmed[..^1], 20),
            'k' => (trimmed[..^1], 10),
            'b' => (trimmed[..^1], 0),
            _ => (trimmed, 0),
        };
        if (!long.TryParse(digits, NumberStyles.None, CultureInfo.InvariantCulture, out var number) || number > (long.MaxValue >> shift))
        {
            return false;
        }

        bytes = number << shift;
        return true;
    }
}
