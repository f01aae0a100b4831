using System.CommandLine;
using System.Globalization;
using Harness.LoadTests.Cli;
using Harness.LoadTests.Profiles;
using Harness.LoadTests.Running;

namespace Harness.LoadTests.Distributed;

/// <summary>
/// The options of <c>harness run</c> that make it one agent of a distributed run: <c>--agent</c>, <c>--run-id</c>,
/// <c>--start-at</c>, <c>--barrier</c>, <c>--barrier-timeout</c>.
/// </summary>
internal sealed class AgentCommandOptions
{
    public const string IndexVariable = "JOB_COMPLETION_INDEX";
    public const int MaxAgents = 1000;
    private const int MaxRunIdLength = 100;
    private static readonly TimeSpan MaxTimeout = TimeSpan.FromHours(24);

    public Option<string?> Agent { get; } = new("--agent") { Description = $"Run as agent I of N ({MaxAgents} at most), with 1/N of the load: I/N, env/N (I from {IndexVariable}, set in a Kubernetes Indexed Job's pods) or claim/N (the first free index in the --barrier folder). Needs --target, and --barrier or --start-at." };

    public Option<string?> RunId { get; } = new("--run-id") { Description = "The run id every agent of the run shares; default: the --barrier folder's name, or --start-at as yyyyMMdd-HHmmss." };

    public Option<string?> StartAt { get; } = new("--start-at") { Description = "With --agent: start at this UTC time (ISO 8601, e.g. 2026-11-22T01:45:00Z); an agent more than a second late fails." };

    public Option<string?> Barrier { get; } = new("--barrier") { Description = "With --agent: a folder every agent can write; they meet there before the run and before each series, and start together." };

    public Option<string> BarrierTimeout { get; } = new("--barrier-timeout") { Description = "With --barrier: how long an agent waits for the others at a meeting (e.g. 90s, 2m).", DefaultValueFactory = _ => "2m" };

    public void AddTo(Command command)
    {
        foreach (var option in (Option[])[Agent, RunId, StartAt, Barrier, BarrierTimeout])
        {
            command.Options.Add(option);
        }
    }

    /// <returns>The agent's request, or null when <c>--agent</c> was not given.</returns>
    /// <exception cref="UsageException">A value is invalid or the options do not go together; the message says which.</exception>
    public AgentRequest? Bind(ParseResult parse, RunOptions run, Func<string, string?> environment)
    {
        var agentText = parse.GetValue(Agent);
        var runIdText = parse.GetValue(RunId);
        var startText = parse.GetValue(StartAt);
        var barrier = parse.GetValue(Barrier);
        if (agentText is null)
        {
            return runIdText is null && startText is null && barrier is null
                ? null
                : throw new UsageException("--run-id, --start-at and --barrier apply only with --agent I/N.");
        }

        var (index, count) = ParseAgent(agentText, environment);
        if (run.Targets.Count == 0)
        {
            throw new UsageException(
                "--agent needs --target: agents load services that are already running (local services would start once per agent, each on its own machine).");
        }

        if ((startText is null) == (barrier is null))
        {
            throw new UsageException("--agent needs one of --barrier DIR and --start-at TIME, so that the agents start together.");
        }

        if (index is null && barrier is null)
        {
            throw new UsageException($"--agent {agentText} needs --barrier DIR: the indexes are claimed in that folder.");
        }

        var timeoutText = parse.GetValue(BarrierTimeout)!;
        if (!DurationJsonConverter.TryParse(timeoutText, out var timeout) || timeout < TimeSpan.FromSeconds(1) || timeout > MaxTimeout)
        {
            throw new UsageException($"--barrier-timeout '{timeoutText}' must be a duration from 1s to 24h, e.g. 90s or 2m.");
        }

        DateTimeOffset? startAt = startText is null ? null : ParseStart(startText);
        var runId = runIdText ?? (startAt is { } start
            ? start.UtcDateTime.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture)
            : FolderName(barrier!));
        if (!IsRunId(runId))
        {
            throw new UsageException(
                $"{(runIdText is null ? "the run id taken from --barrier" : "--run-id")} '{runId}' must be 1 to {MaxRunIdLength} letters, digits, '-', '_' or '.' (it names folders); give one with --run-id.");
        }

