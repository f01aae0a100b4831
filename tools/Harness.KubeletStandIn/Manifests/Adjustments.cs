using System.Globalization;
using Harness.KubeletStandIn.Cli;
using k8s.Models;

namespace Harness.KubeletStandIn.Manifests;

/// <summary>
/// The command line's changes to the rendered manifests, made on the parsed objects before anything runs:
/// <list type="bullet">
/// <item><c>--agents N</c>: completions and parallelism of every Indexed Job, and every container variable named
/// <c>AGENTS</c> (the convention the distributed overlay follows for the N of <c>--agent I/N</c>).</item>
/// <item><c>--duration D</c>: the runner's <c>--duration</c> in every container whose args start with <c>run</c>
/// (replaced where present, appended otherwise) and every <c>SOAK_DURATION</c>. Deadlines are never changed: a
/// Job whose <c>activeDeadlineSeconds</c> is shorter than D + 10 min is named in a warning.</item>
/// <item><c>--runner-arg ARG</c>: appended to every container whose args start with <c>run</c>; <c>--name=value</c> replaces the manifest's own <c>--name</c>.</item>
/// </list>
/// An option that would change nothing is refused: it would silently run something other than what was asked.
/// </summary>
internal static class Adjustments
{
    public const string AgentsVariable = "AGENTS";
    public const string SoakDurationVariable = "SOAK_DURATION";
    public const string RunnerVerb = "run";

    private static readonly TimeSpan DeadlineMargin = TimeSpan.FromMinutes(10);

    /// <summary>Applies the options to <paramref name="manifests"/> in place; returns one line per change and warning.</summary>
    /// <exception cref="UsageException">An option given that applies to nothing in the manifests.</exception>
    public static IReadOnlyList<string> Apply(ManifestSet manifests, Options options)
    {
        var lines = new List<string>();
        if (options.Agents is { } agents)
        {
            lines.AddRange(Agents(manifests, agents));
        }

        if (options.Duration is { } duration)
        {
            lines.AddRange(Duration(manifests, duration));
        }

        if (options.RunnerArgs.Count > 0)
        {
            lines.AddRange(RunnerArgs(manifests, options.RunnerArgs));
        }

        return lines;
    }

    public static IReadOnlyList<string> Agents(ManifestSet manifests, int agents)
    {
        var lines = new List<string>();
        foreach (var job in manifests.Jobs.Where(j => j.Spec.CompletionMode == "Indexed"))
        {
            job.Spec.Completions = agents;
            job.Spec.Parallelism = agents;
            lines.Add($"Job/{job.Metadata.Name}: completions = parallelism = {agents}");
        }

        foreach (var (workload, container, variable) in Variables(manifests, AgentsVariable))
        {
            Set(variable, agents.ToString(CultureInfo.InvariantCulture));
            lines.Add($"{workload.Id} {container.Name}: {AgentsVariable}={agents}");
        }

        return lines.Count > 0 ? lines : throw new UsageException("--agents applies to Indexed Jobs and container variables named AGENTS; these manifests have none");
    }

    public static IReadOnlyList<string> Duration(ManifestSet manifests, string duration)
    {
        var lines = new List<string>();
        var touched = new HashSet<Workload>();
        foreach (var (workload, container) in RunnerContainers(manifests))
        {
            container.Args = ReplaceDuration(container.Args, duration);
            touched.Add(workload);
            lines.Add($"{workload.Id} {container.Name}: --duration={duration}");
        }

        foreach (var (workload, container, variable) in Variables(manifests, SoakDurationVariable))
        {
            Set(variable, duration);
            touched.Add(workload);
            lines.Add($"{workload.Id} {container.Name}: {SoakDurationVariable}={duration}");
        }

        if (lines.Count == 0)
        {
            throw new UsageException("--duration applies to containers whose args start with 'run' and to variables named SOAK_DURATION; these manifests have none");
        }

        Durations.TryParse(duration, out var length);
        foreach (var job in touched.Select(w => w.Job).OfType<V1Job>())
        {
            if (job.Spec.ActiveDeadlineSeconds is { } deadline && TimeSpan.FromSeconds(deadline) < length + DeadlineMargin)
            {
                lines.Add($"warning: Job/{job.Metadata.Name} activeDeadlineSeconds {deadline} is shorter than --duration {duration} + 10m; left as it is, so the deadline may stop the Job");
            }
        }

        return lines;
    }

