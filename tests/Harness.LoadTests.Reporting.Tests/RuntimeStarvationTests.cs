
namespace Harness.LoadTests.Reporting.Tests;

/// <summary>
/// The target's ThreadPool as its .NET runtime reported it: the figures per series, the starvation verdict in every
/// format, and the <c>starvation-threads</c> threshold (docs/runtime.md, "The starvation verdict").
/// </summary>
public sealed class RuntimeStarvationTests
{
    private const string StarvedVerdict = "ThreadPool starvation: 37 threads injected for starvation over 41 s; work waited in the queue 38 s";

    [Fact]
    public void A_starved_pools_figures_count_from_the_warm_ups_last_scrape()
    {
        var run = RuntimeRuns.Run(s => RuntimeRuns.Starved(s));

        var runtime = SeriesSummary.ForRun(run).Single().Runtime;

        Assert.NotNull(runtime);
        Assert.Equal(37, runtime.StarvationThreads);
        Assert.False(runtime.FromAdjustments);
        Assert.Equal((10, 50), runtime.StarvationSpan);
        Assert.Equal(41, runtime.StarvationSeconds);
        Assert.Equal(38, runtime.QueuedSeconds);
        Assert.Equal(48, runtime.PeakThreads);
        Assert.Equal(5, runtime.PeakQueueLength);
        Assert.Equal(37.0 / 55, runtime.ThreadsAddedPerSecond!.Value, 9);
        Assert.Equal([new("starvation", 37), new KeyValuePair<string, double>("climbing_move", 5)], runtime.AdjustmentsByReason);
        Assert.Equal(RuntimeRuns.Seconds - RuntimeRuns.WarmUpSeconds, runtime.Seconds);
        Assert.Equal(StarvedVerdict, runtime.Describe());
    }

    [Fact]
    public void A_pool_that_never_starved_says_so_with_the_seconds_its_queue_was_not_empty()
    {
        var run = RuntimeRuns.Run(s => RuntimeRuns.Healthy(s));

        var runtime = SeriesSummary.ForRun(run).Single().Runtime!;

        Assert.Equal(0, runtime.StarvationThreads);
        Assert.Null(runtime.StarvationSpan);
        Assert.False(runtime.Starved);
        Assert.Equal("no ThreadPool starvation; work waited in the queue 3 s", runtime.Describe());
    }

    [Fact]
    public void Where_only_the_adjustments_are_reported_the_starvation_and_cooperative_blocking_ones_are_counted()
    {
        var run = RuntimeRuns.Run(s => RuntimeRuns.AdjustmentsOnly(s));

        var runtime = SeriesSummary.ForRun(run).Single().Runtime!;

        Assert.True(runtime.FromAdjustments);
        Assert.Equal(4, runtime.StarvationThreads);
        Assert.Equal((20, 30), runtime.StarvationSpan);
        Assert.Null(runtime.QueuedSeconds);
        Assert.Equal("ThreadPool starvation: 4 thread adjustments for starvation and blocked waits over 11 s; queue length not reported", runtime.Describe());
    }

    [Fact]
    public void Goal_raises_for_blocked_waits_are_not_called_threads_injected()
    {
        // A blocked wait raises the pool's goal and its end lowers it: the raises summed are no count of threads.
        var run = RuntimeRuns.Run(s => RuntimeRuns.Starved(s, "threadpool", "cooperative_blocking"));

        var runtime = SeriesSummary.ForRun(run).Single().Runtime!;

        Assert.Equal("ThreadPool starvation: thread goal raised by 37 for blocked waits (cooperative blocking) over 41 s; work waited in the queue 38 s", runtime.Describe());
    }

    [Fact]
    public void Threads_added_only_for_blocked_waits_are_named_as_such()
    {
        var run = RuntimeRuns.Run(s => RuntimeRuns.AdjustmentsOnly(s, "custompool", starved: false));

        var runtime = SeriesSummary.ForRun(run).Single().Runtime!;

        Assert.Equal("ThreadPool starvation: 1 thread adjustment for blocked waits (cooperative blocking) over 1 s; queue length not reported", runtime.Describe());
    }

