using System.Text.Json;
using System.Text.RegularExpressions;
using static Harness.LoadTests.Reporting.Tests.Runs;

namespace Harness.LoadTests.Reporting.Tests;

public sealed partial class ReportWriterTests : IDisposable
{
    private readonly string _directory = Path.Combine(Path.GetTempPath(), "harness-report-" + Guid.NewGuid().ToString("N"));

    public void Dispose()
    {
        if (Directory.Exists(_directory))
        {
            Directory.Delete(_directory, recursive: true);
        }
    }

    [Fact]
    public void WriteAll_writes_the_page_the_summary_and_one_csv_per_series()
    {
        var run = ThreeModeRamp(seconds: 60);

        var files = ReportWriter.WriteAll(RunAnalysis.Of(run), _directory);

        Assert.Equal(Path.Combine(_directory, "index.html"), files.Html);
        Assert.Equal(Path.Combine(_directory, "summary.md"), files.Markdown);
        Assert.Equal(run.Manifest.Series.Select(s => Path.Combine(_directory, "csv", s.Id + ".csv")), files.Csv);
        Assert.All(files.All, f => Assert.True(new FileInfo(f).Length > 0, f));
    }

    [Fact]
    public void Warnings_of_the_reader_appear_in_the_page_header_and_at_the_top_of_the_summary()
    {
        string[] warnings = ["series grpc-compute-iocp: file damaged, 200 of 300 requests lost (its file holds 100).", "events.jsonl, line 2: unreadable <x>; skipped."];

        var files = ReportWriter.WriteAll(RunAnalysis.Of(ThreeModeRamp(seconds: 20), warnings: warnings), _directory);

        var html = File.ReadAllText(files.Html);
        var header = html[html.IndexOf("<header", StringComparison.Ordinal)..html.IndexOf("</header>", StringComparison.Ordinal)];
        Assert.Contains("Warnings: the raw files were damaged or incomplete (2).", header, StringComparison.Ordinal);
        Assert.Contains("<li>series grpc-compute-iocp: file damaged, 200 of 300 requests lost (its file holds 100).</li>", header, StringComparison.Ordinal);
        Assert.Contains("<li>events.jsonl, line 2: unreadable &lt;x&gt;; skipped.</li>", header, StringComparison.Ordinal);
        var markdown = File.ReadAllText(files.Markdown);
        Assert.True(markdown.IndexOf("- series grpc-compute-iocp: file damaged", StringComparison.Ordinal) < markdown.IndexOf("## grpc", StringComparison.Ordinal));
        Assert.Contains("- events.jsonl, line 2: unreadable <x>; skipped.", markdown, StringComparison.Ordinal);
        Assert.DoesNotContain("Warnings:", HtmlReport.Render(RunAnalysis.Of(ThreeModeRamp(seconds: 20))), StringComparison.Ordinal);
    }

    [Fact]
    public void The_html_is_self_contained_with_the_data_and_chart_library_inline()
    {
        var run = ThreeModeRamp();

        var html = HtmlReport.Render(RunAnalysis.Of(run));

        Assert.DoesNotMatch(ExternalReference(), html);
        Assert.DoesNotContain("sourceMappingURL", html, StringComparison.Ordinal);
        Assert.Contains("Chart.js v4.6.1", html, StringComparison.Ordinal);
        Assert.Equal(3, Regex.Count(html, "<script"));

        var json = DataBlob().Match(html);
        Assert.True(json.Success);
        using var data = JsonDocument.Parse(json.Groups[1].Value);
        var groups = data.RootElement.GetProperty("groups");
        Assert.Equal(["grpc-call-third-party", "soap-compute", "grpc-compute"], groups.EnumerateArray().Select(g => g.GetProperty("key").GetString()));
        var ramp = groups[0];
        Assert.Equal(["threadpool", "iocp", "custompool"], ramp.GetProperty("series").EnumerateArray().Select(s => s.GetProperty("label").GetString()));

        // The custompool target was down for seconds 50–59: those seconds are null, so the line breaks.
        var custom = ramp.GetProperty("series")[2].GetProperty("timeline");
        Assert.Equal(JsonValueKind.Null, custom.GetProperty("users")[55].ValueKind);
        Assert.Equal(JsonValueKind.Number, custom.GetProperty("users")[60].ValueKind);
        var window = Assert.Single(ramp.GetProperty("windows").EnumerateArray());
        Assert.Equal(50, window.GetProperty("from").GetDouble());
        Assert.Equal(60, window.GetProperty("to").GetDouble());
        Assert.Equal(4, ramp.GetProperty("events").GetArrayLength());
        Assert.False(groups[1].GetProperty("series")[1].GetProperty("hasServer").GetBoolean());
    }

