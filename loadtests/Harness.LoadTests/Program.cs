using Harness.LoadTests.Cli;
using Spectre.Console;

// The load generator must never be what saturates: with the ThreadPool's slow injection on a 2-core machine,
// a burst of virtual users would otherwise wait for threads and the client would measure itself.
ThreadPool.GetMinThreads(out var workers, out var completionPorts);
ThreadPool.SetMinThreads(Math.Max(workers, 64), Math.Max(completionPorts, 64));

return await HarnessCli.Create(AnsiConsole.Console).Parse(args).InvokeAsync();
