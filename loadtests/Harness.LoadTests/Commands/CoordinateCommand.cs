using System.CommandLine;
using System.Globalization;
using System.Net;
using Harness.LoadTests.Common;
using Harness.LoadTests.Distributed.Coordination;
using Harness.LoadTests.Distributed;
using Harness.LoadTests.Profiles;
using Harness.LoadTests.Reporting.Analysis;
using Harness.LoadTests.Running;
using Harness.LoadTests.Telemetry;
using Spectre.Console;

namespace Harness.LoadTests.Commands;

/// <summary>
/// <c>harness coordinate --agents N</c>: the meeting point of a distributed run. Agents (<c>harness run --agent …
/// --coordinator URL</c>) register with it over HTTP, it releases each series to all of them at once by its own clock
/// (each agent measures its offset from it), takes each agent's finished run as an upload, and joins them into one
/// run folder and report (<see cref="AgentJoin"/>); its exit code is the run's verdict. Nothing is shared but the
/// network: no common volume, no synchronised clocks.
/// </summary>
internal sealed class CoordinateCommand
{
    private static readonly TimeSpan MaxTimeout = TimeSpan.FromDays(1);

    private readonly Option<int> _agents = new("--agents") { Description = $"How many agents take part (1 to {AgentCommandOptions.MaxAgents}).", Required = true };

    private readonly Option<string> _listen = new("--listen") { Description = "The address and port to listen on: 127.0.0.1:7070 (default), 0.0.0.0:7070 in a container, port 0 for a free one.", DefaultValueFactory = _ => "127.0.0.1:7070" };

    private readonly Option<string> _output = new("--output") { Description = "Where the run folder goes: OUTPUT/RUN_ID/ (the merged run and report), with each agent's upload in OUTPUT/RUN_ID/agents/.", DefaultValueFactory = _ => "reports" };

    private readonly Option<string?> _runId = new("--run-id") { Description = "The run's id and folder name; default the coordinator's start time, yyyyMMdd-HHmmss." };

    private readonly Option<string> _agentTimeout = new("--agent-timeout") { Description = "How long to wait for every agent to register, and for all of them at each meeting (long enough for image pulls).", DefaultValueFactory = _ => "10m" };

    private readonly Option<string> _silenceLimit = new("--silence-limit") { Description = "An agent not heard from for this long is taken for dead and the run aborted (agents say they are alive six times in it).", DefaultValueFactory = _ => "30s" };

    private readonly Option<string> _maxStartSpread = new("--max-start-spread") { Description = "Warn in the report when the agents start a series further apart than this.", DefaultValueFactory = _ => "100ms" };

    private readonly Option<int?> _metricsPort = MetricsPortOption.Create("the coordination's figures (agents registered, lost and uploaded; the coordinator's CPU and memory)");

    private readonly Option<string[]> _assertions = new("--assert") { Description = "A threshold such as p99<4500ms or errors<1%, judged on the merged run; the exit code is 1 when one fails. Repeatable." };

    public static Command Create(IAnsiConsole console)
    {
        var coordinate = new CoordinateCommand();
        var command = new Command(
            "coordinate",
            "Coordinate the agents of a distributed run (harness run --agent I/N --coordinator URL): start every series on all of them together, take their runs, merge them into one report.")
        {
            coordinate._agents, coordinate._listen, coordinate._output, coordinate._runId, coordinate._agentTimeout,
            coordinate._silenceLimit, coordinate._maxStartSpread, coordinate._assertions, coordinate._metricsPort,
        };
        command.SetAction((parse, ct) => coordinate.RunAsync(console, parse, ct));
        return command;
    }

    private async Task<int> RunAsync(IAnsiConsole console, ParseResult parse, CancellationToken cancellationToken)
    {
        CoordinateSettings settings;
        try
        {
            settings = Bind(parse);
        }
        catch (UsageException ex)
        {
            console.MarkupLineInterpolated($"[red]error:[/] {ex.Message}");
            return ExitCodes.Usage;
        }

        var coordination = new CoordinatorState(settings.Agents, settings.RunId, settings.AgentTimeout, TimeProvider.System, settings.SilenceLimit);
        var agentsFolder = Path.Combine(settings.RunDirectory, "agents");
        CoordinatorServer server;
        try
        {
            Directory.CreateDirectory(agentsFolder);
            server = await CoordinatorServer.StartAsync(coordination, settings.Listen, agentsFolder, (index, exit, folder) =>
                console.MarkupLineInterpolated($"agent {index} uploaded its run (exit code {exit}) into {folder}"), cancellationToken);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            console.MarkupLineInterpolated($"[red]error:[/] cannot listen on {settings.Listen} or write {settings.RunDirectory}: {ex.Message}");
            return ExitCodes.Usage;
        }

        MetricsServer? metrics = null;
        if (settings.MetricsPort is { } metricsPort)
        {
            try
            {
                metrics = await MetricsServer.StartAsync(
                    metricsPort, () => CoordinatorExposition.Render(settings.RunId, coordination.Figures(), RunnerSampler.Read()), cancellationToken);
                console.WriteLine($"metrics: {metrics.Address} (Prometheus text)");
            }
            catch (MetricsPortException ex)
            {
                await server.DisposeAsync();
                console.MarkupLineInterpolated($"[red]error:[/] {ex.Message}");
                return ExitCodes.Usage;
            }
        }

        CoordinationOutcome outcome;
        await using (metrics)
        await using (server)
        {
            console.MarkupLineInterpolated(
                $"coordinator of run {settings.RunId} listening on {server.Address} for {settings.Agents} agents (--agent-timeout {DurationJsonConverter.Format(settings.AgentTimeout)}), writing {settings.RunDirectory}");
            try
            {
                outcome = await WatchAsync(console, coordination, cancellationToken);
            }
            catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
            {
                console.MarkupLineInterpolated($"[yellow]Interrupted; the runs uploaded so far are in {agentsFolder}.[/]");
                return ExitCodes.Interrupted;
            }
        }

        if (outcome.Error is { } error)
        {
            var uploaded = outcome.Agents.Where(a => a.ExitCode is not null).Select(a => a.Index).ToList();
            console.MarkupLineInterpolated($"[red]error:[/] {error}");
            console.MarkupLineInterpolated(
                $"nothing was merged; {(uploaded.Count == 0 ? "no agent uploaded a run" : $"the runs of agents {string.Join(", ", uploaded)} are kept in {agentsFolder}")}.");
            return ExitCodes.AgentsMissing;
        }

        var timings = coordination.Timings();
        foreach (var timing in timings)
        {
            console.MarkupLineInterpolated($"[grey]{timing.Phase}: {StartSpread.Describe(timing).Text}[/]");
        }

        var folders = Enumerable.Range(0, settings.Agents).Select(i => Path.Combine(agentsFolder, AgentSettings.Name(i, settings.Agents))).ToList();
        return AgentJoin.Join(console, folders, settings.RunDirectory, settings.Thresholds, manifest => StartSpread.Events(timings, manifest, settings.MaxStartSpread));
    }

