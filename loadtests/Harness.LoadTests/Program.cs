using System.CommandLine;
using System.Runtime.InteropServices;
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

// Ctrl+C, SIGTERM (docker stop, kill): the first one cancels the run, which then writes what it recorded and
// stops the services it started (exit code 130). A second one cuts that short: it kills the child processes and
// removes matrix's containers itself, then ends the process (130 after Ctrl+C, 143 after SIGTERM).
using var cancellation = new CancellationTokenSource();
void Stop(PosixSignalContext context)
{
    context.Cancel = true;
    if (!cancellation.IsCancellationRequested)
    {
        cancellation.Cancel();
        return;
    }

    EmergencyStop.Run();
    Environment.Exit(context.Signal == PosixSignal.SIGINT ? 130 : 143);
}

using var interrupt = PosixSignalRegistration.Create(PosixSignal.SIGINT, Stop);
using var terminate = PosixSignalRegistration.Create(PosixSignal.SIGTERM, Stop);
var invocation = new InvocationConfiguration { ProcessTerminationTimeout = null };
return await HarnessCli.InvokeAsync(console, args, invocation, cancellation.Token);
