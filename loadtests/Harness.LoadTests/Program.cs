using Harness.LoadTests.Cli;
using Spectre.Console;

return await HarnessCli.Create(AnsiConsole.Console).Parse(args).InvokeAsync();
