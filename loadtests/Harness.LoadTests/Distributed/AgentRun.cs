using System.Globalization;
using Harness.LoadTests.Common;
using Harness.LoadTests.Distributed.Coordination;
using Harness.LoadTests.Engine;
using Harness.LoadTests.Profiles;
using Harness.LoadTests.Recording;
using Harness.LoadTests.Running;
using Harness.LoadTests.Targets;
using Spectre.Console;

namespace Harness.LoadTests.Distributed;

/// <summary>
/// <c>harness run --agent … --coordinator URL</c>: registers with the coordinator (which confirms or gives the index
/// and names the run), meets the other agents there, runs its share of the load into <c>--output/agent-I-of-N</c> as
/// a normal run does, writes the folder's <see cref="DoneMarker"/> and uploads the folder to the coordinator.
/// </summary>
internal static class AgentRun
{
    public static async Task<int> RunAsync(IAnsiConsole console, RunOptions options, AgentRequest request, RunSinks sinks, CancellationToken cancellationToken)
    {
        if (options.RepeatUntilSettled)
        {
            console.MarkupLine("[red]error:[/] --repeat auto decides between rounds on one machine's results; an agent runs a fixed --repeat N, the same for every agent.");
            return ExitCodes.Usage;
        }

        await using var coordinator = new CoordinatorClient(request.Coordinator, note => console.MarkupLineInterpolated($"[grey]{note}[/]"));
        var series = RunPlan.Create(options.Modes, options.Repeat, options.Stacks, options.Operations)
            .SelectMany(m => m.Series).OrderBy(s => s.Index).Select(s => s.Id).ToList();
        var profile = string.Create(CultureInfo.InvariantCulture, $"{options.Profile.Name} at time scale {options.TimeScale}");
        AgentSettings agent;
        string runDirectory;
        try
        {
            console.MarkupLineInterpolated($"[grey]registering with the coordinator at {request.Coordinator} (trying for at most {DurationJsonConverter.Format(request.AgentTimeout)})[/]");
            var feed = options.CallRequest?.Template.Feed;
            var registered = await coordinator.RegisterAsync(
                new RegisterRequest(request.Index, request.Count, Environment.MachineName, series, profile, AgentFeed.Describe(feed)), request.AgentTimeout, cancellationToken);
            agent = new AgentSettings(registered.Index, request.Count, registered.RunId, coordinator);
            if (feed is not null)
            {
                feed.ShareAmong(agent.Index, agent.Count);
                console.MarkupLineInterpolated($"[grey]--data-feed: shared among the agents, this one takes positions {agent.Index}, {agent.Index + agent.Count}, {agent.Index + (2 * agent.Count)}… of the run's one sequence of rows[/]");
            }
            runDirectory = Path.GetFullPath(Path.Combine(options.OutputDirectory, agent.FolderName));
            if (File.Exists(RawRunFiles.ManifestPath(runDirectory)))
            {
                throw new UsageException($"{runDirectory} already holds a run; give each distributed run an --output folder of its own.");
            }
        }
        catch (Exception ex) when (ex is AgentsMissingException or UsageException or HttpRequestException)
        {
            console.MarkupLineInterpolated($"[red]error:[/] {ex.Message}");
            return ex is AgentsMissingException ? ExitCodes.AgentsMissing : ExitCodes.Usage;
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            console.MarkupLine("[yellow]Interrupted before the run started; nothing was run.[/]");
            return ExitCodes.Interrupted;
        }

        options = options with { Agent = agent, SeriesGate = agent };
        console.MarkupLineInterpolated($"[grey]agent {agent.Index} of {agent.Count}, run {agent.RunId}: {ShareText(options, agent)}[/]");
        // A refused heartbeat (another agent died, or missed a meeting) stops this agent's run now, not at the next
        // meeting, which may be hours away in a soak: what it recorded is written and uploaded.
        using var run = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        coordinator.Aborted += _ => run.Cancel();
        int exit;
        try
        {
            await coordinator.MeetAsync(CoordinatorState.StartPhase, run.Token);
            console.MarkupLineInterpolated(
                $"[grey]started with the other agents; clock offset from the coordinator {StartSpread.Signed(coordinator.Clock.Offset)} ms ± {coordinator.Clock.RoundTrip.TotalMilliseconds / 2:F1}[/]");
            exit = await new RunOrchestrator(console, sinks).RunAsync(options, new ExternalTargets(options.Targets), run.Token);
            if (coordinator.AbortReason is { } reason && !cancellationToken.IsCancellationRequested)
            {
                console.MarkupLineInterpolated($"[red]error:[/] the coordinator stopped the run: {reason}");
                exit = ExitCodes.AgentsMissing;
            }
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
        catch (OperationCanceledException) when (run.IsCancellationRequested && !File.Exists(RawRunFiles.ManifestPath(runDirectory)))
        {
            if (coordinator.AbortReason is { } reason && !cancellationToken.IsCancellationRequested)
            {
                console.MarkupLineInterpolated($"[red]error:[/] the coordinator stopped the run before it started: {reason}");
                return ExitCodes.AgentsMissing;
            }

            console.MarkupLine("[yellow]Interrupted before the run started; nothing was run.[/]");
            using var bound = new CancellationTokenSource(TimeSpan.FromSeconds(10));
            await coordinator.LeaveAsync(ExitCodes.Interrupted, "it was interrupted before its first series", bound.Token);
            return ExitCodes.Interrupted;
        }
        catch (Exception ex) when (!run.IsCancellationRequested)
        {
            console.MarkupLineInterpolated($"[red]error:[/] the run failed: {ex}");
            exit = ExitCodes.RunFailed;
        }

        WriteDone(console, runDirectory, agent, exit);
        return await UploadAsync(console, coordinator, runDirectory, exit, cancellationToken);
    }

    /// <summary>The run folder goes to the coordinator whatever the run's exit code, so nothing recorded is lost; it also stays here.</summary>
    private static async Task<int> UploadAsync(IAnsiConsole console, CoordinatorClient coordinator, string runDirectory, int exit, CancellationToken cancellationToken)
    {
        if (!File.Exists(RawRunFiles.ManifestPath(runDirectory)))
        {
            if (coordinator.AbortReason is null)
            {
                using var bound = new CancellationTokenSource(TimeSpan.FromSeconds(10));
                await coordinator.LeaveAsync(exit, "it stopped before its first series", bound.Token);
            }

            return exit;
        }

        console.MarkupLineInterpolated($"[grey]uploading {runDirectory} to the coordinator[/]");
        string? why;
        try
        {
            // An interrupted agent still hands over what it recorded, within a bound.
            using var bound = new CancellationTokenSource(TimeSpan.FromMinutes(2));
            why = await coordinator.UploadAsync(runDirectory, exit, bound.Token);
        }
        catch (OperationCanceledException)
        {
            why = "the upload took longer than 2 minutes";
        }

        if (why is null)
        {
            console.MarkupLine("uploaded the run to the coordinator");
            return exit;
        }

        console.MarkupLineInterpolated($"[red]error:[/] the run could not be uploaded to the coordinator ({why}); it is kept in {runDirectory}.");
        return exit is ExitCodes.Ok or ExitCodes.ThresholdBreached ? ExitCodes.OutputFailed : exit;
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

/// <summary>The agents did not all meet (one did not register or come to a meeting in time, one died, the coordinator went silent): exit code 6.</summary>
internal sealed class AgentsMissingException(string message) : Exception(message);
