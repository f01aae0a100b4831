using System.CommandLine;
using Harness.LoadTests.Cli;
using Harness.LoadTests.Profiles;
using Harness.LoadTests.Recording;
using Harness.LoadTests.Reporting.Analysis;
using Harness.LoadTests.Running;
using Spectre.Console;

namespace Harness.LoadTests.Distributed;

/// <summary>
/// <c>harness merge RUN_DIR... --output DIR</c>: the agents' runs of one distributed run added up exactly
/// (<see cref="RunMerger"/>: histograms summed bucket by bucket, never percentiles averaged) into one run folder,
/// rendered as <c>harness run</c> renders its own.
/// </summary>
internal sealed class MergeCommand
{
    private static readonly TimeSpan MaxWait = TimeSpan.FromDays(7);

    private readonly Argument<string[]> _runs = new("RUN_DIR")
    {
        Description = "The agents' run folders (agent-I-of-N), or a folder holding them (the agents' --output).",
        Arity = ArgumentArity.OneOrMore,
    };

    private readonly Option<string> _output = new("--output") { Description = "The merged run's folder (new or empty); the report is written in it.", Required = true };

    private readonly Option<string?> _wait = new("--wait") { Description = "Wait at most this long (e.g. 30m) for every agent's done marker before merging; without it, merge what is there." };

    private readonly Option<string[]> _assertions = new("--assert") { Description = "A threshold such as p99<4500ms or errors<1%, judged on the merged run; the exit code is 1 when one fails. Repeatable." };

    public static Command Create(IAnsiConsole console)
    {
        var merge = new MergeCommand();
        var command = new Command(
            "merge",
            "Merge the runs of the agents of one distributed run (harness run --agent) into one run folder, exactly, and write its report.")
        {
            merge._runs, merge._output, merge._wait, merge._assertions,
        };
        command.SetAction((parse, ct) => merge.RunAsync(console, parse, ct));
        return command;
    }

    private async Task<int> RunAsync(IAnsiConsole console, ParseResult parse, CancellationToken cancellationToken)
    {
        var paths = parse.GetValue(_runs)!;
        var output = Path.GetFullPath(parse.GetValue(_output)!);
        IReadOnlyList<Threshold> thresholds;
        IReadOnlyList<AgentRunData> agents;
        try
        {
            thresholds = [.. (parse.GetValue(_assertions) ?? []).Select(Threshold.Parse)];
            if (Directory.Exists(output) && Directory.EnumerateFileSystemEntries(output).Any())
            {
                throw new UsageException($"--output {output} is not empty; the merged run needs a folder of its own.");
            }

            if (parse.GetValue(_wait) is { } waitText)
            {
                if (!DurationJsonConverter.TryParse(waitText, out var wait) || wait > MaxWait)
                {
                    throw new UsageException($"--wait '{waitText}' must be a duration up to 7 days, e.g. 90s, 30m or 4h.");
                }

                console.MarkupLineInterpolated($"[grey]waiting at most {DurationJsonConverter.Format(wait)} for every agent's done marker[/]");
                await AgentRuns.WaitForDoneAsync(paths, wait, cancellationToken);
            }

            var runs = AgentRuns.Find(paths).Select(folder => (folder, RunReport.Read(console, folder))).ToList();
            agents = AgentRuns.Check(runs);
        }
        catch (AgentsMissingException ex)
        {
            console.MarkupLineInterpolated($"[red]error:[/] {ex.Message}");
            return ExitCodes.AgentsMissing;
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            console.MarkupLine("[yellow]Interrupted; nothing was merged.[/]");
            return ExitCodes.Interrupted;
        }
        catch (Exception ex) when (ex is UsageException or FormatException or IOException or UnauthorizedAccessException)
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

        RunData merged;
        try
        {
            merged = RunMerger.Merge([.. agents.Select(a => a.Run)]);
        }
        catch (ArgumentException ex)
        {
            console.MarkupLineInterpolated($"[red]error:[/] {ex.Message}");
            return ExitCodes.Usage;
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
