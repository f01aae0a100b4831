using System.Globalization;
using System.Text;
using Harness.LoadTests.Reporting.Analysis;
using Harness.LoadTests.Reporting.Text;

namespace Harness.LoadTests.Reporting.Formats;

/// <summary>
/// The load runner's own CPU, memory and threads per series (<see cref="RunnerLoad"/>), in the Markdown and the HTML
/// report, and the line that says when the runner's CPU, not the service, was the limit.
/// </summary>
internal static class RunnerSection
{
    public const string Lead =
        "What the load runner itself used in each series' measured seconds (its working set, GC heap after the last collection, OS threads and CPU in % of one core). "
        + "The service's own figures are in the tables above.";

    /// <summary>Null when no series sampled the runner (runs recorded before it did).</summary>
    public static TextTable? Table(IReadOnlyList<SeriesSummary> summaries)
    {
        var sampled = summaries.Where(s => s.Runner is not null).ToList();
        if (sampled.Count == 0)
        {
            return null;
        }

        var table = new TextTable("series", ">peak MB", ">peak GC heap MB", ">peak threads", ">CPU % of 1 core", ">seconds CPU-bound");
        foreach (var s in sampled)
        {
            var r = s.Runner!;
            table.Add(s.Series.Id, Format.Integer(r.PeakWorkingSetMb), Format.Integer(r.PeakGcHeapMb), Format.Integer(r.PeakThreads), Format.Number(r.MeanCpuPercent),
                $"{r.SaturatedSeconds.ToString(CultureInfo.InvariantCulture)} of {r.Seconds.ToString(CultureInfo.InvariantCulture)}");
        }

        return table;
    }

    /// <summary>One sentence per series whose runner was CPU-bound often enough (<see cref="RunnerLoad.Saturated"/>).</summary>
    public static IReadOnlyList<string> Warnings(IReadOnlyList<SeriesSummary> summaries) =>
        [.. summaries.Where(s => s.Runner is { Saturated: true }).Select(s =>
            $"The load runner's CPU was the limit in {s.Runner!.SaturatedSeconds} of {s.Runner.Seconds} measured seconds of {s.Series.Id} "
            + $"(runner and service together ≥ {RunnerLoad.SaturatedShare * 100:0} % of the cores, the runner using more): its latency and throughput describe the load generator as much as the service.")];

    public static void AppendMarkdown(StringBuilder md, IReadOnlyList<SeriesSummary> summaries)
    {
        if (Table(summaries) is not { } table)
        {
            return;
        }

        md.AppendLine();
        md.AppendLine("## Load runner");
        md.AppendLine();
        md.AppendLine(Lead);
        md.AppendLine();
        md.Append(table.ToMarkdown());
        foreach (var warning in Warnings(summaries))
        {
            md.AppendLine();
            md.AppendLine(CultureInfo.InvariantCulture, $"**{warning}**");
        }
    }

    public static void AppendHtml(StringBuilder html, IReadOnlyList<SeriesSummary> summaries)
    {
        if (Table(summaries) is not { } table)
        {
            return;
        }

        html.AppendLine("<section class=\"panel\" id=\"runner\">");
        html.AppendLine("<h2>Load runner</h2>");
        html.AppendLine(CultureInfo.InvariantCulture, $"<p class=\"lead\">{Html.E(Lead)}</p>");
        foreach (var warning in Warnings(summaries))
        {
            html.AppendLine(CultureInfo.InvariantCulture, $"<div class=\"notice error\">{Html.E(warning)}</div>");
        }

        html.Append(table.ToHtml());
        html.AppendLine("</section>");
    }
}