    [Fact]
    public void Gauges_alone_cannot_say_whether_the_pool_starved()
    {
        var run = RuntimeRuns.Run(s => RuntimeRuns.GaugesOnly(s));

        var runtime = SeriesSummary.ForRun(run).Single().Runtime!;

        Assert.Null(runtime.StarvationThreads);
        Assert.Equal(30, runtime.QueuedSeconds);
        Assert.StartsWith("ThreadPool starvation not known: the target's runtime figures have no thread adjustments", runtime.Describe(), StringComparison.Ordinal);
        Assert.EndsWith("; work waited in the queue 30 s", runtime.Describe(), StringComparison.Ordinal);
    }

    [Fact]
    public void A_counter_that_restarts_counts_what_it_gained_since_as_increase_does()
    {
        var run = RuntimeRuns.Run(s => RuntimeRuns.Starved(s));
        var samples = run.Timelines.Values.Single();
        var restarted = samples.Select(s => s.Second < 30 ? s : s with
        {
            Server = new Dictionary<string, double>(s.Server) { ["harness_runtime_threadpool_starvation_threads_total"] = s.Server["harness_runtime_threadpool_starvation_threads_total"] - 23 },
        }).ToList();

        var runtime = RuntimeThreadPool.From(run.Manifest.Series[0], restarted)!;

        // The target restarted at 30 (23 injected before): seconds 5–29 gain 23 − 3 = 20, the restarted counter's 1 at
        // second 30 counts whole, then 17 − 1 = 16 more.
        Assert.Equal(37, runtime.StarvationThreads);
    }

    [Fact]
    public void A_series_without_runtime_figures_has_no_verdict_anywhere()
    {
        var run = RuntimeRuns.Run(s => RuntimeRuns.Plain(s));
        var analysis = RunAnalysis.Of(run);

        Assert.Null(analysis.Summaries.Single().Runtime);
        Assert.Null(RuntimeSection.ConsoleText(analysis.Summaries));
        Assert.DoesNotContain("ThreadPool starvation", MarkdownReport.Render(analysis), StringComparison.Ordinal);
        var html = HtmlReport.Render(analysis);
        Assert.DoesNotContain("id=\"starvation\"", html, StringComparison.Ordinal);
        Assert.DoesNotContain("Runtime ThreadPool", html, StringComparison.Ordinal);
        Assert.DoesNotContain("runtimeThreads\":[", html, StringComparison.Ordinal);
    }

    [Fact]
    public void The_verdict_is_in_the_console_text_the_summary_and_the_pages_glance_with_the_inference_said()
    {
        var run = RuntimeRuns.Run(s => RuntimeRuns.Starved(s), s => RuntimeRuns.Healthy(s), s => RuntimeRuns.Plain(s, mode: "custompool"));
        var analysis = RunAnalysis.Of(run);

        var console = RuntimeSection.ConsoleText(analysis.Summaries)!;
        var markdown = MarkdownReport.Render(analysis);
        var html = HtmlReport.Render(analysis);

        Assert.Contains($"grpc-compute-threadpool: {StarvedVerdict}", console, StringComparison.Ordinal);
        Assert.Contains("grpc-compute-iocp: no ThreadPool starvation; work waited in the queue 3 s", console, StringComparison.Ordinal);
        Assert.DoesNotContain("custompool", console, StringComparison.Ordinal);
        Assert.Contains("inferred from 1-second samples", console, StringComparison.Ordinal);

        Assert.Contains($"- grpc-compute-threadpool: {StarvedVerdict}", markdown, StringComparison.Ordinal);
        Assert.Contains("| threadpool | 48 | 5 | 0.673 | 38 | 37 | starvation 37 · climbing_move 5 | 55 |", markdown, StringComparison.Ordinal);
        Assert.Contains("runtime's peak threads", markdown, StringComparison.Ordinal);
        Assert.Contains("<th title=\"the ThreadPool as the target's .NET runtime reported it (dotnet_thread_pool_thread_count)\">runtime's peak threads</th>", html, StringComparison.Ordinal);

        var glance = html[html.IndexOf("id=\"glance\"", StringComparison.Ordinal)..html.IndexOf("<table", html.IndexOf("id=\"glance\"", StringComparison.Ordinal), StringComparison.Ordinal)];
        Assert.Contains("id=\"starvation\"", glance, StringComparison.Ordinal);
        Assert.Contains("class=\"notice error\" id=\"starvation\"", glance, StringComparison.Ordinal);
        Assert.Contains(Html.E(StarvedVerdict), glance, StringComparison.Ordinal);
        Assert.Contains("title=\"&quot;Work waited in the queue&quot; counts the seconds", glance, StringComparison.Ordinal);
        Assert.Contains("<h3>Runtime ThreadPool</h3>", html, StringComparison.Ordinal);
        Assert.Contains("\"runtimeThreads\":[", html, StringComparison.Ordinal);
        Assert.Contains("\"runtimeQueue\":[", html, StringComparison.Ordinal);
    }

