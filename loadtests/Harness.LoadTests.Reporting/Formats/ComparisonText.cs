using System.Text;
using Harness.LoadTests.Reporting.Analysis;
using Harness.LoadTests.Reporting.Text;

namespace Harness.LoadTests.Reporting.Formats;

/// <summary><c>harness compare</c> on the console: each run against run A, series by series (<see cref="SeriesPairing"/>).</summary>
internal static class ComparisonText
{
    /// <summary>For the console: a one-line-per-series overview of changes, then every figure of each series.</summary>
    public static string ToText(SeriesPairing pairing)
    {
        var text = new StringBuilder();
        text.AppendLine($"Comparing run {pairing.RunA} (A) with run {pairing.RunB} (B); change = (B - A) / A. Warm-up seconds are left out.");
        text.AppendLine();
        if (pairing.Differences.Count > 0)
        {
            text.AppendLine("The runs differ in what they asked, so a change may come from that rather than from the code:");
            foreach (var difference in pairing.Differences)
            {
                text.AppendLine("  - " + difference);
            }

            text.AppendLine();
        }

        if (pairing.Matched.Count > 0)
        {
            text.AppendLine("Changes, B against A:");
            text.Append(OverviewTable(pairing).ToText());
            text.AppendLine();
            if (pairing.ByMode.Count > 0)
            {
                // The change is of the geometric means when there is a test; a judged figure's interval is at its Holm level, not 95 %.
                text.AppendLine("By mode, B against A (repetitions together; change of the geometric means; interval from both runs' repetitions, "
                    + "at its Holm level for mean, p99 and req/s, else 95 %):");
                text.Append(VerdictTable(pairing).ToText());
                text.AppendLine();
            }

            text.AppendLine("Figures:");
            text.Append(DetailTable(pairing).ToText());
        }
        else
        {
            text.AppendLine("No series is present in both runs.");
        }

        AppendUnmatched(pairing, text);
        return text.ToString();
    }

    private static TextTable OverviewTable(SeriesPairing pairing)
    {
        string[] metrics =
        [
            SeriesPairing.MeanMs, SeriesPairing.P50Ms, SeriesPairing.P90Ms, SeriesPairing.P99Ms, SeriesPairing.P999Ms, SeriesPairing.P9999Ms,
            SeriesPairing.MaxMs, SeriesPairing.RequestsPerSecond, SeriesPairing.ErrorRate, SeriesPairing.ContextSwitchesPerRequest,
        ];
        var table = new TextTable(["series", .. metrics.Select(m => ">" + m)]);
        foreach (var series in pairing.Matched)
        {
            var mode = pairing.ByMode.FirstOrDefault(j => j.SeriesIds.Contains(series.After.Series.Id, StringComparer.Ordinal));
            table.Add([series.Name, .. metrics.Select(m => Cell(series.Changes.First(c => c.Metric == m), mode))]);
        }

        return table;

        // The change is this series' own; the mark is its mode's verdict (repetitions together).
        static string Cell(MetricChange change, ModeJudgement? mode) =>
            Format.Change(change.PercentChange) + (FigureOf(change.Metric) is { } f && mode?.Of(f) is { IsWorse: true } ? " !" : string.Empty);
    }

    /// <summary>Per compared series, the figures a reader judges by: the change, its interval, and the verdict.</summary>
    private static TextTable VerdictTable(SeriesPairing pairing)
    {
        var table = new TextTable("series", "figure", ">change", "interval", "verdict");
        foreach (var mode in pairing.ByMode)
        {
            var first = true;
            foreach (var figure in VerdictFigures)
            {
                if (mode.Of(figure) is not { } judged)
                {
                    continue;
                }

                var (low, high) = judged.DeltaSpread;
                var interval = judged.Ratio.HasSpread ? $"{Format.Change(low)} to {Format.Change(high)}" : Format.Missing;
                table.Add(first ? mode.Key : string.Empty, ModeFigures.Name(figure), Format.Change(judged.DeltaPercent), interval, VerdictText(judged.Ratio.Verdict));
                first = false;
            }
        }

        return table;
    }

    private static readonly ModeFigure[] VerdictFigures = [ModeFigure.Mean, ModeFigure.P99, ModeFigure.RequestsPerSecond, ModeFigure.ErrorRate];

    internal static string VerdictText(RatioVerdict verdict) => verdict switch
    {
        RatioVerdict.Worse => "worse !",
        RatioVerdict.Better => "better",
        RatioVerdict.NoDifference => "no difference beyond ±5 %",
        RatioVerdict.Inconclusive => "inconclusive",
        RatioVerdict.NotJudged => "not judged",
        RatioVerdict.NoInterval => "no interval",
        RatioVerdict.SingleRun => "single run",
        _ => "n/a",
    };

    private static ModeFigure? FigureOf(string metric) => metric switch
    {
        SeriesPairing.MeanMs => ModeFigure.Mean,
        SeriesPairing.P50Ms => ModeFigure.P50,
        SeriesPairing.P90Ms => ModeFigure.P90,
        SeriesPairing.P99Ms => ModeFigure.P99,
        SeriesPairing.P999Ms => ModeFigure.P999,
        SeriesPairing.P9999Ms => ModeFigure.P9999,
        SeriesPairing.MaxMs => ModeFigure.Max,
        SeriesPairing.RequestsPerSecond => ModeFigure.RequestsPerSecond,
        SeriesPairing.ErrorRate => ModeFigure.ErrorRate,
        SeriesPairing.ContextSwitchesPerRequest => ModeFigure.ContextSwitchesPerRequest,
        _ => null,
    };

    private static TextTable DetailTable(SeriesPairing pairing)
    {
        var table = new TextTable("series", "figure", ">A", ">B", ">change");
        foreach (var series in pairing.Matched)
        {
            var first = true;
            foreach (var change in series.Changes)
            {
                var value = change.Metric == SeriesPairing.ErrorRate ? (Func<double?, string>)Format.Rate : Format.Number;
                table.Add(first ? series.Name : string.Empty, change.Metric, value(change.Before), value(change.After), Format.Change(change.PercentChange));
                first = false;
            }
        }

        return table;
    }

    private static void AppendUnmatched(SeriesPairing pairing, StringBuilder text)
    {
        foreach (var (title, list) in new[] { ($"Only in A ({pairing.RunA})", pairing.OnlyInA), ($"Only in B ({pairing.RunB})", pairing.OnlyInB) })
        {
            if (list.Count == 0)
            {
                continue;
            }

            text.AppendLine();
            text.AppendLine($"{title}:");
            foreach (var series in list)
            {
                text.AppendLine($"  {series.Id} ({series.Stack}, {series.Operation}, {series.Mode})");
            }
        }

        if (pairing.Matched.Count > 0)
        {
            text.AppendLine();
            text.AppendLine("'!' marks a figure whose mode (its repetitions together) is worse than in A: mean, p99 and req/s of every series are judged as one family "
                + "(Holm, family-wise 5 %), worse when the interval at its Holm level lies wholly beyond +5 %; inconclusive when it reaches both sides of the band; "
                + "single run: one process on each side and no noise to judge it by, never marked. n/a: A was 0 and B was not, or the figure was not measured (—).");
        }
    }
}
