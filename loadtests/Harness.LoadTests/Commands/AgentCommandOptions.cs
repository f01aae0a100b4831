using System.CommandLine;
using System.Globalization;
using Harness.LoadTests.Common;
using Harness.LoadTests.Distributed;
using Harness.LoadTests.Profiles;
using Harness.LoadTests.Running;

namespace Harness.LoadTests.Commands;

/// <summary>
/// The options of <c>harness run</c> that make it one agent of a distributed run: <c>--agent</c>,
/// <c>--coordinator</c>, <c>--agent-timeout</c>.
/// </summary>
internal sealed class AgentCommandOptions
{
    public const string IndexVariable = "JOB_COMPLETION_INDEX";
    public const int MaxAgents = 1000;
    private const int MaxRunIdLength = 100;
    private static readonly TimeSpan MaxTimeout = TimeSpan.FromHours(24);

    public Option<string?> Agent { get; } = new("--agent") { Description = $"Run as agent I of N ({MaxAgents} at most), with 1/N of the load: I/N, env/N (I from {IndexVariable}, set in a Kubernetes Indexed Job's pods) or claim/N (the coordinator gives the lowest free index). Needs --target and --coordinator." };

    public Option<string?> Coordinator { get; } = new("--coordinator") { Description = "With --agent: the URL of `harness coordinate`, which starts every series on all agents together and merges their runs (e.g. http://coordinator:7070)." };

    public Option<string> AgentTimeout { get; } = new("--agent-timeout") { Description = "With --agent: how long to keep trying to reach the coordinator at the start (it may start after the agents), e.g. 90s, 10m.", DefaultValueFactory = _ => "10m" };

    public void AddTo(Command command)
    {
        foreach (var option in (Option[])[Agent, Coordinator, AgentTimeout])
        {
            command.Options.Add(option);
        }
    }

    /// <returns>The agent's request, or null when <c>--agent</c> was not given.</returns>
    /// <exception cref="UsageException">A value is invalid or the options do not go together; the message says which.</exception>
    public AgentRequest? Bind(ParseResult parse, RunOptions run, Func<string, string?> environment)
    {
        var agentText = parse.GetValue(Agent);
        var coordinatorText = parse.GetValue(Coordinator);
        if (agentText is null)
        {
            return coordinatorText is null
                ? null
                : throw new UsageException("--coordinator applies only with --agent I/N.");
        }

        var (index, count) = ParseAgent(agentText, environment);
        if (run.Targets.Count == 0)
        {
            throw new UsageException(
                "--agent needs --target: agents load services that are already running (local services would start once per agent, each on its own machine).");
        }

        if (coordinatorText is null)
        {
            throw new UsageException("--agent needs --coordinator URL: the `harness coordinate` that starts the agents together and merges their runs.");
        }

        if (!Uri.TryCreate(coordinatorText, UriKind.Absolute, out var coordinator) || coordinator.Scheme is not ("http" or "https") || coordinator.PathAndQuery != "/")
        {
            throw new UsageException($"--coordinator '{coordinatorText}' must be an http:// URL with no path, e.g. http://coordinator:7070.");
        }

        var timeoutText = parse.GetValue(AgentTimeout)!;
        if (!DurationJsonConverter.TryParse(timeoutText, out var timeout) || timeout < TimeSpan.FromSeconds(1) || timeout > MaxTimeout)
        {
            throw new UsageException($"--agent-timeout '{timeoutText}' must be a duration from 1s to 24h, e.g. 90s or 10m.");
        }

        return new AgentRequest(index, count, coordinator, timeout);
    }

    /// <summary><c>I/N</c>, <c>env/N</c> or <c>claim/N</c>; a null index means claim one.</summary>
    public static (int? Index, int Count) ParseAgent(string text, Func<string, string?> environment)
    {
        var parts = text.Split('/');
        if (parts.Length != 2 || !int.TryParse(parts[1], NumberStyles.None, CultureInfo.InvariantCulture, out var count)
            || (parts[0] is not ("env" or "claim") && !int.TryParse(parts[0], NumberStyles.None, CultureInfo.InvariantCulture, out _)))
        {
            throw new UsageException(
                $"--agent '{text}': write I/N (agent I of N, 0 ≤ I < N), env/N (I from {IndexVariable}, as a Kubernetes Indexed Job sets it) or claim/N (the coordinator gives the lowest free index).");
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

    /// <summary>1 to 100 letters, digits, '-', '_' or '.': a run id names folders.</summary>
    public static bool IsRunId(string id) =>
        id.Length is > 0 and <= MaxRunIdLength && id is not ("." or "..")
        && id.All(c => char.IsAsciiLetterOrDigit(c) || c is '-' or '_' or '.');
}
