using System.CommandLine;
using Harness.LoadTests.Commands;
using Harness.LoadTests.Common;
using Harness.LoadTests.Engine;
using Harness.LoadTests.Running;
using Harness.LoadTests.Targets;
using Spectre.Console;

namespace Harness.LoadTests;

/// <summary>
/// The harness as a library: the <c>harness</c> command, in your own console app, loading scenarios you write.
/// <code>return await HarnessApp.RunAsync(args, Scenario.Create("checkout", async ctx => { …; return StepResult.Ok(); }));</code>
/// Every option of <c>harness run</c> applies (profiles, <c>--repeat</c>, <c>--warm-up</c>, <c>--assert</c>,
/// <c>--live</c>, <c>--config</c>, agents and <c>coordinate</c>), as do <c>report</c>, <c>compare</c> and <c>merge</c>.
/// Each scenario is an operation of the run: a series per scenario and mode, in one report.
/// </summary>
public static class HarnessApp
{
    /// <summary>Runs the command line <paramref name="args"/> with <paramref name="scenarios"/> as the run's operations.</summary>
    /// <param name="args">The app's command line, as <c>harness</c> takes it: e.g. <c>run --profile ramp --repeat 2</c>.
    /// <c>--target stack=URL[,mode=NAME]</c> gives the series a service each, which the step reads from
    /// <see cref="ScenarioContext.Target"/>; <c>--operations</c> picks some of the scenarios.</param>
    /// <param name="scenarios">Built with <see cref="Scenario.Create"/>; none runs the harness's own operations against its own services.</param>
    /// <returns>The process's exit code: 0, or the code docs/running.md's exit-code table gives (1: a threshold failed, 2: bad input…).</returns>
    /// <exception cref="ArgumentException">A scenario's name is not a label (letters, digits, '-', '_', at most 40) or is used twice.</exception>
    public static async Task<int> RunAsync(string[] args, params Scenario[] scenarios)
    {
        ArgumentNullException.ThrowIfNull(args);
        ArgumentNullException.ThrowIfNull(scenarios);
        Validate(scenarios);
        RunnerRuntime.Apply();

        // Colours only for a person at a terminal without NO_COLOR. Redirected output (CI logs, files) is read by tools
        // and people searching it: never wrap a report path.
        var console = AnsiConsole.Create(new AnsiConsoleSettings
        {
            Ansi = Terminal.Colour ? AnsiSupport.Detect : AnsiSupport.No,
            ColorSystem = Terminal.Colour ? ColorSystemSupport.Detect : ColorSystemSupport.NoColors,
        });
        if (Console.IsOutputRedirected)
        {
            console.Profile.Width = 4096;
        }

        // Ctrl+C, SIGTERM: the first cancels the run, which still writes what it recorded; a second ends it at once.
        using var interruption = Interruption.Register();
        var invocation = new InvocationConfiguration { ProcessTerminationTimeout = null };
        return interruption.ExitCode(await HarnessCli.InvokeAsync(console, args, invocation, interruption.Token, scenarios));
    }

    // A scenario's name becomes part of series ids and file names (docs/raw-format.md).
    private static void Validate(IReadOnlyList<Scenario> scenarios)
    {
        foreach (var scenario in scenarios)
        {
            ArgumentNullException.ThrowIfNull(scenario, nameof(scenarios));
            if (!ExternalTargets.IsLabel(scenario.Name))
            {
                throw new ArgumentException(
                    $"scenario name '{scenario.Name}' must be letters, digits, '-' or '_', at most 40 characters: it names the scenario's series and files.",
                    nameof(scenarios));
            }
        }

        if (scenarios.GroupBy(s => s.Name, StringComparer.OrdinalIgnoreCase).FirstOrDefault(g => g.Count() > 1) is { } twice)
        {
            throw new ArgumentException($"scenario name '{twice.Key}' is used by {twice.Count()} scenarios; each needs its own.", nameof(scenarios));
        }
    }
}
