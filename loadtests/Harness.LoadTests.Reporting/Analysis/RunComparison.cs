using System.Text;
using Harness.LoadTests.Recording;
using Harness.LoadTests.Reporting.Formats;
using Harness.LoadTests.Reporting.Text;

namespace Harness.LoadTests.Reporting.Analysis;

/// <summary>One figure of a series in run A and run B.</summary>
/// <param name="PercentChange">(B − A) ÷ A × 100; 0 when both are 0; null when A is 0 and B is not, or either is missing.</param>
/// <param name="LowerIsBetter">True for latency, errors and context switches; false for throughput.</param>
public sealed record MetricChange(string Metric, double? Before, double? After, double? PercentChange, bool LowerIsBetter)
{
    /// <summary>True when B is worse than A by more than <paramref name="tolerancePercent"/>.</summary>
    public bool IsRegression(double tolerancePercent = 0)
    {
        if (PercentChange is { } p)
        {
            return LowerIsBetter ? p > tolerancePercent : p < -tolerancePercent;
        }

        // Only A was zero: B gained errors or latency from nothing.
        return LowerIsBetter && Before == 0 && After > 0;
    }
}

/// <summary>A series found in both runs.</summary>
/// <param name="MatchedBy"><c>id</c>, or <c>stack+operation+mode</c> when the ids differ.</param>
public sealed record SeriesComparison(string Name, string MatchedBy, SeriesSummary Before, SeriesSummary After, IReadOnlyList<MetricChange> Changes);

