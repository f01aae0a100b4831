using System.Globalization;
using Harness.LoadTests.Common;
using Harness.LoadTests.Profiles;
using Harness.LoadTests.Recording;

namespace Harness.LoadTests.Distributed;

/// <summary>One agent's run as <c>harness merge</c> reads it: its folder, its data, and which agent of how many it was.</summary>
internal sealed record AgentRunData(string Folder, RunData Run, int Index, int Count);

/// <summary>
/// Finding the agents' run folders, waiting for them to be done, and checking that they belong together before
/// <see cref="RunMerger"/> adds them up.
/// </summary>
internal static class AgentRuns
{
    private static readonly TimeSpan Poll = TimeSpan.FromSeconds(1);

    /// <summary>
    /// The run folders <paramref name="paths"/> name: each is a run folder (it holds <c>run.json</c>), or a folder
    /// holding agents' <c>agent-I-of-N</c> run folders (an agent's <c>--output</c>), which stands for all of them.
    /// </summary>
    /// <exception cref="UsageException">A path is neither.</exception>
    public static IReadOnlyList<string> Find(IReadOnlyList<string> paths)
    {
        var folders = new List<string>();
        foreach (var path in paths)
        {
            var full = Path.GetFullPath(path);
            if (File.Exists(RawRunFiles.ManifestPath(full)))
            {
                folders.Add(full);
                continue;
            }

            var agents = AgentFolders(full);
            if (agents.Count == 0)
            {
                throw new UsageException($"'{path}' is neither a run folder (no run.json) nor a folder holding agents' agent-I-of-N run folders.");
            }

            folders.AddRange(agents);
        }

        return folders;
    }

    /// <summary>
    /// Waits, at most <paramref name="wait"/>, until every agent of the run has a <see cref="DoneMarker"/>: the agents
    /// are the <c>agent-I-of-N</c> folders in <paramref name="paths"/> (or the folders themselves), N read from their
    /// names, so the folders may appear while it waits.
    /// </summary>
    /// <exception cref="AgentsMissingException">The wait ended first; the message names the agents not done.</exception>
    public static async Task WaitForDoneAsync(IReadOnlyList<string> paths, TimeSpan wait, CancellationToken cancellationToken)
    {
        var deadline = DateTimeOffset.UtcNow + wait;
        while (true)
        {
            var agents = paths.Select(Path.GetFullPath)
                .SelectMany(path => AgentSettings.Parse(Path.GetFileName(path)) is not null ? [path] : AgentFolders(path))
                .Select(folder => (Folder: folder, Agent: AgentSettings.Parse(Path.GetFileName(folder))!.Value))
                .ToList();
            var count = agents.Count > 0 ? agents.Max(a => a.Agent.Count) : 0;
            var notDone = Enumerable.Range(0, count)
                .Where(i => !agents.Any(a => a.Agent == (i, count) && DoneMarker.ReadFrom(a.Folder) is not null))
                .ToList();
            if (count > 0 && notDone.Count == 0)
            {
                return;
            }

            if (DateTimeOffset.UtcNow >= deadline)
            {
                throw new AgentsMissingException(count == 0
                    ? $"merge --wait {DurationJsonConverter.Format(wait)}: no agent-I-of-N folder appeared in {string.Join(", ", paths)}."
                    : $"merge --wait {DurationJsonConverter.Format(wait)}: {Agents(notDone)} of {count} wrote no done marker ({string.Join(", ", paths)}); nothing was merged.");
            }

            await Task.Delay(Poll, cancellationToken);
        }
    }

    /// <summary>
    /// Checks that <paramref name="runs"/> are the runs of every agent of one distributed run, and orders them by
    /// agent index (agent 0, the lead, first: its server counters and ideal lines are the merged run's).
    /// </summary>
    /// <exception cref="UsageException">They do not belong together; the message says which run and why.</exception>
    public static IReadOnlyList<AgentRunData> Check(IReadOnlyList<(string Folder, RunData Run)> runs)
    {
        var agents = runs.Select(r => Identify(r.Folder, r.Run)).OrderBy(a => a.Index).ToList();
        var lead = agents[0];
        for (var i = 1; i < agents.Count; i++)
        {
            var agent = agents[i];
            var why = agent.Count != lead.Count ? $"is agent {agent.Index} of {agent.Count}, but {lead.Folder} one of {lead.Count}"
                : agent.Index == agents[i - 1].Index ? $"is agent {agent.Index} of {agent.Count}, as {agents[i - 1].Folder} is"
                : agent.Run.Manifest.RunId != lead.Run.Manifest.RunId ? $"belongs to run {agent.Run.Manifest.RunId}, agent {lead.Index}'s to run {lead.Run.Manifest.RunId}"
                : ProfileDifference(agent, lead) ?? SeriesDifference(agent, lead);
            if (why is not null)
            {
                throw new UsageException($"{agent.Folder} {why}; merge joins the runs of one --agent run.");
            }
        }

        var missing = Enumerable.Range(0, lead.Count).Except(agents.Select(a => a.Index)).ToList();
        if (missing.Count > 0)
        {
            throw new UsageException(
                $"run {lead.Run.Manifest.RunId}: {Agents(missing)} of {lead.Count} missing; merge needs every agent's run folder (given: {Agents(agents.Select(a => a.Index))}).");
        }

        return agents;
    }

    private static AgentRunData Identify(string folder, RunData run) =>
        run.Manifest.Agents is [var label] && AgentSettings.Parse(label) is var (index, count)
            ? new AgentRunData(folder, run, index, count)
            : throw new UsageException(
                $"{folder} is not an agent's run (its run.json names no agent-I-of-N); merge joins the runs of `harness run --agent I/N`.");

    private static string? ProfileDifference(AgentRunData agent, AgentRunData lead)
    {
        var (mine, theirs) = (agent.Run.Manifest, lead.Run.Manifest);
        return (mine.Profile, mine.TimeScale) != (theirs.Profile, theirs.TimeScale)
            ? string.Create(CultureInfo.InvariantCulture, $"ran profile '{mine.Profile}' at time scale {mine.TimeScale}, agent {lead.Index} '{theirs.Profile}' at {theirs.TimeScale}")
            : mine.ProfileDefinition != theirs.ProfileDefinition
                ? $"ran another definition of profile '{mine.Profile}' than agent {lead.Index} (its stages differ)"
                : null;
    }

    private static string? SeriesDifference(AgentRunData agent, AgentRunData lead)
    {
        var mine = agent.Run.Manifest.Series.Select(s => s.Id).ToList();
        var theirs = lead.Run.Manifest.Series.Select(s => s.Id).ToList();
        if (mine.SequenceEqual(theirs))
        {
            return null;
        }

        var lacks = theirs.Except(mine).ToList();
        var extra = mine.Except(theirs).ToList();
        return "has other series than agent " + lead.Index
            + (lacks.Count > 0 ? $": it lacks {string.Join(", ", lacks)}" : "")
            + (extra.Count > 0 ? $"{(lacks.Count > 0 ? " and" : ":")} has {string.Join(", ", extra)} more" : "")
            + (lacks.Count == 0 && extra.Count == 0 ? " in another order" : "");
    }

    private static List<string> AgentFolders(string folder) =>
        Directory.Exists(folder)
            ? [.. Directory.EnumerateDirectories(folder).Where(d => AgentSettings.Parse(Path.GetFileName(d)) is not null).Order(StringComparer.Ordinal)]
            : [];

    private static string Agents(IEnumerable<int> indexes)
    {
        var list = indexes.ToList();
        return (list.Count == 1 ? "agent " : "agents ") + string.Join(", ", list);
    }
}
