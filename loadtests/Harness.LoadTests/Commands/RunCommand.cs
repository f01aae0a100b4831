using System.CommandLine;
using Harness.LoadTests.Clients;
using Harness.LoadTests.Common;
using Harness.LoadTests.Distributed;
using Harness.LoadTests.Live;
using Harness.LoadTests.Running;
using Harness.LoadTests.Targets;
using Harness.LoadTests.Telemetry;
using Spectre.Console;

namespace Harness.LoadTests.Commands;

/// <summary>
/// <c>harness run</c> (the default command): binds the options, resolves a <c>--call</c>, and runs alone against
/// local or <c>--target</c> services, or as one agent of several (<see cref="AgentRun"/>).
/// </summary>
internal static class RunCommand
{
    /// <summary>
    /// Who follows a run from outside: <c>--metrics-port</c> and OTLP (<see cref="RunTelemetry"/>), <c>--live</c>
    /// (<see cref="LiveServer"/>); each starts only when its options ask for it.
    /// </summary>
    public static RunSinks Sinks { get; } = new(
        Telemetry: async (run, runId, cancellationToken) => await RunTelemetry.StartAsync(
            run.MetricsPort,
            new RunIdentity(runId, run.Profile.Name, run.Profile.IsOpenModel, run.Agent?.FolderName ?? ""),
            otlp: null,
            cancellationToken),
        Live: async (title, cancellationToken) => await LiveServer.StartAsync(title, cancellationToken));

    public static async Task<int> RunAsync(
        IAnsiConsole console, RunCommandOptions options, AgentCommandOptions agentOptions, ParseResult parse, CancellationToken cancellationToken)
    {
        RunOptions run;
        AgentRequest? agent;
        try
        {
            (run, var merged) = RunConfigFile.Bind(parse, options, p => (options.Bind(p, HarnessCli.CommandLine(parse)), p));
            agent = agentOptions.Bind(merged, run, Environment.GetEnvironmentVariable);
        }
        catch (UsageException ex)
        {
            return HarnessCli.Usage(console, ex.Message);
        }

        if (run.CallRequest is { } request)
        {
            try
            {
                run = run with { Call = await CallSetup.ResolveAsync(console, request, run.Targets[0], run.Measurement, cancellationToken) };
            }
            catch (CallSetupException ex)
            {
                return HarnessCli.Usage(console, ex.Message);
            }
        }

        if (agent is not null)
        {
            return await AgentRun.RunAsync(console, run, agent, Sinks, cancellationToken);
        }

        await using var targets = TargetsFor(console, run);
        return await OrchestrateAsync(console, run, targets, afterRun: null, cancellationToken);
    }

    /// <summary>The services a run loads: <c>--target</c>s, else local ones started mode by mode.</summary>
    internal static ITargetProvider TargetsFor(IAnsiConsole console, RunOptions run) =>
        run.Targets.Count > 0 ? new ExternalTargets(run.Targets)
        : run.UserScenarios.Count > 0 ? new NoTargets()
        : new LocalTargets(run.Stacks, message => console.MarkupLineInterpolated($"[grey]{message}[/]"), run.ServiceAffinity);

    /// <summary>Runs the orchestrator; <paramref name="afterRun"/> runs only when it returned (whatever its exit code).</summary>
    internal static async Task<int> OrchestrateAsync(
        IAnsiConsole console, RunOptions run, ITargetProvider targets, Action? afterRun, CancellationToken cancellationToken)
    {
        try
        {
            var exit = await new RunOrchestrator(console, Sinks).RunAsync(run, targets, cancellationToken);
            afterRun?.Invoke();
            return exit;
        }
        catch (Exception ex) when (!cancellationToken.IsCancellationRequested)
        {
            // System.CommandLine reports a stray OperationCanceledException as a bare exit code 1; say what broke.
            console.MarkupLineInterpolated($"[red]error:[/] the run failed: {ex}");
            return ExitCodes.RunFailed;
        }
    }
}
