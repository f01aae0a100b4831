using System.Globalization;
using Harness.LoadTests.Cli;
using Harness.LoadTests.Engine;
using Harness.LoadTests.Profiles;
using Harness.LoadTests.Recording;
using Harness.LoadTests.Running;
using Harness.LoadTests.Targets;
using Spectre.Console;

namespace Harness.LoadTests.Distributed;

/// <summary>
/// <c>harness run --agent</c>: claims an index if asked to, meets the other agents (or waits for <c>--start-at</c>),
/// runs its share of the load into <c>--output/agent-I-of-N</c> as a normal run does, then writes the folder's
/// <see cref="DoneMarker"/>.
/// </summary>
internal static class AgentRun
{
    /// <summary>How late an agent may be for <c>--start-at</c> and still run: later, its series would not line up with the others'.</summary>
    public static readonly TimeSpan StartTolerance = TimeSpan.FromSeconds(1);

    public static async Task<int> RunAsync(IAnsiConsole console, RunOptions options, AgentRequest request, CancellationToken cancellationToken)
    {
        AgentSettings agent;
        string runDirectory;
        try
        {
            var index = request.Index ?? AgentBarrier.Claim(request.Barrier!, request.Count, Environment.MachineName);
            agent = new AgentSettings(index, request.Count, request.RunId, request.Barrier, request.BarrierTimeout);
            runDirectory = Path.GetFullPath(Path.Combine(options.OutputDirectory, agent.FolderName));
            if (File.Exists(RawRunFiles.ManifestPath(runDirectory)))
            {
                throw new UsageException($"{runDirectory} already holds a run; give each distributed run an --output folder of its own.");
            }
        }
        catch (Exception ex) when (ex is UsageException or IOException or UnauthorizedAccessException)
        {
            console.MarkupLineInterpolated($"[red]error:[/] {ex.Message}");
            return ExitCodes.Usage;
        }

        options = options with { Agent = agent };
        console.MarkupLineInterpolated($"[grey]agent {agent.Index} of {agent.Count}, run {agent.RunId}: {ShareText(options, agent)}[/]");
        if (agent.Barrier is null && RunPlan.Create(options.Modes, options.Repeat, options.Stacks, options.Operations).Sum(m => m.Series.Count) > 1)
        {
            console.MarkupLine(
                "[yellow]warning:[/] with --start-at only the first series starts together; later ones drift by the difference in the agents' drain times. Use --barrier to start every series together.");
        }
        int exit;
        try
        {
            await StartTogetherAsync(console, request, agent, cancellationToken);
            exit = await new RunOrchestrator(console).RunAsync(options, new ExternalTargets(options.Targets), cancellationToken);
        }
        catch (Exception ex) when (ex is AgentsMissingException or UsageException)
        {
            console.MarkupLineInterpolated($"[red]error:[/] {ex.Message}");
            exit = ex is AgentsMissingException ? ExitCodes.AgentsMissing : ExitCodes.Usage;
            if (File.Exists(RawRunFiles.ManifestPath(runDirectory)))
            {
                // Stopped at a meeting between series: what was recorded is kept and shown, as after an interruption.
                RunReport.Render(console, runDirectory, options.Thresholds);
            }
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            console.MarkupLine("[yellow]Interrupted before the run started; nothing was run.[/]");
            return ExitCodes.Interrupted;
        }
        catch (Exception ex) when (!cancellationToken.IsCancellationRequested)
        {
            console.MarkupLineInterpolated($"[red]error:[/] the run failed: {ex}");
            exit = ExitCodes.RunFailed;
        }

        WriteDone(console, runDirectory, agent, exit);
        return exit;
    }

    /// <summary>Before each series (after the lead's calibration): the agents meet again, so every series starts in the same second on all of them.</summary>
    public static Task BeforeSeriesAsync(AgentSettings? agent, int seriesIndex, string seriesId, CancellationToken cancellationToken) =>
        agent?.Barrier is { } barrier
            ? AgentBarrier.MeetAsync(barrier, AgentBarrier.SeriesPhase(seriesIndex, seriesId), agent.Index, agent.Count, agent.BarrierTimeout, cancellationToken)
            : Task.CompletedTask;

    private static async Task StartTogetherAsync(IAnsiConsole console, AgentRequest request, AgentSettings agent, CancellationToken cancellationToken)
    {
        DateTimeOffset start;
        if (request.Barrier is { } barrier)
        {
            console.MarkupLineInterpolated($"[grey]waiting at {barrier} for {agent.Count} agents (at most {DurationJsonConverter.Format(request.BarrierTimeout)})[/]");
            start = await AgentBarrier.MeetAsync(barrier, "start", agent.Index, agent.Count, request.BarrierTimeout, cancellationToken);
        }
        else
        {
            start = request.StartAt!.Value;
            var wait = start - DateTimeOffset.UtcNow;
            if (wait < -StartTolerance)
            {
                throw new AgentsMissingException(
                    $"--start-at {start:O} passed {-wait.TotalSeconds:F1} s ago: agent {agent.Index} of {agent.Count} is late and did not run (the others started without it).");
            }

            if (wait > TimeSpan.Zero)
            {
                console.MarkupLineInterpolated($"[grey]starting at {start:O}, in {wait.TotalSeconds:F0} s[/]");
                await AgentBarrier.WaitUntilAsync(start, cancellationToken);
            }
        }

        var late = DateTimeOffset.UtcNow - start;
        if (late > TimeSpan.FromMilliseconds(250))
        {
            console.MarkupLineInterpolated($"[yellow]warning:[/] agent {agent.Index} starts {late.TotalSeconds:F2} s after the agreed start {start:O}.");
        }
    }

    private static string ShareText(RunOptions options, AgentSettings agent)
    {
        var all = options.Profile.ToSimulations();
        var mine = AgentShare.Of(all, agent.Index, agent.Count);
        var (unit, peak, share) = options.Profile.IsOpenModel
            ? ("arrivals per interval", all.Max(Rate), mine.Max(Rate))
            : ("users", all.Max(Users), mine.Max(Users));
        return string.Create(CultureInfo.InvariantCulture, $"{share} of the profile's {peak} {unit} at its peak, in {options.OutputDirectory}/{agent.FolderName}");
    }

    private static int Users(LoadSimulation stage) => stage switch
    {
        LoadSimulation.RampingConstant s => s.Copies,
        LoadSimulation.KeepConstant s => s.Copies,
        LoadSimulation.IterationsForConstant s => s.Copies,
        _ => 0,
    };

    private static int Rate(LoadSimulation stage) => stage switch
    {
        LoadSimulation.Inject s => s.Rate,
        LoadSimulation.RampingInject s => s.Rate,
        _ => 0,
    };

    private static void WriteDone(IAnsiConsole console, string runDirectory, AgentSettings agent, int exit)
    {
        if (!File.Exists(RawRunFiles.ManifestPath(runDirectory)))
        {
            return;
        }

        try
        {
            new DoneMarker(agent.FolderName, exit, DateTimeOffset.UtcNow).WriteTo(runDirectory);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            console.MarkupLineInterpolated($"[red]error:[/] could not write {DoneMarker.PathIn(runDirectory)} ({ex.Message}); a waiting merge will time out.");
        }
    }
}
