using System.Globalization;
using System.Text;
using Harness.LoadTests.Reporting.Analysis;
using Harness.LoadTests.Reporting.Text;
using static Harness.LoadTests.Reporting.Formats.Html;

namespace Harness.LoadTests.Reporting.Formats;

/// <summary>
/// The target's ThreadPool as its .NET runtime reported it (<see cref="RuntimeThreadPool"/>): the starvation verdict
/// per series on the console, at the top of summary.md and in the page's glance, and each group's table. Nothing is
/// written for series without runtime figures.
/// </summary>
internal static class RuntimeSection
{
    /// <summary>What the verdict's queue part is, said wherever it is shown: it is inferred, not reported.</summary>
    public const string InferredNote =
        "\"Work waited in the queue\" counts the seconds whose one queue-length sample (dotnet_thread_pool_queue_length) was above zero: "
        + "it is inferred from 1-second samples, since the runtime does not report how long each work item waited. Threads injected for starvation "
        + "are the runtime's own account (its thread adjustments with reason starvation or cooperative blocking). docs/runtime.md";

    private const string Lead =
        "The target's ThreadPool as its .NET runtime reported it (dotnet_thread_pool_*, the runtime's thread adjustments), beside the service's own figures above. "
        + "Threads added / s: the thread count's rises summed ÷ the seconds sampled. Queued s: measured seconds whose queue-length sample was above zero (inferred).";

    /// <summary>One line per series with runtime figures: <c>series id: verdict</c>.</summary>
    public static IReadOnlyList<string> Lines(IReadOnlyList<SeriesSummary> summaries)
    {
        ArgumentNullException.ThrowIfNull(summaries);
        return [.. summaries.Where(s => s.Runtime is not null).Select(s => $"{s.Series.Id}: {s.Runtime!.Describe()}")];
    }

    /// <summary>For the console after a run: the verdicts, or nothing when no series had runtime figures.</summary>
    public static string? ConsoleText(IReadOnlyList<SeriesSummary> summaries)
    {
        var lines = Lines(summaries);
        return lines.Count == 0 ? null
            : string.Join(Environment.NewLine, lines) + Environment.NewLine
                + "(work waited in the queue: inferred from 1-second samples of the queue length; the runtime reports no wait per work item. docs/runtime.md)" + Environment.NewLine;
    }

    /// <summary>A group's table, one row per series with runtime figures; null when none had any.</summary>
    internal static TextTable? Table(ModeComparisonGroup group)
    {
        var rows = group.Rows.Where(r => r.Summary.Runtime is not null).ToList();
        if (rows.Count == 0)
        {
            return null;
        }

        var table = new TextTable("mode", ">runtime: peak threads", ">peak queue", ">threads added / s", ">queued s", ">threads for starvation", "adjustments by reason", ">seconds sampled");
        foreach (var row in rows)
        {
            var r = row.Summary.Runtime!;
            table.Add(
                row.Label, Format.Integer(r.PeakThreads), Format.Integer(r.PeakQueueLength), Format.Number(r.ThreadsAddedPerSecond), Format.Integer(r.QueuedSeconds),
                Format.Integer(r.StarvationThreads), Adjustments(r), r.Seconds.ToString(CultureInfo.InvariantCulture));
        }

        return table;
    }

    /// <summary>"starvation 37 · climbing_move 12", or — when the runtime's adjustments were not reported.</summary>
    internal static string Adjustments(RuntimeThreadPool runtime) =>
        runtime.AdjustmentsByReason.Count == 0 ? Format.Missing : string.Join(" · ", runtime.AdjustmentsByReason.Select(a => $"{a.Key} {Format.Integer(a.Value)}"));

    /// <summary>summary.md, under the run's heading: the verdict of every series with runtime figures.</summary>
    internal static void AppendMarkdownVerdicts(StringBuilder md, IReadOnlyList<SeriesSummary> summaries)
    {
        var lines = Lines(summaries);
        if (lines.Count == 0)
        {
            return;
        }

        md.AppendLine();
        md.AppendLine("ThreadPool starvation (the targets' .NET runtime):");
        md.AppendLine();
        foreach (var line in lines)
        {
            md.AppendLine(CultureInfo.InvariantCulture, $"- {line}");
        }

        md.AppendLine();
        md.AppendLine(InferredNote);
    }

    internal static void AppendMarkdownGroup(StringBuilder md, ModeComparisonGroup group)
    {
        if (Table(group) is not { } table)
        {
            return;
        }

        md.AppendLine();
        md.AppendLine(Lead);
        md.AppendLine();
        md.Append(table.ToMarkdown());
    }

    /// <summary>The glance's notice: each series' verdict, the inference said in a note and in each line's tooltip.</summary>
    internal static void AppendHtmlGlance(StringBuilder html, IReadOnlyList<SeriesSummary> summaries)
    {
        var judged = summaries.Where(s => s.Runtime is not null).ToList();
        if (judged.Count == 0)
        {
            return;
        }

        var starved = judged.Any(s => s.Runtime!.Starved);
        html.AppendLine(CultureInfo.InvariantCulture, $"<div class=\"notice{(starved ? " error" : string.Empty)}\" id=\"starvation\"><b>ThreadPool starvation</b> (the targets' .NET runtime)<ul>");
        foreach (var s in judged)
        {
            html.AppendLine(CultureInfo.InvariantCulture,
                $"<li title=\"{E(InferredNote)}\"><code>{E(s.Series.Id)}</code>: {E(s.Runtime!.Describe())}</li>");
        }

        html.AppendLine(CultureInfo.InvariantCulture, $"</ul><p class=\"note\">{E(InferredNote)}</p></div>");
    }

    internal static void AppendHtmlGroup(StringBuilder html, ModeComparisonGroup group, IReadOnlyDictionary<string, string> colors)
    {
        var rows = group.Rows.Where(r => r.Summary.Runtime is not null).ToList();
        if (rows.Count == 0)
        {
            return;
        }

        html.AppendLine("<h3>Runtime ThreadPool</h3>");
        html.AppendLine(CultureInfo.InvariantCulture, $"<p class=\"note\">{E(Lead)}</p>");
        html.AppendLine("<div class=\"table-wrap\"><table class=\"data runtime\"><thead><tr><th class=\"text\">mode</th><th>runtime: peak threads</th><th>peak queue</th>"
            + "<th>threads added / s</th><th>queued s</th><th>threads for starvation</th><th class=\"text\">adjustments by reason</th><th class=\"text\">verdict</th></tr></thead><tbody>");
        foreach (var row in rows)
        {
            var r = row.Summary.Runtime!;
            html.AppendLine(CultureInfo.InvariantCulture,
                $"<tr><td class=\"text\">{Chip(row.Label, colors[row.Label])}</td><td>{Format.Integer(r.PeakThreads)}</td><td>{Format.Integer(r.PeakQueueLength)}</td>"
                + $"<td>{Format.Number(r.ThreadsAddedPerSecond)}</td><td title=\"{E(InferredNote)}\">{Format.Integer(r.QueuedSeconds)}</td><td>{Format.Integer(r.StarvationThreads)}</td>"
                + $"<td class=\"wrap\">{E(Adjustments(r))}</td><td class=\"wrap{(r.Starved ? " fail" : string.Empty)}\" title=\"{E(InferredNote)}\">{E(r.Describe())}</td></tr>");
        }

        html.AppendLine("</tbody></table></div>");
    }
}