    /// <summary>Checks the deadlines once a second and prints where the run stands every 10 s, until the coordination ends.</summary>
    private static async Task<CoordinationOutcome> WatchAsync(IAnsiConsole console, CoordinatorState coordination, CancellationToken cancellationToken)
    {
        using var timer = new PeriodicTimer(TimeSpan.FromSeconds(1));
        var ticks = 0;
        string? last = null;
        while (!coordination.Completion.IsCompleted)
        {
            await timer.WaitForNextTickAsync(cancellationToken);
            coordination.Check();
            var status = coordination.Status();
            if (++ticks % 10 == 0 || (status != last && ticks % 2 == 0))
            {
                console.MarkupLineInterpolated($"[grey]{DateTimeOffset.Now:HH:mm:ss} {status}[/]");
                last = status;
            }
        }

        return await coordination.Completion;
    }

    private CoordinateSettings Bind(ParseResult parse)
    {
        var agents = parse.GetValue(_agents);
        if (agents is < 1 or > AgentCommandOptions.MaxAgents)
        {
            throw new UsageException($"--agents {agents}: the number of agents must be between 1 and {AgentCommandOptions.MaxAgents}.");
        }

        var listenText = parse.GetValue(_listen)!;
        if (!IPEndPoint.TryParse(listenText, out var listen) || listenText.IndexOf(':', StringComparison.Ordinal) < 0)
        {
            throw new UsageException($"--listen '{listenText}' must be ADDRESS:PORT, e.g. 127.0.0.1:7070, 0.0.0.0:7070 or 127.0.0.1:0.");
        }

        var timeoutText = parse.GetValue(_agentTimeout)!;
        if (!DurationJsonConverter.TryParse(timeoutText, out var timeout) || timeout < TimeSpan.FromSeconds(1) || timeout > MaxTimeout)
        {
            throw new UsageException($"--agent-timeout '{timeoutText}' must be a duration from 1s to 24h, e.g. 90s or 10m.");
        }

        var silenceText = parse.GetValue(_silenceLimit)!;
        if (!DurationJsonConverter.TryParse(silenceText, out var silence) || silence < TimeSpan.FromSeconds(3) || silence > TimeSpan.FromMinutes(10))
        {
            throw new UsageException($"--silence-limit '{silenceText}' must be a duration from 3s to 10m, e.g. 30s.");
        }

        var spreadText = parse.GetValue(_maxStartSpread)!;
        if (!DurationJsonConverter.TryParse(spreadText, out var spread) || spread < TimeSpan.FromMilliseconds(1) || spread > TimeSpan.FromSeconds(10))
        {
            throw new UsageException($"--max-start-spread '{spreadText}' must be a duration from 1ms to 10s, e.g. 100ms or 1s.");
        }

        var runId = parse.GetValue(_runId) ?? DateTimeOffset.Now.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture);
        if (!AgentCommandOptions.IsRunId(runId))
        {
            throw new UsageException($"--run-id '{runId}' must be 1 to 100 letters, digits, '-', '_' or '.' (it names a folder).");
        }

        var runDirectory = Path.GetFullPath(Path.Combine(parse.GetValue(_output)!, runId));
        if (Directory.Exists(runDirectory) && Directory.EnumerateFileSystemEntries(runDirectory).Any())
        {
            throw new UsageException($"{runDirectory} is not empty; give the run an --output or --run-id of its own.");
        }

        IReadOnlyList<Threshold> thresholds;
        try
        {
            thresholds = [.. (parse.GetValue(_assertions) ?? []).Select(Threshold.Parse)];
        }
        catch (FormatException ex)
        {
            throw new UsageException(ex.Message);
        }

        return new CoordinateSettings(agents, listen, runId, runDirectory, timeout, silence, spread, thresholds, MetricsPortOption.Bind(parse, _metricsPort));
    }

    private sealed record CoordinateSettings(
        int Agents, IPEndPoint Listen, string RunId, string RunDirectory, TimeSpan AgentTimeout, TimeSpan SilenceLimit, TimeSpan MaxStartSpread,
        IReadOnlyList<Threshold> Thresholds, int? MetricsPort);
}
