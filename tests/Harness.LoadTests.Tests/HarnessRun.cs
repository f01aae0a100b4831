using Harness.LoadTests.Commands;
using Spectre.Console;

namespace Harness.LoadTests.Tests;

/// <summary>Runs the <c>harness</c> command in-process and captures what it prints.</summary>
internal static class HarnessRun
{
    public static Task<(int ExitCode, string Output)> InvokeAsync(params string[] args) => InvokeAsync(args, []);

    /// <param name="scenarios">A user's own scenarios, as <c>HarnessApp.RunAsync</c> hands them to the command.</param>
    public static async Task<(int ExitCode, string Output)> InvokeAsync(string[] args, IReadOnlyList<Engine.Scenario> scenarios)
    {
        var (exitCode, output, _) = await InvokeWithLogAsync(args, scenarios);
        return (exitCode, output);
    }

    /// <summary>As <see cref="InvokeAsync(string[])"/>, with what <c>--log-level</c> writes (standard error's lines) apart.</summary>
    public static Task<(int ExitCode, string Output, string Log)> InvokeWithLogAsync(params string[] args) => InvokeWithLogAsync(args, []);

    private static async Task<(int ExitCode, string Output, string Log)> InvokeWithLogAsync(string[] args, IReadOnlyList<Engine.Scenario> scenarios)
    {
        var log = new StringWriter();
        var writer = new StringWriter();
        var console = AnsiConsole.Create(new AnsiConsoleSettings
        {
            Ansi = AnsiSupport.No,
            ColorSystem = ColorSystemSupport.NoColors,
            Out = new AnsiConsoleOutput(writer),
        });
        console.Profile.Width = 4096;
        var exitCode = await HarnessCli.InvokeAsync(console, args, scenarios: scenarios, log: TextWriter.Synchronized(log));
        return (exitCode, writer.ToString(), log.ToString());
    }

    /// <summary>The one run folder a run wrote under <paramref name="output"/>.</summary>
    public static string RunFolder(string output) => Assert.Single(Directory.GetDirectories(output));

    public static string TempFolder()
    {
        var path = Path.Combine(Path.GetTempPath(), "harness-tests", Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(path);
        return path;
    }
}