    [Fact]
    public void The_html_shows_the_settings_summary_ratios_and_threshold_results()
    {
        var run = ThreeModeRamp(seconds: 60);
        var thresholds = ThresholdEvaluator.Evaluate(run, [Threshold.Parse("p99<4500ms")]);

        var html = HtmlReport.Render(RunAnalysis.Of(run) with { Thresholds = thresholds });

        Assert.Contains("harness run --profile ramp --modes threadpool,iocp,custompool", html, StringComparison.Ordinal);
        Assert.Contains("&quot;stages&quot;", html, StringComparison.Ordinal);
        Assert.Contains("Linux 6.1 (Debian 12)", html, StringComparison.Ordinal);
        Assert.Contains("agent-1", html, StringComparison.Ordinal);
        Assert.Contains("0.1.0-test", html, StringComparison.Ordinal);
        Assert.Contains("÷ threadpool", html, StringComparison.Ordinal);
        Assert.Contains("from intended start, ms", html, StringComparison.Ordinal);
        Assert.Contains("no server samples", html, StringComparison.Ordinal);
        Assert.Contains("custompool target stopped (fault injection: kill)", html, StringComparison.Ordinal);
        Assert.Contains($"{thresholds.Count} threshold checks: {thresholds.Count(t => t.Passed)} passed, {thresholds.Count(t => t.Failed)} failed, 0 not judged.", html, StringComparison.Ordinal);
    }

    [Fact]
    public void A_series_whose_metrics_answered_in_some_seconds_only_says_so_in_html_and_markdown()
    {
        // Arrange: 5 measured seconds, /metrics answered in 0, 3 and 4 (a starved target's fragment).
        var info = Series("soap", "call-third-party", "threadpool");
        var samples = Enumerable.Range(0, 5)
            .Select(s => Sample(s, 4, Histogram((1000, 2)), server: s is 1 or 2 ? null : Server("threadpool", 20, 2, s, 1.0 + s, 100, 10)))
            .ToList();
        var run = Run([(info, samples)]);

        // Act
        var html = HtmlReport.Render(RunAnalysis.Of(run));
        var markdown = MarkdownReport.Render(RunAnalysis.Of(run));

        // Assert
        Assert.Contains("server metrics for 3 of 5 s under load", html, StringComparison.Ordinal);
        Assert.Contains("- threadpool: server metrics for 3 of 5 s under load — the peaks of threads and queue come from those seconds only", markdown, StringComparison.Ordinal);
        Assert.DoesNotContain("no server samples —", markdown, StringComparison.Ordinal);
    }

    [Fact]
    public void A_series_with_a_server_sample_in_every_second_under_load_gets_no_coverage_note()
    {
        // Arrange: 5 loaded seconds, each sampled, then the idle second a series ends with, which has none.
        var info = Series("soap", "call-third-party", "threadpool");
        var samples = Enumerable.Range(0, 5).Select(s => Sample(s, 4, Histogram((1000, 2)), server: Server("threadpool", 20, 2, 0, 1.0 + s, 100, 10)))
            .Append(Sample(5, 0, new Recording.LatencyHistogram()))
            .ToList();

        var markdown = MarkdownReport.Render(RunAnalysis.Of(Run([(info, samples)])));

        Assert.DoesNotContain("server metrics for", markdown, StringComparison.Ordinal);
        Assert.DoesNotContain("no server samples —", markdown, StringComparison.Ordinal);
    }