/// <summary>What changed from run A to run B, series by series (the <c>compare RUN_A RUN_B</c> command).</summary>
public sealed record RunComparison(
    string RunA,
    string RunB,
    IReadOnlyList<SeriesComparison> Matched,
    IReadOnlyList<SeriesInfo> OnlyInA,
    IReadOnlyList<SeriesInfo> OnlyInB)
{
    public const string MeanMs = "mean ms";
    public const string P50Ms = "p50 ms";
    public const string P90Ms = "p90 ms";
    public const string P99Ms = "p99 ms";
    public const string P999Ms = "p99.9 ms";
    public const string P9999Ms = "p99.99 ms";
    public const string MaxMs = "max ms";
    public const string RequestsPerSecond = "req/s";
    public const string ErrorRate = "error rate";
    public const string ContextSwitchesPerRequest = "ctx switches/req";
    public const string IntendedMeanMs = "intended mean ms";
    public const string IntendedP99Ms = "intended p99 ms";

    /// <summary>How the runs differ in profile, time scale, operation parameters, warm-up or raw format (<see cref="RunDifferences"/>).</summary>
    public IReadOnlyList<string> Differences { get; init; } = [];

    /// <summary>
    /// Matches series by id first, then the rest by stack + operation + mode (so a renamed target still pairs up);
    /// series left over are listed as present in one run only.
    /// </summary>
    public static RunComparison Compare(RunData a, RunData b)
    {
        ArgumentNullException.ThrowIfNull(a);
        ArgumentNullException.ThrowIfNull(b);
        var before = SeriesSummary.ForRun(a).ToList();
        var after = SeriesSummary.ForRun(b).ToList();
        var matched = new List<SeriesComparison>();

        foreach (var left in before.ToList())
        {
            var right = after.FirstOrDefault(r => r.Series.Id == left.Series.Id);
            if (right is not null)
            {
                matched.Add(Pair(left.Series.Id, "id", left, right));
                before.Remove(left);
                after.Remove(right);
            }
        }

        foreach (var left in before.ToList())
        {
            var right = after.FirstOrDefault(r => SameShape(r.Series, left.Series));
            if (right is not null)
            {
                matched.Add(Pair($"{left.Series.Id} ↔ {right.Series.Id}", "stack+operation+mode", left, right));
                before.Remove(left);
                after.Remove(right);
            }
        }

        return new RunComparison(a.Manifest.RunId, b.Manifest.RunId, matched, [.. before.Select(s => s.Series)], [.. after.Select(s => s.Series)])
        {
            Differences = RunDifferences.Between(a.Manifest, b.Manifest, matched.Select(m => (m.Before.Series, m.After.Series))),
        };
    }

    /// <summary>For the console: a one-line-per-series overview of changes, then every figure of each series.</summary>
    public string ToText()
    {
        var text = new StringBuilder();
        text.AppendLine($"Comparing run {RunA} (A) with run {RunB} (B); change = (B - A) / A. Warm-up seconds are left out.");
        text.AppendLine();
        if (Differences.Count > 0)
        {
            text.AppendLine("The runs differ in what they asked, so a change may come from that rather than from the code:");
            foreach (var difference in Differences)
            {
                text.AppendLine("  - " + difference);
            }

            text.AppendLine();
        }

        if (Matched.Count > 0)
        {
            text.AppendLine("Changes, B against A:");
            text.Append(OverviewTable().ToText());
            text.AppendLine();
            text.AppendLine("Figures:");
            text.Append(DetailTable().ToText());
        }
        else
        {
            text.AppendLine("No series is present in both runs.");
        }

        AppendUnmatched(text, markdown: false);
        return text.ToString();
    }

    public string ToMarkdown()
    {
        var text = new StringBuilder();
        text.AppendLine($"# Run {RunB} compared with run {RunA}");
        text.AppendLine();
        text.AppendLine($"A = `{RunA}`, B = `{RunB}`; change = (B − A) ÷ A. \"n/a\" means A was 0 and B was not. Warm-up seconds are left out.");
        text.AppendLine();
        if (Differences.Count > 0)
        {
            text.AppendLine("The runs differ in what they asked, so a change may come from that rather than from the code:");
            text.AppendLine();
            foreach (var difference in Differences)
            {
                text.AppendLine("- " + difference);
            }

            text.AppendLine();
        }

        if (Matched.Count > 0)
        {
            text.AppendLine("## Changes");
            text.AppendLine();
            text.Append(OverviewTable().ToMarkdown());
            text.AppendLine();
            text.AppendLine("## Figures");
            text.AppendLine();
            text.Append(DetailTable().ToMarkdown());
        }
        else
        {
            text.AppendLine("No series is present in both runs.");
        }

        AppendUnmatched(text, markdown: true);
        return text.ToString();
    }

    private static SeriesComparison Pair(string name, string matchedBy, SeriesSummary a, SeriesSummary b)
    {
        var changes = new List<MetricChange>
        {
            Change(MeanMs, a, b, s => s.Latency.MeanMs),
            Change(P50Ms, a, b, s => s.Latency.P50Ms),
            Change(P90Ms, a, b, s => s.Latency.P90Ms),
            Change(P99Ms, a, b, s => s.Latency.P99Ms),
            Change(P999Ms, a, b, s => s.Latency.P999Ms),
            Change(P9999Ms, a, b, s => s.Latency.P9999Ms),
            Change(MaxMs, a, b, s => s.Latency.MaxMs),
            Change(RequestsPerSecond, a, b, s => s.RequestsPerSecond, lowerIsBetter: false),
            Change(ErrorRate, a, b, s => s.ErrorRate),
            Change(ContextSwitchesPerRequest, a, b, s => s.ContextSwitchesPerRequest),
        };
        if (a.IntendedLatency is not null || b.IntendedLatency is not null)
        {
            changes.Add(Change(IntendedMeanMs, a, b, s => s.IntendedLatency?.MeanMs));
            changes.Add(Change(IntendedP99Ms, a, b, s => s.IntendedLatency?.P99Ms));
        }

        return new SeriesComparison(name, matchedBy, a, b, changes);
    }

    private static MetricChange Change(string metric, SeriesSummary a, SeriesSummary b, Func<SeriesSummary, double?> read, bool lowerIsBetter = true)
    {
        double? before = read(a), after = read(b);
        return new MetricChange(metric, before, after, Ratio.PercentChange(before, after), lowerIsBetter);
    }

    private static bool SameShape(SeriesInfo x, SeriesInfo y) =>
        string.Equals(x.Stack, y.Stack, StringComparison.OrdinalIgnoreCase)
        && string.Equals(x.Operation, y.Operation, StringComparison.OrdinalIgnoreCase)
        && string.Equals(x.Mode, y.Mode, StringComparison.OrdinalIgnoreCase);

    private TextTable OverviewTable()
    {
        string[] metrics = [MeanMs, P50Ms, P90Ms, P99Ms, P999Ms, P9999Ms, MaxMs, RequestsPerSecond, ErrorRate, ContextSwitchesPerRequest];
        var table = new TextTable(["series", .. metrics.Select(m => ">" + m)]);
        foreach (var series in Matched)
        {
            table.Add([series.Name, .. metrics.Select(m => Cell(series.Changes.First(c => c.Metric == m)))]);
        }

        return table;

        static string Cell(MetricChange change) => Format.Change(change.PercentChange) + (change.IsRegression(5) ? " !" : string.Empty);
    }

    private TextTable DetailTable()
    {
        var table = new TextTable("series", "figure", ">A", ">B", ">change");
        foreach (var series in Matched)
        {
            var first = true;
            foreach (var change in series.Changes)
            {
                var value = change.Metric == ErrorRate ? (Func<double?, string>)Format.Rate : Format.Number;
                table.Add(first ? series.Name : string.Empty, change.Metric, value(change.Before), value(change.After), Format.Change(change.PercentChange));
                first = false;
            }
        }

        return table;
    }

    private void AppendUnmatched(StringBuilder text, bool markdown)
    {
        foreach (var (title, list) in new[] { ($"Only in A ({RunA})", OnlyInA), ($"Only in B ({RunB})", OnlyInB) })
        {
            if (list.Count == 0)
            {
                continue;
            }

            text.AppendLine();
            text.AppendLine(markdown ? $"## {title}" : $"{title}:");
            if (markdown)
            {
                text.AppendLine();
            }

            foreach (var series in list)
            {
                text.AppendLine(markdown ? $"- `{series.Id}` ({series.Stack}, {series.Operation}, {series.Mode})" : $"  {series.Id} ({series.Stack}, {series.Operation}, {series.Mode})");
            }
        }

        if (!markdown && Matched.Count > 0)
        {
            text.AppendLine();
            text.AppendLine("'!' marks a change more than 5 % for the worse; n/a: A was 0 and B was not, or the figure was not measured (—).");
        }
    }
}