        return new AgentRequest(index, count, runId, barrier is null ? null : Path.GetFullPath(barrier), startAt, timeout);
    }

    /// <summary><c>I/N</c>, <c>env/N</c> or <c>claim/N</c>; a null index means claim one.</summary>
    public static (int? Index, int Count) ParseAgent(string text, Func<string, string?> environment)
    {
        var parts = text.Split('/');
        if (parts.Length != 2 || !int.TryParse(parts[1], NumberStyles.None, CultureInfo.InvariantCulture, out var count)
            || (parts[0] is not ("env" or "claim") && !int.TryParse(parts[0], NumberStyles.None, CultureInfo.InvariantCulture, out _)))
        {
            throw new UsageException(
                $"--agent '{text}': write I/N (agent I of N, 0 ≤ I < N), env/N (I from {IndexVariable}, as a Kubernetes Indexed Job sets it) or claim/N (the first free index in the --barrier folder).");
        }

        if (count is < 1 or > MaxAgents)
        {
            throw new UsageException($"--agent {text}: the number of agents must be between 1 and {MaxAgents}; got {count}.");
        }

        var indexText = parts[0];
        if (indexText == "claim")
        {
            return (null, count);
        }

        if (indexText == "env")
        {
            indexText = environment(IndexVariable) ?? throw new UsageException(
                $"--agent {text}: {IndexVariable} is not set (Kubernetes sets it in an Indexed Job's pods); give the index itself, --agent I/{count}.");
        }

        if (!int.TryParse(indexText, NumberStyles.None, CultureInfo.InvariantCulture, out var index) || index >= count)
        {
            var source = parts[0] == "env" ? $"{IndexVariable}={indexText}" : $"index {indexText}";
            throw new UsageException($"--agent {text}: {source} is not an agent index; indexes of {count} agents run from 0 to {count - 1}.");
        }

        return (index, count);
    }

    private static DateTimeOffset ParseStart(string text)
    {
        if (!DateTimeOffset.TryParse(text, CultureInfo.InvariantCulture, DateTimeStyles.AssumeUniversal | DateTimeStyles.AdjustToUniversal, out var start))
        {
            throw new UsageException($"--start-at '{text}' is not a time; write it in ISO 8601, UTC, e.g. 2026-11-22T01:45:00Z.");
        }

        if (start - DateTimeOffset.UtcNow > MaxTimeout)
        {
            throw new UsageException($"--start-at {start:O} is more than 24 h ahead; start agents closer to their start time.");
        }

        return start;
    }

    // A barrier that is a symbolic link (compose's agents-latest) names the run by the folder it points to.
    private static string FolderName(string path)
    {
        var folder = new DirectoryInfo(Path.GetFullPath(path).TrimEnd(Path.DirectorySeparatorChar));
        return (folder.Exists ? folder.ResolveLinkTarget(returnFinalTarget: true)?.Name : null) ?? folder.Name;
    }

    private static bool IsRunId(string id) =>
        id.Length is > 0 and <= MaxRunIdLength && id is not ("." or "..")
        && id.All(c => char.IsAsciiLetterOrDigit(c) || c is '-' or '_' or '.');
}

/// <summary>What <c>--agent</c> and its companions asked for, before the index is claimed (when it is <c>claim/N</c>).</summary>
/// <param name="Index">The agent's index, or null to claim the first free one in <paramref name="Barrier"/>.</param>
/// <param name="Barrier">The meeting folder, absolute; null with <paramref name="StartAt"/>.</param>
internal sealed record AgentRequest(int? Index, int Count, string RunId, string? Barrier, DateTimeOffset? StartAt, TimeSpan BarrierTimeout);
