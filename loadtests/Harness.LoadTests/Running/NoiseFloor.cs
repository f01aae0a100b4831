using System.Globalization;
using System.Text;
using Harness.LoadTests.Recording;
using Harness.LoadTests.Reporting.Analysis;

namespace Harness.LoadTests.Running;

/// <summary>One figure of an A/A group: its value in each series, in run order, and how far they spread.</summary>
/// <param name="Limit">The largest spread still called quiet, for the figures the verdict judges; else null.</param>
/// <param name="IsCount">Whole numbers (errors), written without decimals.</param>
internal sealed record NoiseFigure(string Name, IReadOnlyList<double> Values, double? Limit, bool IsCount = false)
{
    /// <summary>Largest ÷ smallest − 1: how much the series differ with nothing changed. 0 when every value is 0; infinite when only some are.</summary>
    public double Spread
    {
        get
        {
            var (min, max) = (Values.Min(), Values.Max());
            return min > 0 ? (max / min) - 1 : max == 0 ? 0 : double.PositiveInfinity;
        }
    }

    public bool IsQuiet => Limit is not { } limit || Spread <= limit;
}

/// <summary>The series of one stack × operation × mode run several times in one run: what an A/A calibration compares.</summary>
internal sealed record NoiseGroup(string Stack, string Operation, string Mode, IReadOnlyList<string> SeriesIds, IReadOnlyList<NoiseFigure> Figures)
{
    public bool IsQuiet => Figures.All(f => f.IsQuiet);
}

/// <summary>
/// <c>harness calibrate</c>'s answer: how much one mode differs from itself on this machine, from the series'
/// summaries (warm-up left out, successful requests' latency), judged against ±5 % on the mean and ±10 % on p99.
/// A difference between two modes smaller than this is noise.
/// </summary>
internal static class NoiseFloor
{
    public const double MeanLimit = 0.05;
    public const double P99Limit = 0.10;

    public static IReadOnlyList<NoiseGroup> From(RunData run)
    {
        ArgumentNullException.ThrowIfNull(run);
        return [.. SeriesSummary.ForRun(run)
            .GroupBy(s => (s.Series.Stack, s.Series.Operation, s.Series.Mode))
            .Where(g => g.Count() >= 2)
            .Select(g =>
            {
                var runs = g.OrderBy(s => s.Series.Repetition).ToList();
                return new NoiseGroup(g.Key.Stack, g.Key.Operation, g.Key.Mode, [.. runs.Select(s => s.Series.Id)],
                [
                    new NoiseFigure("mean ms", [.. runs.Select(s => s.Latency.MeanMs)], MeanLimit),
                    new NoiseFigure("p50 ms", [.. runs.Select(s => s.Latency.P50Ms)], null),
                    new NoiseFigure("p99 ms", [.. runs.Select(s => s.Latency.P99Ms)], P99Limit),
                    new NoiseFigure("req/s", [.. runs.Select(s => s.RequestsPerSecond)], null),
                    new NoiseFigure("errors", [.. runs.Select(s => (double)s.Failures)], null, IsCount: true),
                ]);
            })];
    }

    public static string ToText(IReadOnlyList<NoiseGroup> groups)
    {
        if (groups.Count == 0)
        {
            return "No mode ran twice for the same stack and operation: there is nothing to compare.";
        }

        var text = new StringBuilder();
        foreach (var group in groups)
        {
            var n = group.SeriesIds.Count;
            text.AppendLine(Invariant($"A/A noise floor: {group.Stack} · {group.Operation} · {group.Mode}, {n} series with services of their own (warm-up left out)"));
            string[] headers = ["figure", .. Enumerable.Range(1, n).Select(i => $"#{i}"), .. n == 2 ? (string[])["#2 ÷ #1"] : [], "spread", "limit"];
            var rows = group.Figures.Select(f => (string[])
            [
                f.Name,
                .. f.Values.Select(v => f.IsCount ? v.ToString("#,0", CultureInfo.InvariantCulture) : Number(v)),
                .. n == 2 ? [f.Values[0] > 0 ? Invariant($"{f.Values[1] / f.Values[0]:0.000}") : "—"] : (string[])[],
                Percent(f.Spread),
                f.Limit is { } limit ? Invariant($"±{limit * 100:0} %") : "",
            ]).ToList();
            AppendTable(text, headers, rows);

            var mean = group.Figures.Single(f => f.Name == "mean ms");
            var p99 = group.Figures.Single(f => f.Name == "p99 ms");
            var how = Invariant($"the mean spreads {Percent(mean.Spread)} (limit {MeanLimit * 100:0} %) and p99 {Percent(p99.Spread)} (limit {P99Limit * 100:0} %)");
            text.AppendLine(group.IsQuiet
                ? $"Verdict: quiet. {Capitalised(how)}: a difference between modes larger than this is not this machine's noise."
                : $"Verdict: noisy. {Capitalised(how)}: differences between modes of this size are noise here; use --repeat, whose spread the report shows, or a quieter machine.");
            text.AppendLine();
        }

        return text.ToString().TrimEnd() + Environment.NewLine;
    }

    private static void AppendTable(StringBuilder text, string[] headers, List<string[]> rows)
    {
        var widths = headers.Select((h, i) => Math.Max(h.Length, rows.Max(r => r[i].Length))).ToArray();
        void Row(string[] cells) => text.AppendLine(string.Join("  ", cells.Select((c, i) => i == 0 ? c.PadRight(widths[i]) : c.PadLeft(widths[i]))).TrimEnd());
        Row(headers);
        text.AppendLine(string.Join("  ", widths.Select(w => new string('-', w))));
        rows.ForEach(Row);
    }

    private static string Number(double value) =>
        value.ToString(Math.Abs(value) >= 100 ? "#,0" : Math.Abs(value) >= 10 ? "0.0" : "0.00", CultureInfo.InvariantCulture);

    private static string Percent(double spread) => double.IsInfinity(spread) ? "∞" : Invariant($"{spread * 100:0.0} %");

    private static string Capitalised(string text) => char.ToUpperInvariant(text[0]) + text[1..];

    private static string Invariant(FormattableString text) => FormattableString.Invariant(text);
}
