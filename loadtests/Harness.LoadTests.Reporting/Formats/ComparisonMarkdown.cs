using System.Globalization;
using System.Text;
using Harness.LoadTests.Reporting.Analysis;
using Harness.LoadTests.Reporting.Text;

namespace Harness.LoadTests.Reporting.Formats;

/// <summary>The comparison report's tables in Markdown, and the cell texts the HTML page shares.</summary>
public static class ComparisonMarkdown
{
    /// <param name="comparison">The runs compared.</param>
    /// <param name="gatePercent">The <c>--fail-on-regression</c> limit in %, when given.</param>
    public static string Render(MultiRunComparison comparison, double? gatePercent = null)
    {
        ArgumentNullException.ThrowIfNull(comparison);
        var md = new StringBuilder();
        var runs = comparison.Runs;
        md.AppendLine(CultureInfo.InvariantCulture, $"# Comparison: {string.Join(" · ", runs.Select((r, i) => $"{ComparisonModel.LetterOf(i)} `{r.Manifest.RunId}`"))}");
        md.AppendLine();
        md.AppendLine("Every run against run A, series by series (a mode of one stack × operation, its repetitions together); change = (run − A) ÷ A of the "
            + "medians over the repetitions, with its 95 % interval (from the noise of both runs' repetitions, pooled over the stack × operation's modes) "
            + "where either repeated it: \"within noise\" when the interval holds no change, \"single run\" when one side ran once and there is no "
            + "noise to judge it by; otherwise better or worse past 5 %. Warm-up seconds are left out; latency is that of successful requests. "
            + "docs/compare.md explains the verdict, docs/report.md every figure.");
        foreach (var (differences, i) in comparison.Differences.Select((d, i) => (d, i)).Where(p => p.d.Count > 0))
        {
            md.AppendLine();
            md.AppendLine(CultureInfo.InvariantCulture, $"Run {ComparisonModel.LetterOf(i)} asked differently from A, so a change may come from that rather than from the code:");
            md.AppendLine();
            foreach (var difference in differences)
            {
                md.AppendLine(CultureInfo.InvariantCulture, $"- {difference}");
            }
        }

        if (gatePercent is { } gate)
        {
            md.AppendLine();
            md.AppendLine("## Regression gate");
            md.AppendLine();
            md.AppendLine(GateText(comparison, gate));
            foreach (var regression in comparison.Regressions(gate))
            {
                md.AppendLine(CultureInfo.InvariantCulture, $"- {RegressionText(regression)}");
            }
        }

        for (var i = 0; i < comparison.Stacks.Count; i++)
        {
            StackText.AppendMarkdown(md, comparison.Stacks[i], StackText.RunTitle(comparison, i));
        }

        foreach (var series in comparison.Series)
        {
            md.AppendLine();
            md.AppendLine(CultureInfo.InvariantCulture, $"## {series.Key}");
            md.AppendLine();
            md.Append(FiguresTable(comparison, series).ToMarkdown());
        }

        return md.ToString();
    }

    /// <summary>One line: whether the gate passed, and its rule.</summary>
    public static string GateText(MultiRunComparison comparison, double gatePercent)
    {
        ArgumentNullException.ThrowIfNull(comparison);
        var count = comparison.Regressions(gatePercent).Count;
        var unjudged = comparison.Unjudged().Count;
        var rule = $"mean or p99 worse than in run A by more than {Format.Plain(gatePercent)} % beyond the noise";
        if (comparison.GateJudgesNothing)
        {
            return $"**not judged**: every mean and p99 the gate would judge ({unjudged}) is of a single run, so no change can be told from noise; repeat the runs (harness run --repeat 2 or more).";
        }

        var note = unjudged == 0 ? string.Empty
            : $" Not judged: {unjudged} figure{(unjudged == 1 ? string.Empty : "s")} of a single run (repeat with --repeat 2 or more for an interval).";
        return count == 0 ? $"**pass**: no series has its {rule}.{note}" : $"**FAIL**: {count} figure{(count == 1 ? string.Empty : "s")} with the {rule}.{note}";
    }

    public static string RegressionText(Regression regression)
    {
        ArgumentNullException.ThrowIfNull(regression);
        return $"{regression.SeriesKey} in run {regression.RunId}: {ModeFigures.Name(regression.Figure.Figure)} {DeltaText(regression.Figure)}";
    }

    /// <summary>Per figure: run A's value, then each other run's and its change against A.</summary>
    internal static TextTable FiguresTable(MultiRunComparison comparison, ComparedSeries series)
    {
        var headers = new List<string> { "figure", ">A" };
        for (var i = 1; i < comparison.Runs.Count; i++)
        {
            headers.AddRange([">" + ComparisonModel.LetterOf(i), ">change " + ComparisonModel.LetterOf(i)]);
        }

        var table = new TextTable([.. headers]);
        foreach (var figure in MultiRunComparison.Figures)
        {
            var cells = new List<string> { FigureName(figure), ValueText(figure, SpreadOf(series.ByRun[0], figure)) };
            for (var i = 1; i < comparison.Runs.Count; i++)
            {
                var compared = series.Against[i]?.First(f => f.Figure == figure);
                cells.AddRange([ValueText(figure, SpreadOf(series.ByRun[i], figure)), compared is null ? Format.Missing : DeltaText(compared)]);
            }

            table.Add([.. cells]);
        }

        return table;
    }

    internal static string FigureName(ModeFigure figure) =>
        ModeFigures.Name(figure) + (figure is ModeFigure.RequestsPerSecond or ModeFigure.ErrorRate or ModeFigure.ContextSwitchesPerRequest ? string.Empty : " ms");

    internal static Spread? SpreadOf(IReadOnlyList<SeriesSummary> series, ModeFigure figure) =>
        Spread.Of(series.Select(s => ModeFigures.Read(s, figure)).OfType<double>());

    /// <summary>A run's figure: the median of its repetitions with their bounds (<c>412 (398–430)</c>), or its one value.</summary>
    internal static string ValueText(ModeFigure figure, Spread? spread)
    {
        if (figure != ModeFigure.ErrorRate || spread is null)
        {
            return FigureText.Spread(spread);
        }

        return spread.Count == 1 ? Format.Rate(spread.Median) : $"{Format.Rate(spread.Median)} ({Format.Rate(spread.Low)}–{Format.Rate(spread.High)})";
    }

    /// <summary>
    /// The change against A: <c>+4.4 %</c>, with its interval when there is one, and what keeps it from a verdict:
    /// <c>+4.4 % (−1.2 % to +8.0 %) within noise</c>, <c>+6.0 % single run</c>.
    /// </summary>
    internal static string DeltaText(ComparedFigure figure)
    {
        if (figure.DeltaPercent is not { } delta)
        {
            return "n/a";
        }

        var text = Format.Change(delta);
        if (figure.Ratio.HasSpread)
        {
            var (low, high) = figure.DeltaSpread;
            text += $" ({(low is null ? "+∞ %" : Format.Change(low))} to {(high is null ? "+∞ %" : Format.Change(high))})";
        }

        return figure.Ratio.Verdict switch
        {
            RatioVerdict.WithinNoise => text + " within noise",
            RatioVerdict.SingleRun => text + " single run",
            _ => text,
        };
    }
}
