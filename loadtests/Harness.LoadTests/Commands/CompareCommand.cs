using System.CommandLine;
using Harness.LoadTests.Recording;
using Harness.LoadTests.Reporting.Formats;
using Spectre.Console;

namespace Harness.LoadTests.Commands;

/// <summary><c>harness compare RUN_A RUN_B…</c>: each run against the first, on the console, in HTML and Markdown, and as a gate.</summary>
internal static class CompareCommand
{
    public static Command Create(IAnsiConsole console)
    {
        var runA = new Argument<string>("RUN_A") { Description = "A run folder (reports/<timestamp>)." };
        var runB = new Argument<string[]>("RUN_B") { Description = "One or more run folders (RUN_B [RUN_C…]), each compared against RUN_A.", Arity = ArgumentArity.OneOrMore };
        var failOn = new Option<string?>("--fail-on-regression") { Description = "e.g. 5%: judge every series' mean and p99 against RUN_A as one family (Holm, family-wise 5 %): exit 1 when one is worse by more than this, 0 when every one's worst bound is below it, 7 when the runs could not tell (inconclusive); exit 2 when the runs differ in profile, time scale or operation, or when no figure it would judge has an interval." };
        var onInconclusive = new Option<string>("--on-inconclusive")
        {
            Description = "With --fail-on-regression: what an inconclusive gate exits with: exit (its own code, 7; default), pass (0) or fail (1).",
            DefaultValueFactory = _ => "exit",
        };
        onInconclusive.AcceptOnlyFromAmong("exit", "pass", "fail");
        var compareOutput = new Option<string?>("--output") { Description = "Folder for the comparison report (default: beside RUN_B, compare-<A>-vs-<B>)." };
        var compare = new Command("compare", "Compare runs with RUN_A, series by series: console table, HTML and Markdown report.") { runA, runB, failOn, onInconclusive, compareOutput };
        compare.SetAction(parse => HarnessCli.Guarded(console, () =>
        {
            var folders = parse.GetValue(runB)!.Prepend(parse.GetValue(runA)!).Select(HarnessCli.RunFolder).ToList();
            var warnings = new List<string>();
            var runs = folders.Select(f => { var run = RawRunReader.Read(f, out var w); warnings.AddRange(w); return run; }).ToList();
            var outcome = ComparisonWriter.Run(
                runs, parse.GetValue(compareOutput) ?? ComparisonWriter.DefaultDirectory(folders[1], runs),
                parse.GetValue(failOn) is { } limit ? ComparisonWriter.ParsePercent(limit) : null, warnings,
                parse.GetValue(onInconclusive) switch { "pass" => InconclusiveGate.Pass, "fail" => InconclusiveGate.Fail, _ => InconclusiveGate.Own });
            if (outcome.Refusal is { } refusal)
            {
                return HarnessCli.Usage(console, refusal);
            }

            warnings.ForEach(w => console.MarkupLineInterpolated($"[yellow]warning:[/] {w}"));
            outcome.SeriesBySeries.ToList().ForEach(console.WriteLine);
            if (outcome.Stacks is { } stacks)
            {
                console.WriteLine(stacks);
            }

            outcome.GateLines.ToList().ForEach(console.WriteLine);
            console.MarkupLineInterpolated($"[green]Comparison:[/] {outcome.Files!.Html}");
            return outcome.ExitCode;
        }));
        return compare;
    }
}
