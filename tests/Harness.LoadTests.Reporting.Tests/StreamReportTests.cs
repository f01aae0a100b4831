using Harness.LoadTests.Recording;
using static Harness.LoadTests.Reporting.Tests.Runs;

namespace Harness.LoadTests.Reporting.Tests;

/// <summary>A streaming series' figures: per call (time to first message) and per message (messages a second, gaps), in every format.</summary>
public sealed class StreamReportTests
{
    // Each second: 100 calls of 50 ms, each sending 2 messages and reading 10, the first after 4 ms, then 9 gaps of
    // 5 ms. Second 0 is warm-up, with 1 s first messages that must not count.
    private static RunData Streamed()
    {
        SecondSample Second(int s, long firstUs) => Sample(s, 10, Histogram((50_000, 100))) with
        {
            Stream = new StreamSample(100, 200, 1_000, Histogram((firstUs, 100)), Histogram((5_000, 900))),
        };
        var info = Series("grpc", "list-orders", "external") with { WarmUpSeconds = 1 };
        return Run([(info, [Second(0, 1_000_000), Second(1, 4_000), Second(2, 4_000)])]);
    }

    [Fact]
    public void The_summary_gives_messages_each_way_per_call_and_per_second_and_the_first_message_and_gap_of_the_measured_seconds()
    {
        // Act
        var stream = SeriesSummary.ForRun(Streamed()).Single().Stream!;
        var unary = SeriesSummary.From(Series("grpc", "compute", "iocp"), [Sample(0, 1, Histogram((1_000, 5)))]);

        // Assert
        Assert.Equal((200L, 400L, 2_000L), (stream.Calls, stream.MessagesSent, stream.MessagesReceived));
        Assert.Equal((2.0, 10.0), (stream.SentPerCall, stream.ReceivedPerCall));
        Assert.Equal((200.0, 1_000.0), (stream.SentPerSecond, stream.ReceivedPerSecond));
        Assert.Equal((200L, 4.0, 4.0), (stream.FirstMessage.Count, stream.FirstMessage.P50Ms, stream.FirstMessage.P99Ms));
        Assert.Equal((1_800L, 5.0), (stream.MessageGap.Count, stream.MessageGap.P99Ms));
        Assert.Null(unary.Stream);
    }

    [Fact]
    public void The_console_markdown_html_and_csv_show_the_streams_and_a_unary_run_shows_none()
    {
        // Arrange
        var run = Streamed();
        var analysis = RunAnalysis.Of(run);
        var unary = RunAnalysis.Of(Run([(Series("grpc", "compute", "iocp"), [Sample(0, 1, Histogram((1_000, 5)))])]));

        // Act
        var console = StreamSection.ConsoleText(analysis.Summaries);
        var markdown = MarkdownReport.Render(analysis);
        var html = HtmlReport.Render(analysis);
        var csv = CsvReport.Render(run.Timelines["grpc-list-orders-external"], 1).TrimEnd('\n').Split('\n');

        // Assert
        Assert.Contains("grpc-list-orders-external: 200 calls · 2.00 messages sent / call, 10.0 received · 200 sent / s, 1,000 received / s", console, StringComparison.Ordinal);
        Assert.Contains("first message p50 4.00 ms, p99 4.00 ms · message gap p50 5.00 ms, p99 5.00 ms", console, StringComparison.Ordinal);
        Assert.Contains("| external | 200 | 2.00 | 10.0 | 200 | 1,000 | 4.00 | 4.00 | 5.00 | 5.00 | 5.00 |", markdown, StringComparison.Ordinal);
        Assert.Contains("<h3>Streams</h3>", html, StringComparison.Ordinal);
        var header = csv[0].Split(',');
        var measured = csv[2].Split(',');
        Assert.Equal(("100", "200", "1000"), (measured[Array.IndexOf(header, "stream_calls")], measured[Array.IndexOf(header, "messages_sent")], measured[Array.IndexOf(header, "messages_received")]));
        Assert.Equal(("4", "5"), (measured[Array.IndexOf(header, "first_message_p50_ms")], measured[Array.IndexOf(header, "message_gap_p99_ms")]));
        Assert.Null(StreamSection.ConsoleText(unary.Summaries));
        Assert.DoesNotContain("<h3>Streams</h3>", HtmlReport.Render(unary), StringComparison.Ordinal);
    }
}