    [Fact]
    public void The_runtimes_threads_and_queue_are_csv_columns_of_each_second()
    {
        var run = RuntimeRuns.Run(s => RuntimeRuns.Starved(s));

        var lines = CsvReport.Render(run.Timelines.Values.Single(), RuntimeRuns.WarmUpSeconds).Split('\n', StringSplitOptions.RemoveEmptyEntries);
        var header = lines[0].Split(',');
        var second20 = lines[21].Split(',');

        Assert.Equal("20", second20[0]);
        Assert.Equal("22", second20[Array.IndexOf(header, "runtime_threadpool_threads")]);
        Assert.Equal("5", second20[Array.IndexOf(header, "runtime_threadpool_queue_length")]);
    }

    [Theory]
    [InlineData("starvation-threads=0", false, "starvation-threads = 37, limit = 0 (ThreadPool starvation: 37 threads injected")]
    [InlineData("starvation-threads<40", true, "starvation-threads = 37, limit < 40")]
    [InlineData("mode=iocp:starvation-threads==0", true, "starvation-threads = 0, limit = 0 (no ThreadPool starvation")]
    public void The_threshold_judges_the_threads_injected(string expression, bool passed, string message)
    {
        var run = RuntimeRuns.Run(s => RuntimeRuns.Starved(s), s => RuntimeRuns.Healthy(s));

        var result = ThresholdEvaluator.Evaluate(run, [Threshold.Parse(expression)]).First();

        Assert.Equal(passed, result.Passed);
        Assert.StartsWith(message, result.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Without_figures_that_count_injections_the_threshold_fails_and_says_why()
    {
        var run = RuntimeRuns.Run(s => RuntimeRuns.Plain(s), s => RuntimeRuns.GaugesOnly(s, mode: "iocp"));

        var results = ThresholdEvaluator.Evaluate(run, [Threshold.Parse("starvation-threads=0")]);
        var html = HtmlReport.Render(RunAnalysis.Of(run, [Threshold.Parse("starvation-threads=0")]));

        Assert.All(results, r => Assert.Equal(Verdict.Failed, r.Verdict));
        Assert.Contains("no runtime ThreadPool figures in this series", results[0].Message, StringComparison.Ordinal);
        Assert.Contains("have no thread adjustments", results[1].Message, StringComparison.Ordinal);
        Assert.Contains("no runtime ThreadPool figures in this series", html, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("starvation-threads<5ms", "'starvation-threads' takes no unit 'ms'")]
    [InlineData("starvation-thread<5", "unknown metric 'starvation-thread'")]
    [InlineData("p99=4500ms", "unknown operator '=' for 'p99': '=' compares counts only (errors, starvation-threads)")]
    [InlineData("errors=1%", "'=' compares counts, not an error rate")]
    [InlineData("stack=grpc/stack=soap:starvation-threads<1x", "a stack ratio takes mean")]
    [InlineData("starvation-threads<-1", "'starvation-threads' cannot be negative")]
    public void Bad_input_is_refused_naming_the_valid_metrics(string expression, string reason)
    {
        var error = Assert.Throws<FormatException>(() => Threshold.Parse(expression));

        Assert.Contains(reason, error.Message, StringComparison.Ordinal);
        Assert.Contains("starvation-threads (threads the target's .NET runtime injected", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Equal_is_a_count_comparison()
    {
        var threshold = Threshold.Parse("errors=0");

        Assert.Equal(ThresholdOperator.Equal, threshold.Operator);
        Assert.True(threshold.IsMetBy(0));
        Assert.False(threshold.IsMetBy(1));
        Assert.Equal("=", threshold.OperatorText);
    }
}
