using System.Globalization;
using System.Text;
using Harness.LoadTests.Reporting.Analysis;
using Harness.LoadTests.Reporting.Text;

namespace Harness.LoadTests.Reporting.Formats;

/// <summary>The comparison report's tables in Markdown, and the cell texts the HTML page shares.</summary>
internal static class ComparisonMarkdown
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
        md.AppendLine(Lead);
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
            var result = comparison.Gate(gate);
            md.AppendLine(GateText(result, gate));
            foreach (var line in GateLines(result))
            {
                md.AppendLine(CultureInfo.InvariantCulture, $"- {line}");
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

    /// <summary>What the comparison's changes and verdicts are, one paragraph (the Markdown's and the page's lead).</summary>
    public const string Lead =
        "Every run against run A, series by series (a mode of one stack × operation, its repetitions together); change = (run − A) ÷ A of the "
        + "geometric means over the repetitions, with its interval from the two runs' repetitions of that series (their noise pooled) where either "
        + "repeated it. Mean, p99 and req/s of every series and run are judged as one family (Holm, family-wise error 5 %): better or worse when "
        + "the interval lies wholly beyond ±5 %, \"no difference beyond ±5 %\" when wholly within, otherwise \"inconclusive\"; \"single run\" when "
        + "both sides ran once. Other figures show their 95 % interval. Two runs made at different times also differ by what changed between them "
        + "(the machine, its neighbours, the time of day), which no interval here can see: to gate a change, interleave the baseline and the "
        + "candidate in one run (docs/compare.md, \"The regression gate\"). Warm-up seconds are left out; latency is that of successful requests.";

    /// <summary>One line: the gate's outcome, and its rule.</summary>
    /// <param name="gate">The gate's answer (<see cref="MultiRunComparison.Gate"/>).</param>
    /// <param name="gatePercent">Its limit as given, for the text.</param>
    public static string GateText(GateResult gate, double gatePercent)
    {
        ArgumentNullException.ThrowIfNull(gate);
        var notJudged = gate.NotJudged.Count();
        if (gate.JudgesNothing)
        {
            return $"**not judged**: no mean or p99 the gate would judge ({notJudged}) has an interval (each side a single run, or a figure of 0), so no change can be told from noise; repeat the runs (harness run --repeat 2 or more).";
        }

        var judged = gate.Figures.Count - notJudged;
        var limit = $"{Format.Plain(gatePercent)} %";
        var family = $"{judged} mean and p99 figure{(judged == 1 ? string.Empty : "s")} judged as one family ({VerdictFamily.Method}, family-wise error 5 %)";
        var note = notJudged == 0 ? string.Empty
            : $" Not judged: {notJudged} figure{(notJudged == 1 ? string.Empty : "s")} without an interval (a single run on both sides, or a figure of 0).";
        return gate.Outcome switch
        {
            GateOutcome.Fail => $"**FAIL**: {gate.Failed.Count()} figure{(gate.Failed.Count() == 1 ? string.Empty : "s")} worse than in run A by more than {limit}, of {family}.{note}",
            GateOutcome.Pass => $"**pass**: none of the {family} can be worse than in run A by more than {limit}: every worst bound is below it.{note}",
            _ => $"**inconclusive**: none of the {family} is shown worse than in run A by more than {limit}, but {gate.Undecided.Count()} could be; "
                + $"more repetitions (--repeat 4, or --repeat auto) or an interleaved run would tell.{note}",
        };
    }

    /// <summary>The gate's figures worth a line: every failure, and every figure that keeps it inconclusive, worst first.</summary>
    public static IEnumerable<string> GateLines(GateResult gate)
    {
        ArgumentNullException.ThrowIfNull(gate);
        foreach (var failed in gate.Failed.OrderByDescending(f => f.Verdict!.BestBound))
        {
            yield return $"{failed.SeriesKey} in run {failed.RunId}: {ModeFigures.Name(failed.Figure.Figure)} {Format.Change(failed.Figure.DeltaPercent)}, worse by at least {FigureText.Change(failed.Verdict!.BestBound)}";
        }

        if (gate.Outcome == GateOutcome.Inconclusive)
        {
            foreach (var undecided in gate.Undecided.OrderByDescending(f => f.Verdict!.WorstBound).Take(5))
            {
                yield return $"{undecided.SeriesKey} in run {undecided.RunId}: {ModeFigures.Name(undecided.Figure.Figure)} {Format.Change(undecided.Figure.DeltaPercent)}, could be as much as {FigureText.Change(undecided.Verdict!.WorstBound)}";
            }
        }
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
    /// <c>+4.4 % (−1.2 % to +8.0 %) inconclusive</c>, <c>+6.0 % single run</c>.
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
            RatioVerdict.Inconclusive => text + " inconclusive",
            RatioVerdict.NoDifference or RatioVerdict.Better or RatioVerdict.Worse or RatioVerdict.SingleRun or RatioVerdict.NoInterval => $"{text} {FigureText.Verdict(figure.Ratio)}",
            _ => text,
        };
    }
}
