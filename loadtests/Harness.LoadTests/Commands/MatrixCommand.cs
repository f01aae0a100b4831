using System.CommandLine;
using Harness.LoadTests.Common;
using Harness.LoadTests.Containers;
using Harness.LoadTests.Running;
using Spectre.Console;

namespace Harness.LoadTests.Commands;

/// <summary><c>harness matrix</c>: each mode in its own containers (<see cref="DockerTargets"/>), one mode after another.</summary>
internal static class MatrixCommand
{
    public static async Task<int> RunAsync(IAnsiConsole console, MatrixCommandOptions options, ParseResult parse, CancellationToken cancellationToken)
    {
        (RunOptions Run, MatrixSettings Settings) bound;
        try
        {
            bound = RunConfigFile.Bind(parse, options.Run, p => options.Bind(p, HarnessCli.CommandLine(parse)));
        }
        catch (UsageException ex)
        {
            return HarnessCli.Usage(console, ex.Message);
        }

        var settings = bound.Settings;
        DockerTargets targets;
        try
        {
            console.MarkupLineInterpolated(
                $"[grey]matrix: {string.Join(", ", bound.Run.Modes.Distinct())} in containers, {settings.Cpus} CPU and {settings.MemoryBytes >> 20} MiB each, at {settings.DockerHost}[/]");
            targets = await DockerTargets.CreateAsync(settings, message => console.MarkupLineInterpolated($"[grey]{message}[/]"), cancellationToken);
            console.MarkupLineInterpolated($"[grey]containers and network labelled harness.run={targets.RunId}[/]");
        }
        catch (DockerUnavailableException ex)
        {
            return HarnessCli.Usage(console, ex.Message);
        }

        await using (targets)
        {
            // A second Ctrl+C ends the process before DisposeAsync: the containers go then, within a bound.
            using var emergency = EmergencyStop.Register(() => targets.RemoveRunAsync().Wait(TimeSpan.FromSeconds(15)));
            return await RunCommand.OrchestrateAsync(
                console,
                bound.Run,
                targets,
                () => console.MarkupLineInterpolated($"[grey]time to healthy: {string.Join("; ", targets.HealthTimes)}[/]"),
                cancellationToken);
        }
    }
}
