using System.Globalization;
using System.Text;
using Harness.LoadTests.Reporting.Analysis;
using Harness.LoadTests.Reporting.Text;
using static Harness.LoadTests.Reporting.Formats.Html;

namespace Harness.LoadTests.Reporting.Formats;

/// <summary>
/// A streaming call's figures (<see cref="StreamMessages"/>): per call, the time to the first reply message; per
/// message, the messages a second each way and the gap between reply messages. One line per series on the console,
/// and a table in each group of summary.md and the page. Nothing is written for series whose calls did not stream.
/// </summary>
internal static class StreamSection
{
    /// <summary>What the table's columns are, said above it.</summary>
    public const string Lead =
        "Streaming calls (gRPC server-, client- or bidirectional streams), of the successful calls after the warm-up. "
        + "First message: from sending the call to its first reply message. Message gap: between consecutive reply messages of one call (inter-message latency). "
        + "Messages / s: messages ÷ the series' active seconds, each call's counted in the second it ended. docs/streaming.md";

    private static readonly string[] Headers =
    [
        "mode", "streaming calls", "sent / call", "received / call", "sent / s", "received / s",
        "first message p50 ms", "first message p99 ms", "message gap p50 ms", "message gap p99 ms", "message gap max ms",
    ];

    /// <summary>One line per streaming series: <c>series id: N calls · M msgs/s received …</c>.</summary>
    public static IReadOnlyList<string> Lines(IReadOnlyList<SeriesSummary> summaries)
    {
        ArgumentNullException.ThrowIfNull(summaries);
        return [.. summaries.Where(s => s.Stream is not null).Select(s => $"{s.Series.Id}: {Describe(s.Stream!)}")];
    }

    /// <summary>For the console after a run; null when no series streamed.</summary>
    public static string? ConsoleText(IReadOnlyList<SeriesSummary> summaries)
    {
        var lines = Lines(summaries);
        return lines.Count == 0 ? null : "Streams:" + Environment.NewLine + string.Join(Environment.NewLine, lines.Select(l => "  " + l)) + Environment.NewLine;
    }

    /// <summary>"120 calls · 24.0 messages sent / call, 24.0 received · 2,880 received / s · first message p50 1.2 ms, p99 4.1 ms · gap p50 0.05 ms, p99 0.9 ms".</summary>
    public static string Describe(StreamMessages stream)
    {
        ArgumentNullException.ThrowIfNull(stream);
        var text = new StringBuilder();
        text.Append(CultureInfo.InvariantCulture, $"{Format.Integer(stream.Calls)} calls · {Format.Number(stream.SentPerCall)} messages sent / call, {Format.Number(stream.ReceivedPerCall)} received");
        text.Append(CultureInfo.InvariantCulture, $" · {Format.Number(stream.SentPerSecond)} sent / s, {Format.Number(stream.ReceivedPerSecond)} received / s");
        text.Append(stream.FirstMessage.Count == 0 ? " · no reply message"
            : string.Create(CultureInfo.InvariantCulture, $" · first message p50 {Format.Number(stream.FirstMessage.P50Ms)} ms, p99 {Format.Number(stream.FirstMessage.P99Ms)} ms"));
        text.Append(stream.MessageGap.Count == 0 ? " · no message gap (one reply message a call)"
            : string.Create(CultureInfo.InvariantCulture, $" · message gap p50 {Format.Number(stream.MessageGap.P50Ms)} ms, p99 {Format.Number(stream.MessageGap.P99Ms)} ms"));
        return text.ToString();
    }

    /// <summary>A group's table, one row per streaming series; null when none streamed.</summary>
    internal static TextTable? Table(ModeComparisonGroup group)
    {
        var rows = group.Rows.Where(r => r.Summary.Stream is not null).ToList();
        if (rows.Count == 0)
        {
            return null;
        }

        var table = new TextTable(Headers.Select((h, i) => i == 0 ? h : ">" + h).ToArray());
        foreach (var row in rows)
        {
            table.Add([row.Label, .. Cells(row.Summary.Stream!)]);
        }

        return table;
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

    internal static void AppendHtmlGroup(StringBuilder html, ModeComparisonGroup group, IReadOnlyDictionary<string, string> colors)
    {
        var rows = group.Rows.Where(r => r.Summary.Stream is not null).ToList();
        if (rows.Count == 0)
        {
            return;
        }

        html.AppendLine("<h3>Streams</h3>");
        html.AppendLine(CultureInfo.InvariantCulture, $"<p class=\"note\">{E(Lead)}</p>");
        html.Append("<div class=\"table-wrap\"><table class=\"data streams\"><thead><tr><th class=\"text\">mode</th>");
        html.AppendJoin("", Headers.Skip(1).Select(h => $"<th>{E(h)}</th>"));
        html.AppendLine("</tr></thead><tbody>");
        foreach (var row in rows)
        {
            html.Append(CultureInfo.InvariantCulture, $"<tr><td class=\"text\">{Chip(row.Label, colors[row.Label])}</td>");
            html.AppendJoin("", Cells(row.Summary.Stream!).Select(c => $"<td>{E(c)}</td>"));
            html.AppendLine("</tr>");
        }

        html.AppendLine("</tbody></table></div>");
    }

    private static string[] Cells(StreamMessages s) =>
    [
        Format.Integer(s.Calls), Format.Number(s.SentPerCall), Format.Number(s.ReceivedPerCall), Format.Number(s.SentPerSecond), Format.Number(s.ReceivedPerSecond),
        s.FirstMessage.Count == 0 ? Format.Missing : Format.Number(s.FirstMessage.P50Ms),
        s.FirstMessage.Count == 0 ? Format.Missing : Format.Number(s.FirstMessage.P99Ms),
        s.MessageGap.Count == 0 ? Format.Missing : Format.Number(s.MessageGap.P50Ms),
        s.MessageGap.Count == 0 ? Format.Missing : Format.Number(s.MessageGap.P99Ms),
        s.MessageGap.Count == 0 ? Format.Missing : Format.Number(s.MessageGap.MaxMs),
    ];
}
