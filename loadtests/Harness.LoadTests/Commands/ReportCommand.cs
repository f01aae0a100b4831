using System.CommandLine;
using Harness.LoadTests.Running;
using Spectre.Console;

namespace Harness.LoadTests.Commands;

/// <summary><c>harness report RUN</c>: renders a run's reports again from its raw files.</summary>
internal static class ReportCommand
{
    public static Command Create(IAnsiConsole console)
    {
        var runFolder = new Argument<string>("RUN") { Description = "A run folder (reports/<timestamp>)." };
        var report = new Command("report", "Render a run's reports again from its raw files.") { runFolder };
        report.SetAction(parse => HarnessCli.Guarded(console, () =>
        {
            return RunReport.Render(console, HarnessCli.RunFolder(parse.GetValue(runFolder)!), []);
        }));
        return report;
    }
}
