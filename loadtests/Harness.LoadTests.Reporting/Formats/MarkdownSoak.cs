using System.Globalization;
using System.Text;
using Harness.LoadTests.Reporting.Analysis;
using Harness.LoadTests.Reporting.Text;

namespace Harness.LoadTests.Reporting.Formats;

/// <summary>A group's soak figures and verdicts in summary.md (the HTML's soak section, <see cref="HtmlSoakSection"/>).</summary>
internal static class MarkdownSoak
{
    public static void Append(StringBuilder md, ModeComparisonGroup group, IReadOnlyList<ThresholdResult> soakResults)
    {
        var share = Format.Plain(group.Rows[0].Summary.Soak.WindowFraction * 100) + " %";
        md.AppendLine();
        md.AppendLine(CultureInfo.InvariantCulture,
            $"Soak: the first and last {share} after the warm-up compared; memory and threads from the least-squares slope over the whole (per hour):");
        md.AppendLine();
        md.Append(Table(group).ToMarkdown());
        var verdicts = HtmlSoakSection.Verdicts(group, soakResults);
        if (verdicts.Count > 0)
        {
            md.AppendLine();
            foreach (var (label, result) in verdicts)
            {
                md.AppendLine(CultureInfo.InvariantCulture,
                    $"- {label}: {result.Message}{(result.Threshold.IsDefault ? " (soak default)" : string.Empty)}: **{result.Label}**");
            }
        }
    }

    internal static TextTable Table(ModeComparisonGroup group)
    {
        var table = new TextTable(
            "mode", ">seconds", ">p99 first ms", ">p99 last ms", ">p99 drift", ">req/s first", ">req/s last", ">req/s drift",
            ">MB first", ">MB/h", ">memory %/h", ">threads first", ">threads/h", ">error rate");
        foreach (var row in group.Rows)
        {
            var t = row.Summary.Soak;
            table.Add(
                row.Label, Format.Integer(t.SpanTo - t.SpanFrom), Format.Number(t.First?.P99Ms), Format.Number(t.Last?.P99Ms), Format.Change(t.P99DriftPercent),
                Format.Number(t.First?.SuccessesPerSecond), Format.Number(t.Last?.SuccessesPerSecond), Format.Change(t.RpsDriftPercent),
                Format.Number(t.First?.WorkingSetMb), Format.Number(t.MemoryTrend?.Slope * 3600), Format.Number(t.MemoryGrowthPercentPerHour),
                Format.Number(t.First?.Threads), Format.Number(t.ThreadsGrowthPerHour), Format.Rate(t.ErrorRate));
        }

        return table;
    }
}
