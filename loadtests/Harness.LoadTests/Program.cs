using Harness.LoadTests.Cli;
using Spectre.Console;

// The load generator must never be what saturates: with the ThreadPool's slow injection on a 2-core machine,
// a burst of virtual users would otherwise wait for threads and the client would measure itself.
ThreadPool.GetMinThreads(out var workers, out var completionPorts);
ThreadPool.SetMinThreads(Math.Max(workers, 64), Math.Max(completionPorts, 64));

// Redirected output (CI logs, files) is read by tools and people searching it: never wrap a report path.
var console = AnsiConsole.Console;
if (Console.IsOutputRedirected)
{
    console.Profile.Width = 4096;
}

return await HarnessCli.Create(console).Parse(args).InvokeAsync();
