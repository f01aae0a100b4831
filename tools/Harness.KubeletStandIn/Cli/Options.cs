using System.Globalization;

namespace Harness.KubeletStandIn.Cli;

/// <summary>What the command line asks for; <see cref="Parse"/> refuses bad input with one line naming the valid values.</summary>
internal sealed record Options
{
    public const string Usage = """
        Usage: scripts/k8s-local.sh OVERLAY --output DIR [--agents N] [--duration D] [--runner-arg ARG]... [--timeout D] [--keep]
          OVERLAY           base, an overlay under k8s/overlays (soak, distributed...), or a folder holding a kustomization.yaml
          --output DIR      where the volumes' contents and the pods' logs go (absent or empty)
          --agents N        completions and parallelism of every Indexed Job, and every container variable named AGENTS
          --duration D      the runner's --duration (containers whose args start with run) and every SOAK_DURATION
          --runner-arg ARG  appended to every container whose args start with run (--name=value replaces the
                            manifest's own --name); repeatable
          --timeout D       bound on the whole run (default: the sum of the Jobs' activeDeadlineSeconds + 10m)
          --keep            leave the containers, network and volumes for inspection (remove them by their label)
        Exit codes: 0 every Job succeeded; 1 a Job failed, a Deployment never became available, or a wait timed out;
        2 bad usage, a missing tool or image, or manifests the stand-in cannot run; 130 interrupted.
        """;

    public required string Overlay { get; init; }

    public required string Output { get; init; }

    public int? Agents { get; init; }

    public string? Duration { get; init; }

    public IReadOnlyList<string> RunnerArgs { get; init; } = [];

    public TimeSpan? Timeout { get; init; }

    public bool Keep { get; init; }

    /// <summary>Parses the command line; a <see cref="UsageException"/> carries the line to print.</summary>
    public static Options Parse(IReadOnlyList<string> args)
    {
        string? overlay = null, output = null, duration = null;
        int? agents = null;
        TimeSpan? timeout = null;
        var keep = false;
        var runnerArgs = new List<string>();
        for (var i = 0; i < args.Count; i++)
        {
            var (name, inline) = Split(args[i]);
            string Value(string example)
            {
                if (inline is not null)
                {
                    return inline;
                }

                if (i + 1 >= args.Count)
                {
                    throw new UsageException($"{name} needs a value, {example}");
                }

                return args[++i];
            }

            switch (name)
            {
                case "--output":
                    output = Value("e.g. --output /tmp/out");
                    break;
                case "--agents":
                    var text = Value("a whole number of 1 or more, e.g. --agents 3");
                    agents = int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out var n) && n >= 1
                        ? n
                        : throw new UsageException($"--agents '{text}' is not valid; give a whole number of 1 or more, e.g. --agents 3");
                    break;
                case "--duration":
                    duration = Value(Durations.Examples);
                    if (!Durations.TryParse(duration, out _))
                    {
                        throw new UsageException($"--duration '{duration}' is not a duration; valid: a whole number with ms, s, m or h, {Durations.Examples}");
                    }

                    break;
                case "--runner-arg":
                    var arg = Value("e.g. --runner-arg=--modes=iocp");
                    runnerArgs.Add(arg.Length > 0 ? arg : throw new UsageException("--runner-arg needs a non-empty value, e.g. --runner-arg=--modes=iocp"));
                    break;
                case "--timeout":
                    var t = Value(Durations.Examples);
                    timeout = Durations.TryParse(t, out var bound)
                        ? bound
                        : throw new UsageException($"--timeout '{t}' is not a duration; valid: a whole number with s, m or h, {Durations.Examples}");
                    break;
                case "--keep":
                    keep = inline is null ? true : throw new UsageException("--keep takes no value");
                    break;
                default:
                    if (name.StartsWith('-'))
                    {
                        throw new UsageException($"unknown option '{name}'; valid: --output DIR, --agents N, --duration D, --runner-arg ARG, --timeout D, --keep");
                    }

                    overlay = overlay is null ? args[i] : throw new UsageException($"one OVERLAY only; got '{overlay}' and '{args[i]}'");
                    break;
            }
        }

        return new Options
        {
            Overlay = overlay ?? throw new UsageException("OVERLAY is missing; valid: base, an overlay name (soak, distributed...) or a folder holding a kustomization.yaml"),
            Output = output ?? throw new UsageException("--output DIR is missing; name a folder that is absent or empty"),
            Agents = agents,
            Duration = duration,
            RunnerArgs = runnerArgs,
            Timeout = timeout,
            Keep = keep,
        };
    }

    private static (string Name, string? Inline) Split(string arg)
    {
        var eq = arg.IndexOf('=', StringComparison.Ordinal);
        return arg.StartsWith("--", StringComparison.Ordinal) && eq > 0 ? (arg[..eq], arg[(eq + 1)..]) : (arg, null);
    }
}

/// <summary>Bad input: the message is the one line to print before exiting with 2.</summary>
internal sealed class UsageException(string message) : Exception(message);
