using Harness.LoadTests.Common;
using Harness.LoadTests.Recording;
using Harness.LoadTests.Reporting.Analysis;
using Harness.LoadTests.Running;
using Spectre.Console;

namespace Harness.LoadTests.Distributed;

/// <summary>
/// The agents' runs of one distributed run joined into one: checked (<see cref="AgentRuns.Check"/>), added up exactly
/// (<see cref="RunMerger"/>: histograms summed bucket by bucket, never percentiles averaged), written as a run folder
/// and rendered like any run. What <c>harness merge</c> and <c>harness coordinate</c> both end with.
/// </summary>
internal static class AgentJoin
{
    /// <param name="folders">The agents' run folders.</param>
    /// <param name="extraEvents">Events to add to the merged run, given the merged manifest (the coordinator's start spreads).</param>
    /// <returns>The exit code: the report's (thresholds), or why nothing was joined.</returns>
    public static int Join(
        IAnsiConsole console, IReadOnlyList<string> folders, string output, IReadOnlyList<Threshold> thresholds,
        Func<RunManifest, IReadOnlyList<RunEvent>>? extraEvents = null)
    {
        IReadOnlyList<AgentRunData> agents;
        RunData merged;
        try
        {
            agents = AgentRuns.Check([.. folders.Select(folder => (folder, RunReport.Read(console, folder)))]);
            merged = RunMerger.Merge([.. agents.Select(a => a.Run)]);
        }
        catch (Exception ex) when (ex is UsageException or FormatException or IOException or UnauthorizedAccessException or ArgumentException)
        {
            console.MarkupLineInterpolated($"[red]error:[/] {ex.Message}");
            return ExitCodes.Usage;
        }

        foreach (var agent in agents)
        {
            var done = DoneMarker.ReadFrom(agent.Folder);
            if (done is not { Completed: true })
            {
                console.MarkupLineInterpolated(
                    $"[yellow]warning:[/] {agent.Folder}: {(done is null ? "no done marker: the agent may still be running, or died" : $"the agent ended with exit code {done.ExitCode}")}; its run may be cut short.");
            }
        }

        if (extraEvents?.Invoke(merged.Manifest) is { Count: > 0 } events)
        {
            merged = merged with { Events = [.. merged.Events.Concat(events).OrderBy(e => e.AtSeconds)] };
        }

        try
        {
            RawRunWriter.Write(output, merged);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            console.MarkupLineInterpolated($"[red]error:[/] could not write the merged run in {output} ({ex.Message}).");
            return ExitCodes.OutputFailed;
        }

        var requests = merged.Timelines.Values.Sum(t => t.Sum(s => s.Requests));
        console.MarkupLineInterpolated(
            $"merged run {merged.Manifest.RunId}: {agents.Count} agents, {merged.Manifest.Series.Count} series, {requests} requests, into {output}");
        return RunReport.Render(console, output, thresholds);
    }
}
