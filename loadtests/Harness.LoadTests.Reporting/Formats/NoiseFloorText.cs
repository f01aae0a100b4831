using System.Globalization;
using System.Text;
using Harness.LoadTests.Reporting.Analysis;

namespace Harness.LoadTests.Reporting.Formats;

/// <summary><c>harness calibrate</c>'s answer on the console: each A/A group's figures, their spread and the verdict.</summary>
internal static class NoiseFloorText
{
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
            var how = Invariant($"the mean spreads {Percent(mean.Spread)} (limit {NoiseFloor.MeanLimit * 100:0} %) and p99 {Percent(p99.Spread)} (limit {NoiseFloor.P99Limit * 100:0} %)");
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