    public static IReadOnlyList<string> RunnerArgs(ManifestSet manifests, IReadOnlyList<string> extra)
    {
        var lines = new List<string>();
        foreach (var (workload, container) in RunnerContainers(manifests))
        {
            container.Args = WithRunnerArgs(container.Args, extra);
            lines.Add($"{workload.Id} {container.Name}: + {string.Join(' ', extra)}");
        }

        return lines.Count > 0 ? lines : throw new UsageException("--runner-arg applies to containers whose args start with 'run' (the harness runner); these manifests have none");
    }

    /// <summary>
    /// <paramref name="extra"/> appended to <paramref name="args"/>; an extra <c>--name=value</c> first removes the
    /// manifest's own <c>--name=…</c> or <c>--name …</c>, since the runner refuses an option given twice.
    /// </summary>
    public static IList<string> WithRunnerArgs(IList<string> args, IReadOnlyList<string> extra)
    {
        var result = args.ToList();
        foreach (var name in extra.Where(a => a.StartsWith("--", StringComparison.Ordinal) && a.Contains('=', StringComparison.Ordinal)).Select(a => a[..a.IndexOf('=', StringComparison.Ordinal)]))
        {
            for (var i = result.Count - 1; i >= 0; i--)
            {
                if (result[i].StartsWith(name + "=", StringComparison.Ordinal))
                {
                    result.RemoveAt(i);
                }
                else if (result[i] == name)
                {
                    var withValue = i + 1 < result.Count && !result[i + 1].StartsWith("--", StringComparison.Ordinal);
                    result.RemoveRange(i, withValue ? 2 : 1);
                }
            }
        }

        result.AddRange(extra);
        return result;
    }

    /// <summary>Replaces <c>--duration=X</c> or <c>--duration X</c> (every occurrence), or appends <c>--duration=D</c>.</summary>
    public static IList<string> ReplaceDuration(IList<string> args, string duration)
    {
        var result = new List<string>(args.Count + 1);
        var replaced = false;
        for (var i = 0; i < args.Count; i++)
        {
            if (args[i].StartsWith("--duration=", StringComparison.Ordinal))
            {
                result.Add($"--duration={duration}");
                replaced = true;
            }
            else if (args[i] == "--duration" && i + 1 < args.Count)
            {
                result.Add("--duration");
                result.Add(duration);
                i++;
                replaced = true;
            }
            else
            {
                result.Add(args[i]);
            }
        }

        if (!replaced)
        {
            result.Add($"--duration={duration}");
        }

        return result;
    }

    public static bool IsRunner(V1Container container) => container.Args is { Count: > 0 } args && args[0] == RunnerVerb;

    private static IEnumerable<(Workload Workload, V1Container Container)> RunnerContainers(ManifestSet manifests) =>
        manifests.Workloads.SelectMany(w => w.AllContainers.Where(IsRunner).Select(c => (w, c)));

    private static IEnumerable<(Workload Workload, V1Container Container, V1EnvVar Variable)> Variables(ManifestSet manifests, string name) =>
        manifests.Workloads.SelectMany(w => w.AllContainers.SelectMany(c => (c.Env ?? []).Where(e => e.Name == name).Select(e => (w, c, e))));

    private static void Set(V1EnvVar variable, string value)
    {
        variable.Value = value;
        variable.ValueFrom = null;
    }
}