    [Fact]
    public void The_csv_has_one_row_per_recorded_second_with_client_and_server_columns()
    {
        var samples = new[]
        {
            Sample(0, 4, Histogram((1000, 3), (3000, 1)), failures: 1, server: Server("iocp", 20, 2, 5, 1.0, 100, 10, workingSetMb: 64)),
            Sample(2, 8, Histogram((2000, 2)), server: Server("iocp", 22, 2, 0, 1.5, 160, 20, workingSetMb: 64)),
            Sample(3, 8, new Recording.LatencyHistogram()),
        };

        var lines = CsvReport.Render(samples).TrimEnd('\n').Split('\n');

        Assert.Equal(CsvReport.Header, lines[0]);
        Assert.Equal(4, lines.Length);
        var header = lines[0].Split(',');
        string Cell(int row, string column) => lines[row].Split(',')[Array.IndexOf(header, column)];
        // Second 0: 4 successes (latency columns) and 1 failure of 5 ms (failure columns), 5 requests.
        Assert.Equal("0,4,5,1,5,1.5,1,3,3,3", string.Join(',', lines[1].Split(',').Take(10)));
        Assert.Equal("3", Cell(1, "p99_9_ms"));
        Assert.Equal("3", Cell(1, "p99_99_ms"));
        Assert.Equal("5", Cell(1, "failure_mean_ms"));
        Assert.Equal("5", Cell(1, "failure_p99_ms"));
        Assert.Equal(string.Empty, Cell(2, "failure_mean_ms"));
        Assert.Equal("20", Cell(1, "os_threads"));
        Assert.Equal("5", Cell(1, "queue_length"));
        Assert.Equal("64", Cell(1, "working_set_mb"));
        Assert.Equal(string.Empty, Cell(1, "cpu_percent_of_one_core"));
        Assert.Equal("25", Cell(2, "cpu_percent_of_one_core"));
        Assert.Equal("35", Cell(2, "context_switches_per_s"));
        Assert.Equal("3,8,0,0,0,,,,,,,,,,,,,,,,,,,0,,,,,,,,,,,,,,,", lines[3]);
        Assert.Equal("grpc-compute-iocp.csv", CsvReport.FileNameFor("grpc-compute-iocp"));
        Assert.Equal("a_b.csv", CsvReport.FileNameFor("a/b"));
    }

    [Fact]
    public void The_markdown_summary_holds_each_group_table_ratios_failures_and_events()
    {
        var markdown = MarkdownReport.Render(RunAnalysis.Of(ThreeModeRamp(seconds: 120)));

        Assert.Contains("# Run 20261122-011900", markdown, StringComparison.Ordinal);
        Assert.Contains("## grpc · call-third-party", markdown, StringComparison.Ordinal);
        Assert.Contains("| mode | requests | req/s | mean ms | p50 ms | p90 ms | p99 ms | p99.9 ms | p99.99 ms | max ms | errors | error rate |", markdown, StringComparison.Ordinal);
        Assert.Contains("| ÷ threadpool | mean |", markdown, StringComparison.Ordinal);
        Assert.Contains("intended mean ms", markdown, StringComparison.Ordinal);
        Assert.Contains("- threadpool: DeadlineExceeded 29", markdown, StringComparison.Ordinal);
        Assert.Contains("| 310 | target-down | grpc-call-third-party-custompool |", markdown, StringComparison.Ordinal);
    }

    [GeneratedRegex("""<(script|img|iframe)[^>]*\ssrc\s*=|<link[^>]*\shref\s*=|@import|url\(\s*['"]?https?:""", RegexOptions.IgnoreCase)]
    private static partial Regex ExternalReference();

    [GeneratedRegex("""<script type="application/json" id="report-data">(.*?)</script>""", RegexOptions.Singleline)]
    private static partial Regex DataBlob();
}
