using System.CommandLine;
using Harness.LoadTests.Cli;
using Harness.LoadTests.Running;
using Spectre.Console;

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
return interruption.ExitCode(await HarnessCli.InvokeAsync(console, args, invocation, interruption.Token));
