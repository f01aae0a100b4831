using System.Text;
using Harness.LoadTests.Reporting.Analysis;
using Harness.LoadTests.Reporting.Text;

namespace Harness.LoadTests.Reporting.Formats;

/// <summary><c>harness compare</c> on the console: each run against run A, series by series (<see cref="SeriesPairing"/>).</summary>
public static class ComparisonText
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
            table.Add([series.Name, .. metrics.Select(m => Cell(series.Changes.First(c => c.Metric == m)))]);
        }

        return table;

        static string Cell(MetricChange change) => Format.Change(change.PercentChange) + (change.IsRegression(5) ? " !" : string.Empty);
    }

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
            text.AppendLine("'!' marks a change more than 5 % for the worse; n/a: A was 0 and B was not, or the figure was not measured (—).");
        }
    }
}
